/**
 * The locked-down install end to end (issue 22, docs/install.md "Locked-down install"): inside a
 * private mount namespace (src/system-install.ns.mjs: /etc, /var/lib and /opt overlaid on a
 * tmpfs, so nothing on the machine changes) install --system; as an unused user id every tamper
 * route fails to change a decision, for every harness with a system settings file; a sudo-style
 * grant lets exactly its command through until it expires; uninstall --system leaves the
 * namespace as before. Outside the namespace, this test checks that nothing changed.
 *
 * Needs root, Linux, `unshare`, `setpriv` and overlay mounts (CI runs as root); skipped with the
 * reason printed otherwise.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle } from './cli/e2e.testing.ts';
import { SYSTEM_DIRS, SYSTEM_SETTINGS } from './paths.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCRIPT = path.join(ROOT, 'src', 'system-install.ns.mjs');

/** Why the namespace cannot be made here, or null. */
function cannotRun(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root (mount namespaces and setpriv need it)';
  for (const tool of ['unshare', 'setpriv', 'python3', 'mount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  const probe = fs.mkdtempSync(path.join(tmpdir(), 'buckler-ns-probe-'));
  try {
    // Every hook after the person writes their own config compiles the policy (they cannot
    // write the root-owned cache): on a loaded 2-core machine the whole run took over 15 minutes.
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `mount -t tmpfs tmpfs ${probe} && mkdir ${probe}/u ${probe}/w && mount -t overlay overlay -o lowerdir=/etc,upperdir=${probe}/u,workdir=${probe}/w /etc`], { encoding: 'utf8' });
    if (r.status !== 0) return `a private mount namespace with an overlay on /etc cannot be made: ${r.stderr.trim()}`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
  return null;
}

/** An unused user id: in no passwd entry, owning no process. */
function unusedUid(): number {
  const used = new Set(
    fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => Number(l.split(':')[2])),
  );
  let uid = 47_000 + (process.pid % 1000);
  while (used.has(uid)) uid++;
  return uid;
}

/** Each watched path on the machine: absent, a directory, or the digest of the file. */
function hostState(): Record<string, string> {
  const out: Record<string, string> = {};
  const paths = [SYSTEM_DIRS.code, SYSTEM_DIRS.config, SYSTEM_DIRS.state, ...Object.values(SYSTEM_SETTINGS).filter((f): f is string => f !== null).flatMap((f) => [f, path.dirname(f)]), '/usr/bin/logger'];
  for (const p of paths) {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    out[p] = st === undefined ? 'absent' : st.isDirectory() ? `dir ${fs.readdirSync(p).sort().join(',')}` : crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

const reason = cannotRun();
if (reason !== null) console.log(`system-install.e2e: skipped: ${reason}`);

interface Step {
  name: string;
  ok: boolean;
  detail: string;
}

describe.skipIf(reason !== null)('locked-down install in a private mount namespace', () => {
  let tmp = '';
  let host: Record<string, string> = {};
  let steps: Step[] = [];
  let raw = '';

  beforeAll(() => {
    bundle();
    tmp = fs.mkdtempSync(path.join(tmpdir(), 'buckler-system-'));
    // The person (another user id) must be able to reach their home inside it.
    fs.chmodSync(tmp, 0o755);
    host = hostState();
    const pack = spawnSync('npm', ['pack', '--offline', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8' });
    if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    const tarball = path.join(tmp, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
    const scratch = path.join(tmp, 'ns');
    fs.mkdirSync(scratch);
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', process.execPath, SCRIPT, tarball, scratch, String(unusedUid())], { encoding: 'utf8', timeout: 1_500_000, maxBuffer: 64 << 20 });
    raw = `${r.stdout}\n${r.stderr}`;
    const last = r.stdout.trim().split('\n').pop() ?? '';
    steps = last.startsWith('{') ? (JSON.parse(last) as { steps: Step[] }).steps : [];
  }, 1_560_000);

  afterAll(() => {
    if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('ran every step', () => {
    expect(steps.length, raw).toBeGreaterThan(60);
  });

  it('every step holds', () => {
    const failed = steps.filter((s) => !s.ok).map((s) => `${s.name}: ${s.detail}`);
    expect(failed, raw.slice(-4000)).toEqual([]);
  });

  it.each([
    'install --system',
    'code cache made at install time',
    'after tamper: claude-code denies git push --force',
    'with bypass and location variables: gemini-cli denies git push --force',
    'sudo allow grants for SUDO_UID, time-bound, and says so',
    'the granted command passes while the grant lasts (every time)',
    'the grant expires',
    'uninstall leaves the namespace as before',
  ])('has the step %s', (name) => {
    expect(steps.find((s) => s.name === name)?.ok, JSON.stringify(steps.find((s) => s.name === name))).toBe(true);
  });

  it('changed nothing outside the namespace', () => {
    expect(hostState()).toEqual(host);
  });
});
