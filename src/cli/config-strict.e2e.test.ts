/**
 * Issue 26, "configuration that silently protects less": a config.toml that cannot be read or
 * parsed, or that holds an invalid value or an unknown key, is read the strict way by the hook
 * (tier strict, every pack on), every block message says why, `validate` fails naming the file
 * and line, and `doctor` reports it. A `[packs]` id matching nothing loaded is a warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, homeEnv, hookDecision, hook, replyOf, shellEvent, type Ran } from './e2e.testing.ts';
import os from 'node:os';

let home = '';
beforeAll(() => void bundle(), 120_000);
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-config-strict-')));
  fs.mkdirSync(path.join(home, 'config'), { recursive: true });
  fs.mkdirSync(path.join(home, 'proj', '.git'), { recursive: true });
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const configFile = (): string => path.join(home, 'config', 'config.toml');
const writeConfig = (text: string): void => fs.writeFileSync(configFile(), text);
/** `check --json` (config warnings go to its standard error, so not `checkJson`). */
const checkJson = (command: string, _home: string, _opts?: unknown): { decision: string } => {
  const r = buckler(['check', '--json', '--', command], { cwd: home, env: homeEnv(home), timeout: 20_000 });
  return JSON.parse(r.stdout) as { decision: string };
};
const validate = (...args: string[]): Ran => buckler(['validate', ...args], { cwd: home, env: homeEnv(home), timeout: 60_000 });
const claudeHook = (command: string): Record<string, any> => {
  const r = hook('claude-code', shellEvent('claude-code', command, path.join(home, 'proj')), { cwd: home, env: homeEnv(home), timeout: 20_000 });
  return replyOf(r);
};
const reasonOf = (reply: Record<string, any>): string => String(reply.hookSpecificOutput?.permissionDecisionReason ?? reply.reason ?? JSON.stringify(reply));

// `git reset --hard` asks in the baseline tier and is denied in strict.
const STRICT_ONLY = 'git reset --hard HEAD~1';

describe('config.toml read the strict way', () => {
  it('a well-formed baseline config leaves the strict-only rule off (the control)', () => {
    writeConfig('[core]\ntier = "baseline"\n');
    expect(checkJson(STRICT_ONLY, home).decision).toBe('ask');
    expect(reasonOf(claudeHook(STRICT_ONLY))).not.toMatch(/strict reading/);
    expect(validate().status).toBe(0);
  });

  const cases: { name: string; text: string; line: number; problem: RegExp; decision: string }[] = [
    { name: 'a misspelt tier', text: '# mine\n[core]\ntier = "strickt"\n', line: 3, problem: /core\.tier must be "baseline" or "strict", not "strickt"/, decision: 'deny' },
    { name: 'an unclosed quote', text: '[core]\ntier = "baseline\n', line: 2, problem: /not valid TOML/, decision: 'deny' },
    { name: 'an unknown key', text: '[core]\ntier = "baseline"\nteir = "baseline"\n', line: 3, problem: /unknown key core\.teir/, decision: 'ask' },
  ];
  for (const c of cases) {
    it(`${c.name}: read the strict way in the hook, the note on the block, validate fails with the line, doctor reports it`, () => {
      writeConfig(c.text);
      const checked = checkJson(STRICT_ONLY, home, { env: homeEnv(home), cwd: home });
      expect(checked.decision).toBe(c.decision);
      const reply = claudeHook(STRICT_ONLY);
      expect(reply.hookSpecificOutput?.permissionDecision).toBe(c.decision);
      const reason = reasonOf(reply);
      expect(reason).toMatch(new RegExp(`config\\.toml line ${c.line}: .*; using the strict reading$`));
      expect(reason).toMatch(c.problem);
      const v = validate();
      expect(v.status).toBe(1);
      expect(v.stdout).toMatch(new RegExp(`error: .*config\\.toml:${c.line}: `));
      const d = buckler(['doctor'], { cwd: home, env: homeEnv(home), timeout: 60_000 });
      expect(d.stdout).toMatch(new RegExp(`config error .*config\\.toml:${c.line}: `));
    });
  }

  it('an allow is not touched by the note', () => {
    writeConfig('[core]\ntier = "strickt"\n');
    expect(hookDecision('claude-code', shellEvent('claude-code', 'ls -la', path.join(home, 'proj')), { cwd: home, env: homeEnv(home) })).not.toBe('deny');
  });

  it('a pack switched off with an invalid value stays on', () => {
    writeConfig('[packs]\nagent-git = { enabled = "no" }\n');
    expect(checkJson('git push --force origin main', home).decision).toBe('deny');
    const v = validate();
    expect(v.status).toBe(1);
    expect(v.stdout).toMatch(/config\.toml:2: packs\.agent-git must be/);
    // The control: a valid `enabled = false` does switch it off.
    writeConfig('[packs]\nagent-git = { enabled = false }\n');
    expect(checkJson('git push --force origin main', home).decision).not.toBe('deny');
  });

  it('a config.toml that cannot be read counts as tier strict', () => {
    fs.mkdirSync(configFile());
    expect(checkJson(STRICT_ONLY, home).decision).toBe('deny');
    expect(reasonOf(claudeHook(STRICT_ONLY))).toMatch(/config\.toml: cannot read the file \(EISDIR\); using the strict reading$/);
    expect(validate().status).toBe(1);
  });

  it('a [packs] id that matches nothing loaded is a warning with its line, not an error', () => {
    writeConfig('[core]\ntier = "baseline"\n\n[packs]\nagent-gits = { enabled = false }\n');
    const v = validate();
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/warning: .*config\.toml:5: \[packs\] agent-gits matches no pack loaded here/);
    expect(checkJson('git push --force origin main', home).decision).toBe('deny');
  });
});
