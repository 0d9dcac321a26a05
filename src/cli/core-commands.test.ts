/**
 * `buckler evaluate`, `check` and `validate`, run in-process with an in-memory CliIO and an
 * isolated config directory (BUCKLER_CONFIG_HOME).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run as check } from './check.ts';
import { run as evaluateCmd } from './evaluate.ts';
import { fakeIO } from './fake-io.testing.ts';
import { run as validate } from './validate.ts';

let home: string;
let env: Record<string, string>;
beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-cli-'));
  env = { BUCKLER_CONFIG_HOME: path.join(home, 'config'), HOME: home };
  fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true });
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const input = (command: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command }, ...extra });

describe('buckler evaluate', () => {
  it('PolicyInput on stdin → PolicyOutput on stdout, exit 0 whatever the decision', async () => {
    const io = fakeIO({ env, stdin: input('git push --force origin main') });
    expect(await evaluateCmd([], io)).toBe(0);
    const out = JSON.parse(io.stdout);
    expect(out).toMatchObject({ policy_io_version: '1', decision: 'deny', rule: 'agent-git/no-force-push', bypass: false });
    expect(io.stderr).toBe('');
  });

  it('-i FILE and -o FILE (written whole, by rename)', async () => {
    const inFile = path.join(home, 'in.json');
    const outFile = path.join(home, 'out.json');
    fs.writeFileSync(inFile, input('git status'));
    fs.writeFileSync(outFile, 'old');
    const io = fakeIO({ env, cwd: home });
    expect(await evaluateCmd(['-i', 'in.json', '--output', outFile], io)).toBe(0);
    expect(JSON.parse(fs.readFileSync(outFile, 'utf8')).decision).toBe('allow');
    expect(io.stdout).toBe('');
    // No temporary file left beside the output (.local holds the state dir: the pack cache).
    expect(fs.readdirSync(home).sort()).toEqual(['.local', 'config', 'in.json', 'out.json']);
  });

  it.each<[string, RegExp]>([
    ['{bad', /^buckler evaluate: bad_json: the input is not valid JSON \(.+\)\n$/],
    ['', /^buckler evaluate: bad_json: /],
    [JSON.stringify({ policy_io_version: '2', trigger: 'pre_shell_exec' }), /^buckler evaluate: unsupported_version: unsupported policy_io_version "2"/],
    [JSON.stringify({ policy_io_version: '1', trigger: 'pre_nothing' }), /^buckler evaluate: unknown_trigger: unknown trigger "pre_nothing"/],
    [JSON.stringify({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: {} }), /^buckler evaluate: bad_input: PolicyInput.shell.command must be a string\n$/],
  ])('refuses %j with one line on stderr and exit 2', async (stdin, message) => {
    const io = fakeIO({ env, stdin });
    expect(await evaluateCmd([], io)).toBe(2);
    expect(io.stderr).toMatch(message);
    expect(io.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(io.stdout).toBe('');
  });

  it('bad arguments and unreadable files exit 2', async () => {
    const a = fakeIO({ env });
    expect(await evaluateCmd(['--frobnicate'], a)).toBe(2);
    expect(a.stderr).toMatch(/^buckler evaluate: unknown option '--frobnicate'/);
    const b = fakeIO({ env, cwd: home });
    expect(await evaluateCmd(['-i', 'missing.json'], b)).toBe(2);
    expect(b.stderr).toBe('buckler evaluate: cannot read missing.json (ENOENT)\n');
    const c = fakeIO({ env });
    expect(await evaluateCmd(['--tier', 'max'], c)).toBe(2);
  });

  it('--tier strict applies strict rules; warnings of broken user packs go to stderr', async () => {
    fs.writeFileSync(path.join(env.BUCKLER_CONFIG_HOME!, 'rules.d', 'mine.yaml'), 'rules:\n  - id: r\n    trigger: pre_shell_exec\n    action: block\n');
    const io = fakeIO({ env, stdin: input('git reset --hard') });
    expect(await evaluateCmd(['--tier', 'strict'], io)).toBe(0);
    expect(JSON.parse(io.stdout).decision).toBe('deny');
    expect(io.stderr).toMatch(/^buckler: .*mine\.yaml:4 rule mine\/r: "action" must be one of allow, ask, deny, nudge \(got "block"; to block, use deny\); the rule is not loaded\n$/);
  });

  it('--help', async () => {
    const io = fakeIO({ env });
    expect(await evaluateCmd(['--help'], io)).toBe(0);
    expect(io.stdout).toMatch(/^Usage: buckler evaluate/);
  });
});

describe('buckler check', () => {
  it('deny: decision, rule, messages, per-command breakdown; exit 1', async () => {
    const io = fakeIO({ env });
    expect(await check(['git add . && git push --force origin main'], io)).toBe(1);
    expect(io.stdout).toMatch(/^DENY {2}agent-git\/no-force-push\n/);
    expect(io.stdout).toMatch(/\n {2}person {3}Buckler blocked/);
    expect(io.stdout).toMatch(/\n {2}agent {4}Blocked:/);
    expect(io.stdout).toMatch(/\n {2}nudge {2}git add \. {2}agent-git\/add-review\n/);
    expect(io.stdout).toMatch(/\n {2}deny {3}git push --force origin main {2}agent-git\/no-force-push\n/);
    expect(io.stdout).not.toMatch(/\x1b\[/);
  });

  it('allow and nudge exit 0; ask exits 1', async () => {
    expect(await check(['git status'], fakeIO({ env }))).toBe(0);
    expect(await check(['git add .'], fakeIO({ env }))).toBe(0);
    expect(await check(['$GIT commit -m x'], fakeIO({ env }))).toBe(1);
  });

  it('colours only on a terminal, and not with NO_COLOR', async () => {
    const tty = fakeIO({ env, tty: true });
    await check(['git commit -m x'], tty);
    expect(tty.stdout).toContain('\x1b[1;31mDENY\x1b[0m');
    const noColour = fakeIO({ env: { ...env, NO_COLOR: '1' }, tty: true });
    await check(['git commit -m x'], noColour);
    expect(noColour.stdout).not.toMatch(/\x1b\[/);
  });

  it('--json prints the full PolicyOutput', async () => {
    const io = fakeIO({ env });
    expect(await check(['--json', 'gh api -X DELETE repos/o/r'], io)).toBe(1);
    const out = JSON.parse(io.stdout);
    expect(out.rule).toBe('agent-gh/no-api-delete');
    expect(out.commands).toHaveLength(1);
  });

  it('--trigger, --tier, -- and several words', async () => {
    const post = fakeIO({ env });
    expect(await check(['--trigger', 'post_tool_success', 'git status'], post)).toBe(0);
    expect(post.stdout).toMatch(/^NUDGE {2}agent-git\/after-git/);
    expect(await check(['--tier', 'strict', 'git', 'merge', 'main'], fakeIO({ env }))).toBe(1);
    expect(await check(['--tier', 'baseline', '--', 'git', 'merge', '--no-ff', 'main'], fakeIO({ env }))).toBe(0);
    expect(await check(['--', 'git', 'push', '--force'], fakeIO({ env }))).toBe(1);
  });

  it('the operator bypass from the environment is shown', async () => {
    const io = fakeIO({ env: { ...env, BUCKLER_BYPASS: '1' } });
    expect(await check(['git commit -m x'], io)).toBe(0);
    expect(io.stdout).toMatch(/^ALLOW {2}\(operator bypass/);
  });

  it('reads a local script a command runs', async () => {
    fs.writeFileSync(path.join(home, 'deploy.sh'), '#!/bin/sh\nset -e\ngit push --force origin main\n');
    const io = fakeIO({ env, cwd: home });
    expect(await check(['bash ./deploy.sh'], io)).toBe(1);
    expect(io.stdout).toMatch(/agent-git\/no-force-push/);
  });

  it.each<[string[], RegExp]>([
    [[], /give the command line to check/],
    [['--trigger', 'later', 'ls'], /--trigger must be one of/],
    [['--tier', 'max', 'ls'], /--tier must be one of baseline, strict/],
    [['--json=x', 'ls'], /--json.*see 'buckler check --help'/],
  ])('errors exit 2: %j', async (args, message) => {
    const io = fakeIO({ env });
    expect(await check(args, io)).toBe(2);
    expect(io.stderr).toMatch(message);
  });

  it.each<[string[], string]>([
    // The words after check's own options are the command line, dashes and all.
    [['git', 'push', '--force', 'origin', 'main'], 'agent-git/no-force-push'],
    [['--json', 'git', 'push', '-f'], 'agent-git/no-force-push'],
    [['--tier', 'strict', 'git', 'reset', '--hard'], 'agent-git/no-reset-hard'],
    [['--', 'git', 'push', '--force'], 'agent-git/no-force-push'],
    [['git push --force'], 'agent-git/no-force-push'],
  ])('unquoted words: %j', async (args, rule) => {
    const io = fakeIO({ env });
    expect(await check(args, io)).toBe(1);
    expect(io.stdout).toContain(rule);
  });

  it('--help', async () => {
    const io = fakeIO({ env });
    expect(await check(['-h'], io)).toBe(0);
    expect(io.stdout).toMatch(/Exit codes: 0 allow or nudge, 1 deny or ask, 2 error/);
  });
});

describe('audit', () => {
  const log = () => path.join(home, '.local', 'state', 'buckler', 'audit.jsonl');
  const records = () => (fs.existsSync(log()) ? fs.readFileSync(log(), 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);

  it('off by default', async () => {
    await check(['git commit -m x'], fakeIO({ env }));
    await evaluateCmd([], fakeIO({ env, stdin: input('ls') }));
    expect(records()).toEqual([]);
  });

  it('--audit appends one record per decision; the decision is unchanged', async () => {
    const io = fakeIO({ env });
    expect(await check(['--audit', 'git commit -m x'], io)).toBe(1);
    const ev = fakeIO({ env, stdin: input('ls') });
    expect(await evaluateCmd(['--audit'], ev)).toBe(0);
    expect(records()).toHaveLength(2);
    expect(JSON.stringify(records()[0])).toContain('agent-git/no-commit');
  });

  it('audit_log = true in config.toml', async () => {
    fs.writeFileSync(path.join(env.BUCKLER_CONFIG_HOME!, 'config.toml'), '[core]\naudit_log = true\n');
    await evaluateCmd([], fakeIO({ env, stdin: input('git push --force') }));
    expect(records()).toHaveLength(1);
  });
});

describe('buckler validate', () => {
  it('clean: a summary and exit 0', async () => {
    const io = fakeIO({ env });
    expect(await validate([], io)).toBe(0);
    expect(io.stdout).toMatch(/^cache: \S+policy-config\.json: none yet \(the next hook builds it\)\nok: 13 pack files, \d+ rules checked \(\d+ active in tier baseline\); 0 errors, 0 warnings\n$/);
  });

  describe('the compiled-pack cache the hook uses', () => {
    const cacheDir = (): string => path.join(home, '.local', 'state', 'buckler', 'cache');
    const cacheFile = (): string => path.join(cacheDir(), 'policy-config.json');
    const warm = async (): Promise<void> => {
      const { loadRuntimePolicy } = await import('../packs/runtime.ts');
      const { processPaths } = await import('./process-paths.ts');
      await loadRuntimePolicy(processPaths(env));
      expect(fs.existsSync(cacheFile())).toBe(true);
    };

    it('verified after a hook built it', async () => {
      await warm();
      const io = fakeIO({ env });
      expect(await validate([], io)).toBe(0);
      expect(io.stdout).toContain(`cache: ${cacheFile()}: verified`);
    });

    it('edited by hand (a deny turned into an allow): an error, exit 1', async () => {
      await warm();
      fs.writeFileSync(cacheFile(), fs.readFileSync(cacheFile(), 'utf8').replaceAll('"action":"deny"', '"action":"allow"'));
      const io = fakeIO({ env });
      expect(await validate([], io)).toBe(1);
      expect(io.stdout).toContain(`error: cache: ${cacheFile()}: digest mismatch`);
      expect(io.stdout).toMatch(/^failed: .*; 1 error, 0 warnings$/m);
    });

    it('a symbolic link at the cache directory: an error, exit 1', async () => {
      await warm();
      const elsewhere = path.join(home, 'elsewhere');
      fs.renameSync(cacheDir(), elsewhere);
      fs.symlinkSync(elsewhere, cacheDir());
      const io = fakeIO({ env });
      expect(await validate([], io)).toBe(1);
      expect(io.stdout).toContain(`error: cache: ${cacheFile()}: the cache directory is a symbolic link`);
    });

    it('not checked when other packs are validated', async () => {
      await warm();
      fs.writeFileSync(cacheFile(), 'garbage');
      const io = fakeIO({ env, cwd: home });
      expect(await validate(['--rules-dir', 'none'], io)).toBe(0);
      expect(io.stdout).not.toContain('cache:');
    });
  });

  it('errors: file, line, rule id and problem for each, failing examples too; exit 1', async () => {
    const rules = path.join(home, 'my-rules');
    fs.mkdirSync(rules);
    fs.writeFileSync(
      path.join(rules, 'team.yaml'),
      'pack: team\nrules:\n  - id: bad\n    trigger: pre_shell_exec\n    action: forbid\n  - id: wrong-example\n    trigger: pre_shell_exec\n    action: deny\n    match: { shell_segments: [{ program: rm }] }\n    examples:\n      match: [ls]\n      no_match: [ls]\n',
    );
    fs.writeFileSync(path.join(rules, 'broken.yml'), 'rules: [\n');
    const io = fakeIO({ env, cwd: home });
    expect(await validate(['--rules-dir', 'my-rules'], io)).toBe(1);
    const lines = io.stdout.trim().split('\n');
    expect(lines).toContain('error: my-rules/team.yaml:5 rule team/bad: "action" must be one of allow, ask, deny, nudge (got "forbid"; to block, use deny); the rule is not loaded');
    expect(lines).toContain('error: my-rules/team.yaml:11 rule team/wrong-example: example "ls" should match but does not');
    expect(lines.some((l) => /^error: my-rules\/broken\.yml:\d+: not valid YAML: .* \(file skipped\)$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^failed: 15 pack files, \d+ rules checked .*; 3 errors, 0 warnings$/);
  });

  it('--packs-dir replaces the builtin packs; warnings alone do not fail, an unknown field does', async () => {
    const packs = path.join(home, 'packs');
    fs.mkdirSync(packs);
    fs.writeFileSync(path.join(packs, 'x.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: allow, match: { shell_segments: [{ program: terraform, flags_any: [-auto-approve] }] } }\n');
    const io = fakeIO({ env, cwd: home });
    expect(await validate(['--packs-dir', packs], io)).toBe(0);
    expect(io.stdout).toMatch(/^warning: packs\/x\.yaml:2 rule x\/r: flags_any entry "-auto-approve" can never match: terraform reads it as the options -a -u -t/);
    fs.writeFileSync(path.join(packs, 'x.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: allow, colour: red }\n');
    const bad = fakeIO({ env, cwd: home });
    expect(await validate(['--packs-dir', packs], bad)).toBe(1);
    expect(bad.stdout).toMatch(/^error: packs\/x\.yaml:2 rule x\/r: unknown rule field "colour" \(known: /);
    expect(io.stdout).toMatch(/ok: 1 pack file, 1 rule checked/);
  });

  it('checks config.toml too', async () => {
    fs.writeFileSync(path.join(env.BUCKLER_CONFIG_HOME!, 'config.toml'), '[core]\ntier = "max"\n');
    const io = fakeIO({ env });
    // An invalid value is read the strict way, and validate says so with the line (exit 1).
    expect(await validate([], io)).toBe(1);
    expect(io.stdout + io.stderr).toMatch(/config\.toml:2: core\.tier must be "baseline" or "strict", not "max"; read as "strict"/);
  });

  it('bad arguments exit 2; --help exits 0', async () => {
    expect(await validate(['--no-such-option'], fakeIO({ env }))).toBe(2);
    const io = fakeIO({ env });
    expect(await validate(['--help'], io)).toBe(0);
    expect(io.stdout).toMatch(/^Usage: buckler validate/);
  });
});
