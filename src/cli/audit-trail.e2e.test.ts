// The audit trail end to end, through the built bundle: what is recorded by default, with
// audit_log = true and false; the fields a record gains (cwd, project, session, event); file
// contents never recorded; a person's `check` not recorded unless asked; log filters, stats
// and replay under another policy.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, hook as runHook, sandboxProject, type Ran } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
let log: string;
let configHome: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-trail-'));
  fs.mkdirSync(path.join(project, 'src'));
  const state = env.BUCKLER_STATE_HOME ?? path.join(env.XDG_STATE_HOME as string, 'buckler');
  log = path.join(state, 'audit.jsonl');
  configHome = env.BUCKLER_CONFIG_HOME ?? path.join(env.XDG_CONFIG_HOME as string, 'buckler');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const shell = (command: string, cwd: string, generation = 'g'): string =>
  JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'conv-1', generation_id: generation, command, cwd, workspace_roots: [project] });

function hook(event: string): void {
  const r = runHook('cursor', event, { env });
  expect(r.status).toBe(0);
}
const cli = (...args: string[]): Ran => buckler(args, { env, cwd: project });
const records = (): Record<string, unknown>[] =>
  fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
function config(text: string): void {
  fs.mkdirSync(configHome, { recursive: true });
  fs.writeFileSync(path.join(configHome, 'config.toml'), text);
}

describe('audit trail (built CLI)', () => {
  it('by default: denials and asks are recorded with cwd, project, session and event; allows and a person\'s check are not', () => {
    hook(shell('ls', path.join(project, 'src')));
    hook(shell('git push --force origin main', path.join(project, 'src')));
    expect(cli('check', 'git push --force origin main').status).toBe(1);
    expect(records()).toHaveLength(1);
    expect(records()[0]).toMatchObject({
      decision: 'deny',
      rule: 'agent-git/no-force-push',
      event: 'beforeShellExecution',
      cwd: path.join(project, 'src'),
      project,
      session: 'conv-1',
    });
    expect(cli('check', '--audit', 'git push --force origin main').status).toBe(1);
    expect(records()).toHaveLength(2);
  });

  it('audit_log = false records nothing; audit_log = true records every decision, never file contents', () => {
    config('[core]\naudit_log = false\n');
    hook(shell('git push --force origin main', project));
    expect(records()).toHaveLength(0);
    config('[core]\naudit_log = true\n');
    hook(shell('ls', project));
    hook(JSON.stringify({ hook_event_name: 'beforeReadFile', conversation_id: 'conv-1', file_path: path.join(project, '.env'), content: 'API_KEY=very-secret-content', workspace_roots: [project] }));
    // Reading .env asks (agent-secrets); the record holds the decision, never the content.
    expect(records().map((r) => r.decision)).toEqual(['allow', 'ask']);
    expect(fs.readFileSync(log, 'utf8')).not.toContain('very-secret-content');
  });

  it('records the paths an action touches, with access and scope: by default (decided again for the record) and with audit_log = true', () => {
    // Default: an ask is recorded with its paths; the allow is not recorded at all.
    hook(shell('cd .. && rm -rf .git > /dev/null', path.join(project, 'src')));
    hook(shell('cat README.md', project));
    expect(records()).toHaveLength(1);
    expect(records()[0]).toMatchObject({
      decision: 'ask',
      rule: 'agent-worktree/delete-git-dir',
      paths: [{ path: path.join(project, '.git'), access: 'delete', scope: 'project', recursive: true }],
    });
    // A file tool's path, and a shell line's reads and writes, with audit_log = true.
    config('[core]\naudit_log = true\n');
    hook(JSON.stringify({ hook_event_name: 'beforeReadFile', conversation_id: 'conv-1', file_path: path.join(env.HOME as string, '.ssh', 'id_rsa'), content: 'x', workspace_roots: [project] }));
    hook(shell('cp ~/notes.txt src/ && echo x >> /tmp/log', project));
    hook(shell('ls', project));
    const [, read, copy, ls] = records();
    // The test's home lies in the temp directory: its files are in scope home (home wins over temp).
    expect(read).toMatchObject({ decision: 'deny', rule: 'agent-secrets/no-credential-read', paths: [{ path: path.join(env.HOME as string, '.ssh', 'id_rsa'), access: 'read', scope: 'home' }] });
    expect(copy).toMatchObject({
      decision: 'allow',
      paths: [
        { path: path.join(env.HOME as string, 'notes.txt'), access: 'read', scope: 'home' },
        { path: path.join(project, 'src'), access: 'write', scope: 'project' },
        // A file copied into a folder lands there by name (issue 21, route 3).
        { path: path.join(project, 'src', 'notes.txt'), access: 'write', scope: 'project' },
        { path: '/tmp/log', access: 'write', scope: 'temp' },
      ],
    });
    expect(ls).not.toHaveProperty('paths');
  });

  it('log filters by project and session; stats counts; replay shows what another policy changes', () => {
    config('[core]\naudit_log = true\n');
    hook(shell('git push --force origin main', project, 'g1'));
    hook(shell('curl https://example.com', project, 'g2'));
    hook(shell('ls', project, 'g3'));
    const other = path.join(env.HOME as string, 'other');
    fs.mkdirSync(path.join(other, '.git'), { recursive: true });
    hook(JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'conv-2', generation_id: 'g4', command: 'git push --force', cwd: other }));

    const mine = cli('log', '--json', '--project', '.');
    expect(mine.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { command: string }).command)).toEqual([
      'git push --force origin main',
      'curl https://example.com',
      'ls',
    ]);
    expect(cli('log', '--json', '--session', 'conv-2').stdout).toContain('"project":' + JSON.stringify(other));

    const stats = JSON.parse(cli('stats', '--json').stdout) as { records: number; by_decision: Record<string, number>; by_project: Record<string, number>; top_blocked: { command: string }[] };
    expect(stats.records).toBe(4);
    expect(stats.by_decision.deny).toBe(2);
    expect(stats.by_project).toMatchObject({ [project]: 3, [other]: 1 });
    expect(stats.top_blocked.map((b) => b.command).sort()).toEqual(['git push --force', 'git push --force origin main']);
    expect(cli('stats').stdout).toMatch(/^4 decisions\n/);

    // Another policy: a config directory whose rule denies curl and switches agent-git off.
    const alt = path.join(root, 'alt');
    fs.mkdirSync(path.join(alt, 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(alt, 'config.toml'), '[packs]\nagent-git = { enabled = false }\n');
    fs.writeFileSync(
      path.join(alt, 'rules.d', 'net.yaml'),
      'pack: net\nversion: "1"\nrules:\n  - id: no-curl\n    trigger: [pre_shell_exec]\n    match:\n      shell_segments:\n        - program: curl\n    action: deny\n    agent_message: "no curl"\n',
    );
    const replay = cli('replay', '--json', '--config', alt);
    expect(replay.status, replay.stderr).toBe(0);
    const changes = replay.stdout.trim().split('\n').map((l) => JSON.parse(l) as { command: string; old: { decision: string }; new: { decision: string; rule: string | null } });
    expect(changes.map((c) => [c.command, c.old.decision, c.new.decision, c.new.rule])).toEqual([
      ['git push --force origin main', 'deny', 'allow', null],
      ['curl https://example.com', 'allow', 'deny', 'net/no-curl'],
      ['git push --force', 'deny', 'allow', null],
    ]);
    // The same policy changes nothing.
    const same = cli('replay');
    expect(same.stdout).toBe('');
    expect(same.stderr).toMatch(/4 commands replayed, 0 would change/);
  });
});
