/**
 * Parity: `scripts/setup.sh paths --json` (Bash) and `resolvePaths` (TypeScript) must give
 * the same locations for every environment. A matrix of environments — each variable alone
 * through every kind of value, then seeded random combinations of all of them — per platform.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESSES, HARNESS_LIST } from './harnesses/index.ts';
import { HARNESS_SCOPES, SYSTEM_SETTINGS, harnessConfigFile, harnessHomeDir, homeFromEnv, resolvePaths, resolveSystemPaths, type Env, type InstallableHarness } from './paths.ts';

const SETUP = path.resolve(import.meta.dirname, '..', 'scripts', 'setup.sh');

type Platform = 'linux' | 'darwin' | 'win32';

const POSIX_VALUES = [
  undefined,
  '',
  '/abs/dir',
  '/abs/trailing//',
  '/',
  'relative/dir',
  './dot',
  '~/tilde',
  '/a/../b//c/./d',
  '/with space/and\ttab',
  `/odd/'quote"/back\\slash`,
  '/ünïcode/目录',
];
const WIN_VALUES = [
  undefined,
  '',
  'C:\\Users\\me\\Dir',
  'C:\\Trailing\\\\',
  'D:/forward/slashes/',
  'C:\\',
  '\\\\server\\share\\x',
  '\\rooted',
  '/posix/style',
  'relative\\dir',
  'C:relative',
  'C:\\with space\\x',
];
const HOMES: Record<Platform, (string | undefined)[]> = {
  linux: ['/home/u', '/home/u/', '/', '/home/with space', undefined, ''],
  darwin: ['/Users/u', '/Users/u/'],
  win32: ['C:\\Users\\me', 'C:\\Users\\me\\', '\\\\srv\\home\\me', undefined],
};
const VARS = [
  'BUCKLER_DATA_HOME',
  'BUCKLER_CONFIG_HOME',
  'BUCKLER_STATE_HOME',
  'BUCKLER_BIN_DIR',
  'XDG_DATA_HOME',
  'XDG_CONFIG_HOME',
  'XDG_STATE_HOME',
  'LOCALAPPDATA',
  'APPDATA',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  'COPILOT_HOME',
  'QWEN_HOME',
];
// Every variable a harness record names for its folder, so a new harness's is covered.
for (const name of HARNESS_LIST) {
  const v = (HARNESSES[name].home as { variable?: { name: string } }).variable;
  if (v !== undefined && !VARS.includes(v.name)) VARS.push(v.name);
}

interface Case {
  platform: Platform;
  env: Record<string, string>;
}

function homeVar(platform: Platform): string {
  return platform === 'win32' ? 'USERPROFILE' : 'HOME';
}

function withValue(env: Record<string, string>, name: string, value: string | undefined): Record<string, string> {
  const out = { ...env };
  if (value === undefined) delete out[name];
  else out[name] = value;
  return out;
}

/** Deterministic PRNG (mulberry32) so a failing combination is reproducible. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function matrix(): Case[] {
  const cases: Case[] = [];
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    const values = platform === 'win32' ? [...WIN_VALUES, ...POSIX_VALUES.slice(2, 5)] : [...POSIX_VALUES, ...WIN_VALUES.slice(2, 4)];
    const base = { [homeVar(platform)]: HOMES[platform][0] as string };
    for (const home of HOMES[platform]) cases.push({ platform, env: withValue({}, homeVar(platform), home) });
    // darwin shares the POSIX rules with linux: only the seeded combinations below.
    const full = platform !== 'darwin';
    // Each variable alone through every kind of value.
    if (full) for (const name of VARS) for (const v of values) cases.push({ platform, env: withValue(base, name, v) });
    // An override beside its XDG variable (the override must win).
    if (full) for (const kind of ['DATA', 'CONFIG', 'STATE']) {
      for (const o of values.slice(0, 8)) {
        for (const x of values.slice(0, 5)) {
          cases.push({ platform, env: withValue(withValue(base, `BUCKLER_${kind}_HOME`, o), `XDG_${kind}_HOME`, x) });
        }
      }
    }
    // Everything at once, seeded.
    const r = rng(platform.length * 7919);
    for (let i = 0; i < (full ? 40 : 25); i++) {
      let env: Record<string, string> = {};
      const homes = HOMES[platform];
      env = withValue(env, homeVar(platform), homes[Math.floor(r() * homes.length)]);
      for (const name of VARS) env = withValue(env, name, values[Math.floor(r() * values.length)]);
      cases.push({ platform, env });
    }
  }
  return cases;
}

interface BashResult {
  code: number;
  stdout: string;
  stderr: string;
}

const sq = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;

/**
 * Runs every case in ONE bash process that sources setup.sh (a subshell per case, each with
 * only that case's variables): a process per case would cost ~20 ms each.
 */
function runSetupPathsBatch(cases: Case[]): Promise<BashResult[]> {
  const names = ['HOME', 'USERPROFILE', 'BUCKLER_PLATFORM', ...VARS];
  const lines = [`source ${sq(SETUP)}`];
  for (const c of cases) {
    const sets = Object.entries({ BUCKLER_PLATFORM: c.platform, ...c.env }).map(([k, v]) => `export ${k}=${sq(v)}`);
    lines.push(`if ( unset ${names.join(' ')}; ${sets.join('; ')}; cmd_paths --json ) 2>&1; then rc=0; else rc=$?; fi; printf '\\n\\001%s\\000' "$rc"`);
  }
  return new Promise((resolve, reject) => {
    const child = execFile('bash', ['-s'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`batch failed: ${stderr}`));
      const chunks = stdout.split('\0').slice(0, -1);
      resolve(
        chunks.map((chunk) => {
          const at = chunk.lastIndexOf('\n\u0001');
          const output = chunk.slice(0, at);
          const code = Number(chunk.slice(at + 2));
          return code === 0 ? { code, stdout: output, stderr: '' } : { code, stdout: '', stderr: output };
        }),
      );
    });
    child.stdin?.end(lines.join('\n') + '\n');
  });
}

/** The real entry point, one process (for the few cases that must go through `bk_main`). */
function runSetupPaths(c: Case): Promise<BashResult> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [SETUP, 'paths', '--json'],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', BUCKLER_PLATFORM: c.platform, ...c.env } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function expected(c: Case): Record<string, unknown> | null {
  const env: Env = c.env;
  const home = homeFromEnv(env, c.platform);
  if (home === undefined) return null;
  const ctx = { env, platform: c.platform, home };
  const hc = { ...ctx, project: '/unused' };
  return {
    platform: c.platform,
    ...resolvePaths(ctx),
    harnesses: Object.fromEntries(
      (Object.keys(HARNESS_SCOPES) as InstallableHarness[]).map((h) => [h, { home: harnessHomeDir(h, ctx), user: harnessConfigFile(h, 'user', hc) }]),
    ),
  };
}

describe('setup.sh paths and resolvePaths agree', () => {
  const cases = matrix();

  it(`over ${cases.length} environments on linux, darwin and win32`, async () => {
    expect(cases.length).toBeGreaterThan(400);
    const results = await runSetupPathsBatch(cases);
    expect(results).toHaveLength(cases.length);
    const mismatches: string[] = [];
    cases.forEach((c, i) => {
      const r = results[i] as BashResult;
      const want = expected(c);
      const label = `${c.platform} ${JSON.stringify(c.env)}`;
      if (want === null) {
        if (r.code === 0 || !/is not set/.test(r.stderr)) mismatches.push(`${label}: expected "not set" error, got ${r.code} ${r.stderr}`);
        return;
      }
      if (r.code !== 0) {
        mismatches.push(`${label}: setup.sh failed: ${r.stderr}`);
        return;
      }
      const got = JSON.parse(r.stdout) as unknown;
      try {
        expect(got).toEqual(want);
      } catch {
        mismatches.push(`${label}:\n  bash ${JSON.stringify(got)}\n  ts   ${JSON.stringify(want)}`);
      }
    });
    expect(mismatches.slice(0, 5).join('\n')).toBe('');
  }, 120_000);

  it('gives the same answer through the real entry point (sample)', async () => {
    const sample = cases.filter((_, i) => i % 97 === 0);
    for (const c of sample) {
      const r = await runSetupPaths(c);
      const want = expected(c);
      if (want === null) expect(r.code).not.toBe(0);
      else expect(JSON.parse(r.stdout)).toEqual(want);
    }
  }, 60_000);

  it('detects the platform itself when BUCKLER_PLATFORM is unset', async () => {
    const r = await new Promise<BashResult>((resolve) =>
      execFile('bash', [SETUP, 'paths', '--json'], { env: { PATH: process.env.PATH ?? '', HOME: '/home/u' } }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as { platform: string; dataHome: string };
    expect(got.platform).toBe(process.platform);
    expect(got.dataHome).toBe(resolvePaths({ env: { HOME: '/home/u' }, platform: process.platform, home: '/home/u' }).dataHome);
  });

  it('refuses an unknown BUCKLER_PLATFORM', async () => {
    const r = await runSetupPaths({ platform: 'plan9' as Platform, env: { HOME: '/h' } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/BUCKLER_PLATFORM='plan9' is not a Node platform name/);
  });
});

describe('setup.sh paths --system and resolveSystemPaths agree', () => {
  // Whose approvals: this user's id; root's with a valid SUDO_UID: that one (process-paths.ts approvalsUid).
  const me = process.getuid?.() ?? 0;
  const uidFor = (sudo: string | undefined): number => (me === 0 && sudo !== undefined && /^[1-9][0-9]{0,9}$/.test(sudo) ? Number(sudo) : me);
  it.each<[string | undefined, string | undefined, Record<string, string>]>([
    ['/home/u', undefined, {}],
    ['/home/with space/', '1234', {}],
    ['/home/u', '0', {}],
    ['/home/u', 'x1', {}],
    // No location variable moves anything in this mode.
    ['/home/u', '77', { BUCKLER_CONFIG_HOME: '/evil', BUCKLER_STATE_HOME: '/evil', XDG_STATE_HOME: '/evil', XDG_CONFIG_HOME: '/evil', BUCKLER_DATA_HOME: '/evil' }],
  ])('HOME=%j SUDO_UID=%j', async (home, sudo, extra) => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...extra };
    if (home !== undefined) env['HOME'] = home;
    if (sudo !== undefined) env['SUDO_UID'] = sudo;
    const r = await new Promise<BashResult>((resolve) =>
      execFile('bash', [SETUP, 'paths', '--system', '--json'], { env }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr })),
    );
    expect(r.code, r.stderr).toBe(0);
    const { systemSettings, ...got } = JSON.parse(r.stdout) as { systemSettings: Record<string, string> } & Record<string, string>;
    expect(got).toEqual(resolveSystemPaths({ env, platform: 'linux', home: home ?? '/' }, uidFor(sudo)));
    expect(systemSettings).toEqual(Object.fromEntries(Object.entries(SYSTEM_SETTINGS).map(([h, f]) => [h, f ?? ''])));
  });
});

describe('setup.sh uninstall finds the file it recorded', () => {
  it('bk_harness_env_for sets what makes each harness user file the recorded one, whatever the variables say today', async () => {
    const recorded: Array<[string, string]> = [];
    for (const env of [{ HOME: '/home/u' }, { HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cc', CODEX_HOME: '/cx', GEMINI_CLI_HOME: '/g', COPILOT_HOME: '/cp', QWEN_HOME: '/q', XDG_CONFIG_HOME: '/x' }]) {
      const ctx = { env, platform: 'linux' as const, home: '/home/u', project: '/unused' };
      for (const h of HARNESS_LIST) recorded.push([h, harnessConfigFile(h, 'user', ctx)]);
    }
    // Today's environment points every harness elsewhere.
    const today = `export HOME=/elsewhere CLAUDE_CONFIG_DIR=/o1 CODEX_HOME=/o2 GEMINI_CLI_HOME=/o3 COPILOT_HOME=/o4 QWEN_HOME=/o5 XDG_CONFIG_HOME=/o6`;
    const lines = [`source ${sq(SETUP)}`, 'export BUCKLER_PLATFORM=linux'];
    for (const [h, file] of recorded) lines.push(`( ${today}; bk_harness_env_for ${h} ${sq(file)}; bk_resolve_paths; bk_harness_user_file f ${h}; printf '%s\\n' "$f" )`);
    const out = await new Promise<string>((resolve, reject) => {
      const child = execFile('bash', ['-s'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
      child.stdin?.end(lines.join('\n') + '\n');
    });
    expect(out.trimEnd().split('\n')).toEqual(recorded.map(([, f]) => f));
  });
});
