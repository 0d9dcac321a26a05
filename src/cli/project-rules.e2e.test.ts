// Project rules (.buckler/rules.d) end to end, through the built bundle, in a temp home and a temp
// project: untrusted rules only tighten (deny/ask apply, allow and programs: are ignored, a high
// priority never undoes another rule's decision), `buckler trust` makes them count, any change to
// the files makes them untrusted again, the agent cannot trust, the compiled-pack cache follows
// edits, and a malformed, oversized or symlinked file makes every action ask (never switches
// Buckler off). No timing assertions.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from './build.testing.ts';
import { buckler, bundle, hook as runHook, sandboxProject, type Ran } from './e2e.testing.ts';

const explainSchema = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/contracts/explain.schema.json'), 'utf8')) as object);

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
let rulesDir: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-project-rules-'));
  rulesDir = path.join(project, '.buckler', 'rules.d');
  fs.mkdirSync(rulesDir, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const stateHome = (): string => env.BUCKLER_STATE_HOME ?? path.join(env.XDG_STATE_HOME as string, 'buckler');

const TEAM = `pack: team
rules:
  - id: no-make-deploy
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: make
          words_any: [deploy]
    action: deny
    user_message: "team: no make deploy"
  - id: ask-terraform
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: terraform
          subcommand: [destroy]
    action: ask
  - id: allow-force-push
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: git
          subcommand: [push]
    action: allow
    priority: 1000
  - id: nudge-force-push
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: git
          subcommand: [push]
          flags_any: [--force]
    action: nudge
    priority: 5000
programs:
  mywrap:
    runs: { command: true }
`;

function write(name: string, text: string): void {
  fs.writeFileSync(path.join(rulesDir, name), text);
}

interface Reply {
  permission: string;
  user_message?: string;
  agent_message?: string;
}

/** One Cursor hook for a shell command in the project (the agent's side). */
function hook(command: string, cwd = project): Reply & { stderr: string } {
  const event = JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'c1', generation_id: `g-${Math.random()}`, command, cwd, workspace_roots: [project] });
  const r = runHook('cursor', event, { env, cwd: project });
  expect(r.status, r.stderr).toBe(0);
  const reply = JSON.parse(r.stdout) as { permission?: string };
  return { ...reply, permission: reply.permission ?? 'allow', stderr: r.stderr };
}

/** The person's own terminal. */
const cli = (args: string[], cwd = project): Ran => buckler(args, { env, cwd });

describe('project rules (built CLI)', () => {
  it('untrusted: deny and ask apply at once; allow, a high-priority nudge and programs: never loosen', () => {
    write('team.yaml', TEAM);
    // Tightening applies at once.
    const deploy = hook('make deploy');
    expect(deploy.permission).toBe('deny');
    expect(deploy.user_message).toContain('team: no make deploy');
    expect(hook('terraform destroy').permission).toBe('ask');
    // Its allow rule (priority 1000) and its nudge (priority 5000) do not undo the builtin deny.
    expect(hook('git push --force origin main').permission).toBe('deny');
    // An ordinary push: the builtin allows it; the untrusted allow rule changes nothing either way.
    expect(hook('git push origin main').permission).toBe('allow');
    // programs: ignored: mywrap is not unwrapped, so the terraform rule does not see through it.
    expect(cli(['check', 'mywrap', 'terraform', 'destroy']).status).toBe(0);
    // validate and explain say what loaded and what was ignored for want of trust.
    const v = cli(['validate']);
    expect(v.status, v.stdout).toBe(0);
    expect(v.stdout).toMatch(/project rules: \.buckler\/rules\.d: untrusted.*3 loaded, 1 ignored for want of trust \(team\/allow-force-push\)/);
    expect(v.stdout).toMatch(/"programs:" is ignored until you trust/);
    const x = JSON.parse(cli(['explain', '--json', 'git push --force origin main']).stdout) as {
      decision: string;
      rule: string;
      project: { trusted: boolean; loaded: string[]; ignored: string[] };
      commands: { rules: { rule: string; state: string; outcome: string; tighten?: boolean }[] }[];
    };
    expect(explainSchema(x), JSON.stringify(explainSchema.errors)).toBe(true);
    expect(x.decision).toBe('deny');
    expect(x.rule).toBe('agent-git/no-force-push');
    expect(x.project).toMatchObject({ trusted: false, ignored: ['team/allow-force-push'] });
    expect(x.project.loaded).toContain('team/nudge-force-push');
    const byId = new Map(x.commands[0]!.rules.map((r) => [r.rule, r]));
    expect(byId.get('team/allow-force-push')).toMatchObject({ state: 'skipped_trust', outcome: 'skipped' });
    expect(byId.get('team/nudge-force-push')).toMatchObject({ tighten: true, outcome: 'outranked' });
    expect(cli(['explain', 'git push --force origin main']).stdout).toMatch(/project rules .*untrusted.*ignored for want of trust \(team\/allow-force-push\)/);
    // doctor reports them.
    expect(cli(['doctor']).stdout).toMatch(/project rules .*untrusted: they can only tighten; 3 rules loaded, 1 ignored for want of trust/);
  });

  it('buckler trust makes them count like user rules; any change makes them untrusted again', () => {
    write('team.yaml', TEAM);
    expect(cli(['trust', '--status']).status).toBe(1);
    const t = cli(['trust']);
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toContain('trusted 1 project rules file (team.yaml)');
    const store = path.join(stateHome(), 'trust.json');
    expect(fs.statSync(store).mode & 0o777).toBe(0o600);
    expect(cli(['trust', '--status']).status).toBe(0);
    // Counted like user rules: the allow of priority 1000 now decides, programs: apply.
    expect(hook('git push --force origin main').permission).toBe('allow');
    expect(cli(['check', 'mywrap', 'terraform', 'destroy']).status).toBe(1);
    expect(cli(['validate']).stdout).toMatch(/project rules: \.buckler\/rules\.d: trusted; 4 loaded/);

    // An edit: untrusted again at once (the cache follows it).
    fs.appendFileSync(path.join(rulesDir, 'team.yaml'), '# edited\n');
    expect(hook('git push --force origin main').permission).toBe('deny');
    expect(cli(['trust', '--status']).stdout).toMatch(/changed since trusted/);
    expect(cli(['trust']).status).toBe(0);
    expect(hook('git push --force origin main').permission).toBe('allow');
    // An added file, and then a removed one: untrusted each time.
    write('more.yaml', 'pack: more\nrules: []\n');
    expect(hook('git push --force origin main').permission).toBe('deny');
    expect(cli(['trust']).status).toBe(0);
    expect(hook('git push --force origin main').permission).toBe('allow');
    fs.rmSync(path.join(rulesDir, 'more.yaml'));
    expect(hook('git push --force origin main').permission).toBe('deny');
    // --list and --revoke.
    expect(cli(['trust', '--list']).stdout).toMatch(/proj {2}changed since trusted/);
    expect(cli(['trust']).status).toBe(0);
    expect(cli(['trust', '--revoke']).stdout).toMatch(/trust revoked/);
    expect(hook('git push --force origin main').permission).toBe('deny');
    expect(cli(['trust', '--revoke']).stdout).toMatch(/not trusted; nothing to revoke/);
  });

  it('the agent can neither run buckler trust nor write the trust store', () => {
    write('team.yaml', TEAM);
    for (const cmd of ['buckler trust', 'buckler trust --revoke', `buckler trust --project ${project}`, "bash -c 'buckler trust'"]) {
      expect(hook(cmd).permission, cmd).toBe('deny');
    }
    expect(hook('buckler trust --status').permission).toBe('allow');
    const store = path.join(stateHome(), 'trust.json');
    expect(hook(`echo '{"version":1,"projects":{}}' > ${store}`).permission).toBe('deny');
    expect(hook(`cp /tmp/x.json ${store}`).permission).toBe('deny');
  });

  it('the compiled-pack cache is per project and follows an edit; a project without .buckler shares the plain cache', () => {
    write('team.yaml', TEAM);
    expect(hook('make deploy').permission).toBe('deny');
    const cacheDir = path.join(env.XDG_CACHE_HOME as string, 'buckler');
    const caches = (): string[] => {
      const dirs = [cacheDir, path.join(stateHome(), 'cache')].filter((d) => fs.existsSync(d));
      return dirs.flatMap((d) => fs.readdirSync(d).filter((n) => n.startsWith('policy-')));
    };
    expect(caches().some((n) => /^policy-config-p[0-9a-f]{8}\.json$/.test(n))).toBe(true);
    expect(hook('make deploy').permission).toBe('deny'); // warm
    write('team.yaml', TEAM.replace('words_any: [deploy]', 'words_any: [release]'));
    expect(hook('make deploy').permission).toBe('allow');
    expect(hook('make release').permission).toBe('deny');
    // Another project, without .buckler: none of these rules, and the shared cache file.
    const other = path.join(env.HOME as string, 'other');
    fs.mkdirSync(path.join(other, '.git'), { recursive: true });
    const event = JSON.stringify({ hook_event_name: 'beforeShellExecution', conversation_id: 'c1', generation_id: 'o1', command: 'make release', cwd: other, workspace_roots: [other] });
    const r = runHook('cursor', event, { env, cwd: other });
    expect((JSON.parse(r.stdout) as { permission?: string }).permission ?? 'allow').toBe('allow');
    expect(caches()).toContain('policy-config.json');
  });

  it('a malformed file: every action asks, the rest of the policy still decides, and the file is named', () => {
    write('team.yaml', TEAM);
    write('broken.yaml', 'pack: broken\nrules:\n  - id: x\n    action: [\n');
    const ls = hook('ls');
    expect(ls.permission).toBe('ask');
    expect(ls.user_message).toMatch(/broken\.yaml/);
    expect(ls.stderr).toMatch(/broken\.yaml/);
    // A builtin deny stays a deny; the good file's deny still applies.
    expect(hook('git push --force origin main').permission).toBe('deny');
    expect(hook('make deploy').permission).toBe('deny');
    const v = cli(['validate']);
    expect(v.status).toBe(1);
    expect(v.stdout).toMatch(/broken\.yaml/);
    // Such a set cannot be trusted until fixed.
    const t = cli(['trust']);
    expect(t.status).toBe(1);
    expect(t.stderr).toMatch(/fix the error/);
    // A rule with an unknown action is a malformed file too.
    write('broken.yaml', 'pack: broken\nrules:\n  - id: x\n    trigger: [pre_shell_exec]\n    action: block\n');
    expect(hook('ls').permission).toBe('ask');
    fs.rmSync(path.join(rulesDir, 'broken.yaml'));
    expect(hook('ls').permission).toBe('allow');
  });

  it('refuses symlinks, oversized files and YAML aliases without reading through them', () => {
    const secret = path.join(root, 'secret.yaml');
    fs.writeFileSync(secret, 'pack: s\nrules: []\n# TOP-SECRET-VALUE\n');
    fs.symlinkSync(secret, path.join(rulesDir, 'link.yaml'));
    const linked = hook('ls');
    expect(linked.permission).toBe('ask');
    expect(linked.user_message).toMatch(/link\.yaml is a symbolic link/);
    expect(JSON.stringify(linked)).not.toContain('TOP-SECRET-VALUE');
    fs.rmSync(path.join(rulesDir, 'link.yaml'));

    write('big.yaml', `pack: big\nrules: []\n${'#'.repeat(70 * 1024)}\n`);
    expect(hook('ls').user_message).toMatch(/big\.yaml is \d+ bytes, over the 64 KiB limit/);
    fs.rmSync(path.join(rulesDir, 'big.yaml'));

    write('alias.yaml', 'pack: alias\nx: &a [1, 2]\ny: [*a, *a]\nrules: []\n');
    expect(hook('ls').user_message).toMatch(/YAML aliases/);
    fs.rmSync(path.join(rulesDir, 'alias.yaml'));
    expect(hook('ls').permission).toBe('allow');

    // rules.d itself a symlink out of the project.
    const outside = path.join(root, 'outside-rules');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'team.yaml'), TEAM);
    fs.rmSync(rulesDir, { recursive: true });
    fs.symlinkSync(outside, rulesDir);
    const dirLinked = hook('make deploy');
    expect(dirLinked.permission).toBe('ask');
    expect(dirLinked.user_message).toMatch(/rules\.d is a symbolic link/);
  });

  it("only the person's own rules.d may replace a builtin program's data; a trusted project pack only extends it", () => {
    // sudo runs its command (builtin); a pack that says otherwise would hide `sudo git push --force`.
    const loosen = 'pack: loosen\nprograms:\n  sudo:\n    runs: { command: false }\nrules: []\n';
    write('loosen.yaml', loosen);
    expect(cli(['trust']).status).toBe(0);
    expect(hook('sudo git push --force origin main').permission).toBe('deny');
    expect(cli(['validate']).stdout).toMatch(/programs\.sudo\.runs\.command: cannot change a value already set/);
    // The same in the person's own rules.d replaces it.
    fs.rmSync(path.join(rulesDir, 'loosen.yaml'));
    const userRules = path.join(env.BUCKLER_CONFIG_HOME ?? path.join(env.XDG_CONFIG_HOME as string, 'buckler'), 'rules.d');
    fs.mkdirSync(userRules, { recursive: true });
    fs.writeFileSync(path.join(userRules, 'loosen.yaml'), loosen.replace('pack: loosen', 'pack: mine'));
    expect(hook('sudo git push --force origin main').permission).toBe('allow');
  });
});
