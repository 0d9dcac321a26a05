/**
 * End to end, every driver: whatever goes wrong around a decision (a tampered or symlinked packs
 * cache, an audit log that must not be written, broken user packs), stdout carries exactly one
 * JSON object or nothing (a real Claude Code reads anything else as plain text and lets the tool
 * run), the exit code is 0, the decision is the policy's, and the trouble is told on stderr.
 * (Bad input and the stdin deadline: driver.e2e.test.ts and hook-stdin.e2e.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../adapters/registry.ts';
import { e2eDir, homeEnv, hook as runHook, SHELL_EVENTS, singleReply, type Ran } from './e2e.testing.ts';

const root = e2eDir('buckler-failpaths-');
let home = '';
let n = 0;

beforeEach(() => {
  home = path.join(root, `h${n++}`);
  fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true });
});

const stateDir = (): string => path.join(home, 'state');
const cacheDir = (): string => path.join(stateDir(), 'cache');
const cacheFile = (): string => path.join(cacheDir(), 'policy-config.json');

const hook = (harness: string, payload: object): Ran => runHook(harness, payload, { env: homeEnv(home), timeout: 20_000 });

/** Exactly one JSON object and a newline, or nothing; exit 0. */
function replyOf(h: Ran): Record<string, unknown> | null {
  expect(h.status, h.stderr).toBe(0);
  return singleReply(h.stdout);
}

const PAYLOADS = SHELL_EVENTS;

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
