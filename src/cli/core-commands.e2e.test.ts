/**
 * End to end: the built bundle, spawned as a person or a harness would run it, with the user's
 * configuration isolated in a temporary BUCKLER_CONFIG_HOME.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buckler as run, e2eDir, homeEnv, type Ran } from './e2e.testing.ts';

const home = e2eDir('buckler-e2e-');
beforeAll(() => fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true }));

const buckler = (args: string[], stdin = '', extraEnv: Record<string, string> = {}): Ran => run(args, { stdin, cwd: home, env: homeEnv(home, extraEnv) });

describe('buckler (built bundle)', () => {
  it('check "git push --force origin main" denies, exit 1', () => {
    const r = buckler(['check', 'git push --force origin main']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^DENY {2}agent-git\/no-force-push/);
    expect(r.stderr).toBe('');
  });

  it('check of harmless work allows, exit 0', () => {
    const r = buckler(['check', 'git status && npm test']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ALLOW/);
  });

  it('check --json prints a PolicyOutput', () => {
    const r = buckler(['check', '--json', '--tier', 'strict', 'git rebase main']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', rule: 'agent-git/no-rebase' });
  });

  it('evaluate: PolicyInput on stdin, PolicyOutput on stdout', () => {
    const input = { policy_io_version: '1', trigger: 'pre_shell_tool', shell: { command: "bash -c 'git commit -m x'" } };
    const r = buckler(['evaluate'], JSON.stringify(input));
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', rule: 'agent-git/no-commit' });
  });

  it('evaluate: bad JSON is one line on stderr, exit 2, no stack trace', () => {
    const r = buckler(['evaluate'], '{"policy_io_version": ');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^buckler evaluate: bad_json: .*\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('evaluate: the bypass comes from the input env only', () => {
    const base = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'git commit -m x' } };
    expect(JSON.parse(buckler(['evaluate'], JSON.stringify({ ...base, env: { BUCKLER_BYPASS: '1' } })).stdout)).toMatchObject({ decision: 'allow', bypass: true });
    expect(JSON.parse(buckler(['evaluate'], JSON.stringify(base), { BUCKLER_BYPASS: '1' }).stdout).decision).toBe('deny');
  });

  it('validate: clean builtin packs exit 0; a broken user pack exit 1 with file, line, rule', () => {
    const ok = buckler(['validate']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^ok: 13 pack files/m);
    expect(ok.stdout).toMatch(/^cache: .*policy-config\.json: (verified|none yet|out of date)/m);
    const broken = path.join(home, 'config', 'rules.d', 'mine.yaml');
    fs.writeFileSync(broken, 'rules:\n  - id: x\n    trigger: pre_shell_exec\n    action: maybe\n');
    try {
      const r = buckler(['validate']);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain(`error: ${path.join('config', 'rules.d', 'mine.yaml')}:4 rule mine/x: "action" must be one of allow, ask, deny, nudge`);
      // At run time the broken rule is skipped with a warning; the builtin rules still decide.
      const c = buckler(['check', 'git commit -m x']);
      expect(c.status).toBe(1);
      expect(c.stderr).toMatch(/^buckler: .*mine\.yaml:4 rule mine\/x: "action" must be one of/);
    } finally {
      fs.rmSync(broken);
    }
  });

  it('every command answers --help', () => {
    for (const cmd of ['evaluate', 'check', 'validate']) {
      const r = buckler([cmd, '--help']);
      expect(r.status, cmd).toBe(0);
      expect(r.stdout, cmd).toMatch(new RegExp(`^Usage: buckler ${cmd}`));
    }
  });
});

describe('errors are one line on stderr (docs/cli.md)', () => {
  it.each([
    [['nosuch']],
    [['check', '--tier', 'max', 'ls']],
    [['check']],
    [['explain', '--frobnicate']],
    [['test']],
    [['evaluate', '--frobnicate']],
    [['validate', '--frobnicate']],
    [['hooks', 'merge', '--frobnicate']],
    [['hooks']],
    [['log', '--frobnicate']],
    [['paths', '--yaml']],
    [['doctor', '--frobnicate']],
  ])('%j', (args) => {
    const r = buckler(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^buckler[^\n]*\n$/);
    expect(r.stdout).toBe('');
  });

  it('buckler version, -v and --version print the version', () => {
    for (const a of ['version', '-v', '--version']) expect(buckler([a]).stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });
});
