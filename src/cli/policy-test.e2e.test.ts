/**
 * `buckler test` through the built bundle: passing and failing cases (exit 0/1, a readable
 * expected/got diff), user rules from --rules-dir (a policy kept in a repository), harness
 * events, where a case stands (cwd, home, project), and one-line errors (exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buckler as run, e2eDir, homeEnv, type Ran } from './e2e.testing.ts';

const home = e2eDir('buckler-ptest-');
beforeAll(() => {
  fs.mkdirSync(path.join(home, 'repo', 'policy'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'repo', 'policy', 'team.yaml'),
    'pack: team\nrules:\n  - id: freeze\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: npm, subcommand: version }], env: { RELEASE_FREEZE: "1" } }\n    action: deny\n',
  );
});

function buckler(args: string[], files: Record<string, string>): Ran {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(home, 'repo', name), text);
  return run(args, { cwd: path.join(home, 'repo'), env: homeEnv(home) });
}

const PASSING = `cases:
  - name: force push is denied
    command: git push --force origin main
    decision: deny
    rule: agent-git/no-force-push
  - command: git status
    decision: allow
    rule: null
  - command: git reset --hard
    tier: strict
    decision: deny
    rule: agent-git/no-reset-hard
  - name: publishing during a freeze
    command: npm version patch
    env: { RELEASE_FREEZE: "1" }
    decision: deny
    rule: team/freeze
  - command: npm version patch
    decision: allow
  - name: a Claude Code event
    driver: claude-code
    event: { hook_event_name: PreToolUse, tool_name: Bash, tool_input: { command: "sudo git commit -m x" }, session_id: s, cwd: /work/repo, transcript_path: /t }
    decision: deny
    rule: agent-git/no-commit
  - command: git push
    cwd: /srv/app
    home: /srv
    project: /srv/app
    decision: allow
`;

describe('buckler test (built bundle)', () => {
  it('every case passes: exit 0, one line per case', () => {
    const r = buckler(['test', '--rules-dir', 'policy', 'cases.yaml'], { 'cases.yaml': PASSING });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ok    cases.yaml:2  force push is denied\n');
    expect(r.stdout).toContain('ok    cases.yaml:13  publishing during a freeze\n');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('ok: 7 cases, 0 failed');
  });

  it('a mismatch: exit 1 with expected and got, and how to see why', () => {
    const r = buckler(['test', 'a.yaml', 'b.yaml'], {
      'a.yaml': 'cases:\n  - command: git status\n    decision: allow\n',
      'b.yaml': 'cases:\n  - name: lease is not force\n    command: git push --force-with-lease\n    decision: deny\n    rule: agent-git/no-force-push\n',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      [
        'FAIL  b.yaml:2  lease is not force',
        '  - expected  deny  agent-git/no-force-push',
        '  + got       nudge  agent-git/force-with-lease',
        "  why: buckler explain 'git push --force-with-lease'",
      ].join('\n'),
    );
    expect(r.stdout.trim().split('\n').at(-1)).toBe('failed: 2 cases, 1 failed');
  });

  it.each<[string, RegExp]>([
    ['cases: [{ command: ls }]\n', /^buckler test: bad\.yaml: line 1: "decision" is required: one of allow, deny, ask, nudge\n$/],
    ['cases:\n  - command: ls\n    decision: allow\n    colour: red\n', /^buckler test: bad\.yaml: line 4: unknown case field "colour"/],
    ['cases:\n  - command: ls\n    event: {}\n    decision: allow\n', /^buckler test: bad\.yaml: line 2: a case has a "command" or an "event"/],
    ['cases:\n  - command: ls\n    home: relative\n    decision: allow\n', /^buckler test: bad\.yaml: line 3: "home" must be an absolute path\n$/],
    ['rules: []\n', /^buckler test: bad\.yaml: a case file is a mapping with a "cases" list\n$/],
    ['cases: [\n', /^buckler test: bad\.yaml:\d+: /],
  ])('a wrong file: one line, exit 2 (%j)', (text, message) => {
    const r = buckler(['test', 'bad.yaml'], { 'bad.yaml': text });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('no file: one line, exit 2', () => {
    const r = buckler(['test'], {});
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^buckler test: give one or more case files[^\n]*\n$/);
  });
});
