// Project rules (.buckler/rules.d) in the tools around the hook, through the built bundle in a
// temp home and temp projects: `buckler test` sees a case's project rules as a hook would
// (untrusted unless --trust-project, never touching the trust store), `buckler replay` and
// `buckler hooks status` load them as the hook does, granting and revoking trust are in the
// audit log, and per-project cache files are bounded when a cache file is written.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.testing.ts';
import { sandboxProject } from './e2e.testing.ts';

let BUNDLE: string;
beforeAll(() => {
  BUNDLE = ensureBuilt();
});

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-project-tools-'));
  makeProject(project, TEAM);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const stateHome = (): string => env.BUCKLER_STATE_HOME ?? path.join(env.XDG_STATE_HOME as string, 'buckler');
const configHome = (): string => env.BUCKLER_CONFIG_HOME ?? path.join(env.XDG_CONFIG_HOME as string, 'buckler');

const TEAM = `pack: team
rules:
  - id: no-deploy-prod
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: make
          words_any: [deploy-prod]
    action: deny
  - id: allow-push
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: git
          subcommand: [push]
    action: allow
    priority: 5000
`;

function makeProject(dir: string, rules: string, file = 'team.yaml'): void {
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.buckler', 'rules.d'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.buckler', 'rules.d', file), rules);
}

function cli(args: string[], cwd = project): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BUNDLE, ...args], { env, cwd, encoding: 'utf8' });
}

/** One Cursor hook for a shell command in `dir` (the agent's side). */
function hook(command: string, dir = project): string {
  const event = JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'c1', generation_id: `g-${Math.random()}`, command, cwd: dir, workspace_roots: [dir] });
  const r = spawnSync(process.execPath, [BUNDLE, '--driver', 'cursor'], { input: event, env, cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { permission?: string }).permission ?? 'allow';
}

const auditRecords = (): Record<string, unknown>[] => {
  const f = path.join(stateHome(), 'audit.jsonl');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
};

describe('buckler test sees project rules', () => {
  const CASES = `cases:
  - name: the team's deny applies
    command: make deploy-prod
    decision: deny
    rule: team/no-deploy-prod
  - name: an untrusted allow cannot undo a builtin deny
    command: git push --force origin main
    decision: deny
    rule: agent-git/no-force-push
`;

  it('in a project: its rules load untrusted (tighten-only), as on a fresh clone', () => {
    fs.writeFileSync(path.join(project, 'cases.yaml'), CASES);
    const r = cli(['test', 'cases.yaml']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`project rules: ${path.join(project, '.buckler', 'rules.d')}: untrusted`);
    expect(r.stdout).toContain('ok: 2 cases, 0 failed');
    // The person's own trust changes nothing here: buckler test does not read the trust store.
    expect(cli(['trust']).status).toBe(0);
    expect(cli(['test', 'cases.yaml']).status).toBe(0);
  });

  it('--trust-project: the rules count like the person’s own for this run only; the trust store is not written', () => {
    fs.writeFileSync(path.join(project, 'cases.yaml'), CASES);
    const r = cli(['test', '--trust-project', 'cases.yaml']);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('taken as trusted for this run');
    expect(r.stdout).toMatch(/FAIL {2}cases\.yaml:6 {2}an untrusted allow cannot undo a builtin deny\n {2}- expected {2}deny {2}agent-git\/no-force-push\n {2}\+ got {7}allow {2}team\/allow-push\n/);
    expect(r.stdout).toContain(`why: buckler explain --project '${project}' --cwd '${project}' 'git push --force origin main'`);
    expect(fs.existsSync(path.join(stateHome(), 'trust.json'))).toBe(false);
    // And the hook still sees them untrusted.
    expect(hook('git push --force origin main')).toBe('deny');
  });

  it('a case’s cwd or project selects the project whose rules load; elsewhere none load', () => {
    const other = path.join(root, 'other');
    makeProject(other, `pack: other\nrules:\n  - id: no-acme-ship\n    trigger: [pre_shell_exec]\n    match: { shell_segments: [{ program: acmectl, subcommand: ship }] }\n    action: ask\n`);
    const plain = path.join(root, 'plain');
    fs.mkdirSync(plain);
    const cases = `cases:
  - command: acmectl ship
    cwd: ${path.join(other, 'src')}
    project: ${other}
    decision: ask
    rule: other/no-acme-ship
  - command: make deploy-prod
    project: ${other}
    decision: allow
  - command: make deploy-prod
    cwd: ../proj
    decision: deny
    rule: team/no-deploy-prod
  - command: make deploy-prod
    decision: allow
  - name: an event stands where it says
    driver: cursor
    event: { hook_event_name: beforeShellExecution, conversation_id: c, generation_id: g, command: acmectl ship, cwd: ${other}, workspace_roots: [${other}] }
    decision: ask
    rule: other/no-acme-ship
`;
    // Run outside any project with rules: cases without a place stand in the fixed, empty one.
    fs.mkdirSync(path.join(env.HOME as string, 'suite'));
    fs.writeFileSync(path.join(env.HOME as string, 'suite', 'cases.yaml'), cases);
    const r = cli(['test', 'suite/cases.yaml'], env.HOME as string);
    expect(r.stdout + r.stderr).toContain('ok: 5 cases, 0 failed');
    expect(r.status).toBe(0);
    // --project DIR: cases that do not say stand there.
    fs.writeFileSync(path.join(plain, 'c.yaml'), 'cases:\n  - command: acmectl ship\n    decision: ask\n');
    expect(cli(['test', '--project', other, 'c.yaml'], plain).status).toBe(0);
    expect(cli(['test', 'c.yaml'], plain).status).toBe(1);
  });
});

describe('replay and hooks status load project rules as the hook does', () => {
  it('replay re-decides a logged command with its project’s rules as they are now', () => {
    expect(hook('make deploy-prod')).toBe('deny');
    const same = cli(['replay']);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stderr).toContain('1 command replayed, 0 would change');
    fs.writeFileSync(path.join(project, '.buckler', 'rules.d', 'team.yaml'), TEAM.replace('action: deny', 'action: ask'));
    const changed = cli(['replay', '--json'], root);
    expect(changed.status, changed.stderr).toBe(0);
    expect(JSON.parse(changed.stdout)).toMatchObject({ command: 'make deploy-prod', old: { decision: 'deny', rule: 'team/no-deploy-prod' }, new: { decision: 'ask', rule: 'team/no-deploy-prod' } });
  });

  it('hooks status names a project rules file the hooks leave out', () => {
    fs.writeFileSync(path.join(project, '.buckler', 'rules.d', 'bad.yaml'), 'pack: bad\nrules:\n  - id: x\n    trigger: [pre_shell_exec]\n    action: block\n');
    const r = cli(['hooks', 'status', '--harness', 'cursor', '--json']);
    const out = JSON.parse(r.stdout) as { rules_not_loaded: string[]; rules_project: string | null };
    expect(out.rules_project).toBe(project);
    expect(out.rules_not_loaded.some((l) => l.includes('bad.yaml'))).toBe(true);
    const text = cli(['hooks', 'status', '--harness', 'cursor']);
    expect(text.stdout).toContain(`with the project rules of ${project}):`);
    // Outside the project: not named.
    const outside = path.join(root, 'plain');
    fs.mkdirSync(outside);
    const elsewhere = JSON.parse(cli(['hooks', 'status', '--harness', 'cursor', '--json'], outside).stdout) as { rules_not_loaded: string[]; rules_project: string | null };
    expect(elsewhere.rules_project).toBeNull();
    expect(elsewhere.rules_not_loaded.some((l) => l.includes('bad.yaml'))).toBe(false);
  });
});

describe('granting and revoking trust are in the audit log', () => {
  it('trust and --revoke each append a record; log shows them; stats does not count them', () => {
    // A record written before the field existed stays readable.
    fs.mkdirSync(stateHome(), { recursive: true });
    const old = { record_version: 1, time: '2026-01-01T00:00:00.000Z', harness: 'cursor', event: 'beforeShellExecution', trigger: 'pre_shell_exec', decision: 'deny', pack: 'agent-git', rule: 'agent-git/no-force-push', bypass: false, command: 'git push -f', tool: null };
    fs.writeFileSync(path.join(stateHome(), 'audit.jsonl'), `${JSON.stringify(old)}\n`);
    expect(cli(['trust']).status).toBe(0);
    expect(cli(['trust']).status).toBe(0); // already trusted: nothing changes, nothing recorded
    expect(cli(['trust', '--revoke']).status).toBe(0);
    const recs = auditRecords();
    expect(recs).toHaveLength(3);
    const digest = (recs[1]!['trust'] as { digest: string }).digest;
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(recs[1]).toMatchObject({ harness: 'cli', decision: 'allow', rule: null, command: null, project, trust: { action: 'grant', files: ['team.yaml'] } });
    expect(recs[2]).toMatchObject({ project, trust: { action: 'revoke', digest, files: ['team.yaml'] } });
    const log = cli(['log', '--project', project]);
    expect(log.stdout).toContain(`(trust grant ${digest.slice(0, 19)})  ${project} (team.yaml)`);
    expect(log.stdout).toContain('(trust revoke');
    expect(cli(['log']).stdout).toContain('agent-git/no-force-push');
    const stats = JSON.parse(cli(['stats', '--json']).stdout) as { records: number };
    expect(stats.records).toBe(1);
    expect(cli(['replay']).stderr).toContain('1 command replayed');
  });

  it('audit_log = false records neither', () => {
    fs.mkdirSync(configHome(), { recursive: true });
    fs.writeFileSync(path.join(configHome(), 'config.toml'), '[core]\naudit_log = false\n');
    expect(cli(['trust']).status).toBe(0);
    expect(cli(['trust', '--revoke']).status).toBe(0);
    expect(auditRecords()).toEqual([]);
  });
});

describe('per-project cache files are bounded', () => {
  it('a hook that writes a cache file removes per-project ones unused for 30 days, and nothing else; a warm hook removes nothing', () => {
    const cache = path.join(stateHome(), 'cache');
    fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
    const longAgo = Date.now() / 1000 - 40 * 24 * 3600;
    const put = (name: string, when = longAgo): void => {
      fs.writeFileSync(path.join(cache, name), 'stale');
      fs.utimesSync(path.join(cache, name), when, when);
    };
    put('policy-config-p0000abcd.json');
    put('policy-strict-p0000abce.json');
    put('policy-config-p0000abcf.json', Date.now() / 1000);
    put('policy-config.json');
    put('notes.txt');
    const precious = path.join(root, 'precious');
    fs.writeFileSync(precious, 'keep');
    fs.symlinkSync(precious, path.join(cache, 'policy-config-p0000abd0.json'));
    expect(hook('make deploy-prod')).toBe('deny'); // compiles and writes this project's cache file
    const left = fs.readdirSync(cache).sort();
    expect(left).not.toContain('policy-config-p0000abcd.json');
    expect(left).not.toContain('policy-strict-p0000abce.json');
    expect(left).toEqual(expect.arrayContaining(['policy-config-p0000abcf.json', 'policy-config-p0000abd0.json', 'notes.txt']));
    expect(left.filter((n) => /^policy-config-p[0-9a-f]{8}\.json$/.test(n))).toHaveLength(3); // this project's, the recent one, the link
    expect(fs.readFileSync(precious, 'utf8')).toBe('keep');
    // A warm hook writes nothing, so it removes nothing.
    put('policy-config-p0000abd1.json');
    expect(hook('make deploy-prod')).toBe('deny');
    expect(fs.existsSync(path.join(cache, 'policy-config-p0000abd1.json'))).toBe(true);
  });
});
