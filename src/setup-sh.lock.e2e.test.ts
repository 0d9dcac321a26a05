/**
 * scripts/setup.sh's lock, end to end in a temporary home: an install killed while it holds the
 * lock does not stop the next run; a live holder does, naming its process. The install is held
 * at a known point by an `npm` on PATH that announces itself and waits, so the kill always lands
 * with the lock taken (no timing).
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SETUP = path.join(ROOT, 'scripts', 'setup.sh');

let home: string;
let env: Record<string, string>;
const lockDir = (): string => path.join(home, '.local', 'share', 'buckler', '.setup-lock');

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-setup-lock-')));
  const bin = path.join(home, 'fake-bin');
  fs.mkdirSync(bin);
  // An npm that says it started, then waits to be killed (bounded: 60 s).
  fs.writeFileSync(path.join(bin, 'npm'), `#!/bin/sh\necho started >"${path.join(home, 'npm-started')}"\nexec sleep 60\n`, { mode: 0o755 });
  env = {
    HOME: home,
    PATH: [bin, path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
  };
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

function setup(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('bash', [SETUP, ...args], { env, encoding: 'utf8', cwd: home, timeout: 60_000 });
}

/** Starts `setup.sh install`, waits until it is inside npm (lock held), and SIGKILLs its whole group. */
async function killedInstall(): Promise<void> {
  const child = spawn('bash', [SETUP, 'install', '--no-hooks'], { env, cwd: home, detached: true, stdio: 'ignore' });
  const closed = new Promise((resolve) => child.on('close', resolve));
  const marker = path.join(home, 'npm-started');
  for (let i = 0; i < 600 && !fs.existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
  expect(fs.existsSync(marker)).toBe(true);
  expect(fs.existsSync(path.join(lockDir(), 'owner'))).toBe(true);
  process.kill(-(child.pid as number), 'SIGKILL');
  await closed;
}

describe('setup.sh lock', () => {
  it('an install killed while holding the lock does not stop the next run', async () => {
    await killedInstall();
    // The lock is still there: nothing released it.
    const owner = fs.readFileSync(path.join(lockDir(), 'owner'), 'utf8').split(' ');
    expect(owner[0]).toMatch(/^\d+$/);
    const r = setup('uninstall');
    expect(r.stderr).toContain(`removing the stale lock ${lockDir()}: process ${owner[0]} that took it is gone`);
    expect(r.stderr).not.toContain('another setup.sh is running');
    expect(r.status).toBe(0);
    expect(fs.existsSync(lockDir())).toBe(false);
  }, 90_000);

  it('a live holder stops the run, naming its process; the lock stays', () => {
    fs.mkdirSync(lockDir(), { recursive: true });
    const owner = `${process.pid} ${os.hostname()} ${Math.floor(Date.now() / 1000)}\n`;
    fs.writeFileSync(path.join(lockDir(), 'owner'), owner);
    const r = setup('uninstall');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`another setup.sh is running (lock ${lockDir()}, held by process ${process.pid})`);
    expect(fs.readFileSync(path.join(lockDir(), 'owner'), 'utf8')).toBe(owner);
  });

  it('a lock that names no owner (an older setup.sh, or killed before writing it) is stale after a minute', () => {
    fs.mkdirSync(lockDir(), { recursive: true });
    expect(setup('uninstall').stderr).toContain('another setup.sh is running');
    const old = (Date.now() - 120_000) / 1000;
    fs.utimesSync(lockDir(), old, old);
    const r = setup('uninstall');
    expect(r.stderr).toContain('it names no owner and is over a minute old');
    expect(r.status).toBe(0);
  });

  it('a lock older than the limit is stale even when its pid is alive (reused)', () => {
    fs.mkdirSync(lockDir(), { recursive: true });
    const ownerFile = path.join(lockDir(), 'owner');
    fs.writeFileSync(ownerFile, `${process.pid} ${os.hostname()} 0\n`);
    const old = (Date.now() - 3 * 3600_000) / 1000;
    fs.utimesSync(ownerFile, old, old);
    const r = setup('uninstall');
    expect(r.stderr).toContain('it is over 120 minutes old');
    expect(r.status).toBe(0);
  });
});
