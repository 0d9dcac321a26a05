/**
 * End to end, every driver: whatever goes wrong around a decision (a tampered or symlinked packs
 * cache, an audit log that must not be written, broken user packs), stdout carries exactly one
 * JSON object or nothing (a real Claude Code reads anything else as plain text and lets the tool
 * run), the exit code is 0, the decision is the policy's, and the trouble is told on stderr.
 * (Bad input and the stdin deadline: driver.e2e.test.ts and hook-stdin.e2e.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../adapters/registry.ts';
import { BUNDLE, ensureBuilt } from './build.testing.ts';

let root = '';
let home = '';
let n = 0;

beforeAll(() => {
  ensureBuilt();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-failpaths-'));
}, 120_000);
afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  home = path.join(root, `h${n++}`);
  fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true });
});

const stateDir = (): string => path.join(home, 'state');
const cacheDir = (): string => path.join(stateDir(), 'cache');
const cacheFile = (): string => path.join(cacheDir(), 'policy-config.json');

interface Hook {
  status: number | null;
  stdout: string;
  stderr: string;
}

function hook(harness: string, payload: object): Hook {
  const r = spawnSync(process.execPath, [BUNDLE, '--driver', harness], {
    input: JSON.stringify(payload),
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      BUCKLER_CONFIG_HOME: path.join(home, 'config'),
      BUCKLER_STATE_HOME: stateDir(),
      BUCKLER_DATA_HOME: path.join(home, 'data'),
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exactly one JSON object and a newline, or nothing; exit 0. */
function replyOf(h: Hook): Record<string, unknown> | null {
  expect(h.status, h.stderr).toBe(0);
  if (h.stdout === '') return null;
  expect(h.stdout.endsWith('\n')).toBe(true);
  const body = h.stdout.slice(0, -1);
  expect(body).not.toContain('\n');
  const v = JSON.parse(body) as unknown;
  expect(typeof v === 'object' && v !== null && !Array.isArray(v)).toBe(true);
  return v as Record<string, unknown>;
}

const PAYLOADS = {
  cursor: {
    pre: (command: string) => ({ hook_event_name: 'beforeShellExecution', command, cwd: '/p', workspace_roots: ['/p'] }),
    post: (command: string) => ({ hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: { command }, cwd: '/p' }),
  },
  'claude-code': {
    pre: (command: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command } }),
    post: (command: string) => ({ hook_event_name: 'PostToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command } }),
  },
} as const;

/** What to break before the hook runs, and what stderr must then say. */
const TROUBLES: [string, () => void, RegExp][] = [
  [
    'a packs cache edited to allow everything',
    () => fs.writeFileSync(cacheFile(), fs.readFileSync(cacheFile(), 'utf8').replaceAll('"action":"deny"', '"action":"allow"')),
    /compiled-pack cache .* was not used \(digest mismatch/,
  ],
  [
    'a packs cache directory replaced by a symlink to a copy',
    () => {
      const copy = path.join(home, 'copy');
      fs.renameSync(cacheDir(), copy);
      fs.symlinkSync(copy, cacheDir());
    },
    /the cache directory is a symbolic link/,
  ],
  [
    'a symlink at the audit log path',
    () => {
      fs.writeFileSync(path.join(home, 'config', 'config.toml'), '[core]\naudit_log = true\n');
      fs.writeFileSync(path.join(home, 'victim'), 'x\n');
      fs.symlinkSync(path.join(home, 'victim'), path.join(stateDir(), 'audit.jsonl'));
    },
    /audit record not written .*symbolic link/,
  ],
  [
    'broken user packs',
    () => {
      fs.writeFileSync(path.join(home, 'config', 'rules.d', 'broken.yaml'), 'rules: [\n');
      fs.writeFileSync(path.join(home, 'config', 'rules.d', 'bad.yaml'), 'pack: bad\nrules:\n  - id: x\n    trigger: pre_shell_exec\n    action: forbid\n');
    },
    /broken\.yaml:\d+: not valid YAML/,
  ],
];

describe.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('%s', (harness) => {
  const P = PAYLOADS[harness];
  const adapter = ADAPTERS[harness] as (typeof ADAPTERS)[string];
  it.each(TROUBLES)('%s: one JSON object or nothing, and the policy still decides', (_name, breakIt, said) => {
    // A first hook builds the cache (and the state directory) that the trouble then breaks.
    replyOf(hook(harness, P.pre('ls')));
    expect(fs.existsSync(cacheFile())).toBe(true);
    breakIt();
    const pre = hook(harness, P.pre('git push --force origin main'));
    expect(adapter.isBlocking({ stdout: replyOf(pre), exitCode: pre.status ?? -1 })).toBe(true);
    expect(pre.stdout).toContain('no-force-push');
    expect(pre.stderr).toMatch(said);
    const allowed = hook(harness, P.pre('ls -la'));
    expect(adapter.isBlocking({ stdout: replyOf(allowed), exitCode: allowed.status ?? -1 })).toBe(false);
    const post = hook(harness, P.post('git push --force origin main'));
    expect(adapter.isBlocking({ stdout: replyOf(post), exitCode: post.status ?? -1 })).toBe(false);
  });
});
