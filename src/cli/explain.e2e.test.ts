/**
 * `buckler explain` through the built bundle: the readable trace, `--json` valid against
 * docs/contracts/explain.schema.json (checked with ajv, a devDependency), harness events from
 * every driver, a user pack's rule with its source, and a rule skipped by tier or by pack.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../adapters/registry.ts';
import { ROOT } from './build.testing.ts';
import { buckler as run, bundle, e2eDir, homeEnv, type Ran } from './e2e.testing.ts';

const home = e2eDir('buckler-explain-');
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/contracts/explain.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

beforeAll(() => {
  fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'config', 'rules.d', 'team.yaml'),
    [
      'pack: team',
      'rules:',
      '  - id: no-tags-push',
      '    trigger: pre_shell_exec',
      '    match: { shell_segments: [{ program: git, subcommand: push, flags_any: [--tags] }] }',
      '    action: ask',
      '',
    ].join('\n'),
  );
});

const buckler = (args: string[], stdin = '', extraEnv: Record<string, string> = {}): Ran => run(args, { stdin, cwd: home, env: homeEnv(home, extraEnv) });

function json(args: string[], stdin = '') {
  const r = buckler(['explain', '--json', ...args], stdin);
  const x = JSON.parse(r.stdout) as Record<string, unknown>;
  if (!validate(x)) throw new Error(`explain --json does not fit its schema: ${JSON.stringify(validate.errors)}`);
  return { status: r.status, x: x as any, stderr: r.stderr };
}

describe('buckler explain (built bundle)', () => {
  it('--all: says which condition held or failed, in precedence order, with the deciding rule', () => {
    const r = buckler(['explain', '--all', 'git', 'push', '-u', 'origin', '--tags']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^ASK {2}team\/no-tags-push\n/);
    expect(r.stdout).toContain('read    program git, subcommand push, options --set-upstream --tags -u, operands origin');
    expect(r.stdout).toMatch(/✗ deny {2}agent-git\/no-force-push .*no match\n\s+\[0\] program git ✓, subcommand push ✓, flags_any \[--force,-f\] ✗ \(saw --set-upstream, --tags, -u\)/);
    expect(r.stdout).toMatch(/✓ ask {3}team\/no-tags-push {2}\(priority 50, baseline, config\/rules.d\/team.yaml \[user\]\) {2}decides/);
    // Not a terminal: no colour.
    expect(r.stdout).not.toContain('\x1b[');
  });

  it('by default a screenful: the deciding rule, the rules that nearly matched and why, the reading', () => {
    const full = buckler(['explain', '--all', 'git push --force origin main']).stdout.split('\n');
    const r = buckler(['explain', 'git push --force origin main']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(full.length).toBeGreaterThan(lines.length * 3);
    expect(r.stdout).toMatch(/^DENY {2}agent-git\/no-force-push\n/);
    expect(r.stdout).toContain('  read          program git, subcommand push, options --force -f, operands origin main\n');
    expect(r.stdout).toMatch(/ {2}decides {7}deny agent-git\/no-force-push \(priority 50, baseline, .*agent-git\.yaml\)\n {16}\[0\] program git ✓, subcommand push ✓, flags_any \[--force,-f\] ✓/);
    expect(r.stdout).toMatch(/ {2}nearly {8}deny agent-git\/no-delete-remote-ref .*: only flags_any \[--delete,-d,--prune\] ✗ \(saw --force, -f\)\n {16}deny agent-git\/no-mirror-push .*: only flags_any --mirror ✗/);
    expect(r.stdout).toMatch(/\+ \d+ more rules looked at it and did not apply \(--all shows each\)/);
    // A rule whose conditions the trace lists only in part is not called a match (`ls` is no pipe to a shell).
    const ls = buckler(['explain', 'ls', '-la']);
    expect(ls.status).toBe(0);
    expect(ls.stdout).not.toMatch(/also matches|pipe-to-shell/);
  });

  it('--rules-dir and --config: the policy buckler test was given, as its hint says', () => {
    const dir = path.join(home, 'policy');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'p.yaml'), 'pack: p\nrules:\n  - id: no-make\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: make }] }\n    action: deny\n');
    fs.writeFileSync(path.join(dir, 'config.toml'), '[core]\ntier = "strict"\n');
    fs.writeFileSync(path.join(dir, 'cases.yaml'), 'cases:\n  - command: make all\n    decision: allow\n');
    const t = buckler(['test', '--rules-dir', dir, '--config', path.join(dir, 'config.toml'), path.join(dir, 'cases.yaml')]);
    expect(t.status).toBe(1);
    const hint = /why: buckler (explain .*)/.exec(t.stdout)?.[1];
    const words = (hint as string).split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'));
    expect(words.join(' ')).toContain(`--rules-dir ${dir} --config ${path.join(dir, 'config.toml')}`);
    const r = buckler([...words.slice(0, words.findIndex((w) => w.startsWith("'make"))), 'make all']);
    expect(r.stdout).toMatch(/^DENY {2}p\/no-make\n/);
    expect(r.stdout).toContain('tier strict');
    expect(buckler(['explain', 'make all']).stdout).toMatch(/^ALLOW/);
  });

  it('colour only on a terminal: never with NO_COLOR, never into a pipe', () => {
    expect(buckler(['explain', 'git push'], '', { NO_COLOR: '1' }).stdout).not.toContain('\x1b[');
  });

  it('--json fits docs/contracts/explain.schema.json, and a strict rule is skipped with its reason', () => {
    const { status: code, x } = json(['git reset --hard HEAD~1 && sudo git push --force']);
    expect(code).toBe(1);
    expect(x.decision).toBe('deny');
    const [reset, push] = x.commands;
    expect(reset.rules.find((r: any) => r.rule === 'agent-git/no-reset-hard')).toMatchObject({ state: 'skipped_tier', matched: true, outcome: 'skipped', origin: 'builtin' });
    expect(push.via).toEqual(['sudo']);
    expect(push.decisive).toBe(true);
    expect(x.summary).toBe('deny: rule agent-git/no-force-push decides command 2 of 2, the most severe decision of the line');
    const strict = json(['--tier', 'strict', 'git reset --hard HEAD~1']).x;
    expect(strict.commands[0].rules.find((r: any) => r.rule === 'agent-git/no-reset-hard').outcome).toBe('decides');
  });

  it('a pack switched off in config.toml: its rules are listed as skipped, and never decide', () => {
    const cfg = path.join(home, 'config', 'config.toml');
    fs.writeFileSync(cfg, '[packs.team]\nenabled = false\n');
    try {
      const { status: code, x } = json(['git push --tags']);
      expect(code).toBe(0);
      expect(x.commands[0].rules.find((r: any) => r.rule === 'team/no-tags-push')).toMatchObject({ state: 'skipped_pack', outcome: 'skipped' });
      expect(buckler(['explain', 'git push --tags']).stdout).toContain('skipped: pack team is switched off in config.toml, would match');
    } finally {
      fs.rmSync(cfg);
    }
  });

  it.each(Object.values(ADAPTERS).map((a) => [a.name, a] as const))('a %s event from -i FILE and from stdin', (name, adapter) => {
    const event = JSON.stringify(adapter.selfTestEvent('git push --force', home));
    const file = path.join(home, `${name}.json`);
    fs.writeFileSync(file, event);
    const fromFile = json(['-i', file, '--driver', name]);
    expect(fromFile.status).toBe(1);
    expect(fromFile.x).toMatchObject({ decision: 'deny', rule: 'agent-git/no-force-push', command: 'git push --force' });
    const fromStdin = json(['-i', '-', '--driver', name], event);
    expect(fromStdin.x.output).toEqual(fromFile.x.output);
  });

  it('a PolicyInput from -i is read as one', () => {
    const input = { policy_io_version: '1', trigger: 'pre_shell_tool', shell: { command: "bash -c 'git commit -m x'" } };
    const { x } = json(['-i', '-'], JSON.stringify(input));
    expect(x.commands.map((c: any) => [c.argv[0], c.via, c.rule])).toContainEqual(['git', ['bash -c'], 'agent-git/no-commit']);
  });

  it('validate: a rule that can never match as written is a warning with the fix; action: block is an error naming file, line and rule', () => {
    const dir = path.join(home, 'more-rules');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'infra.yaml'),
      [
        'pack: infra',
        'rules:',
        '  - id: no-auto-approve',
        '    trigger: pre_shell_exec',
        '    action: ask',
        '    match: { shell_segments: [{ program: acmectl, subcommand: destroy, flags_any: [-auto-approve] }] }',
        '  - id: blocky',
        '    trigger: pre_shell_exec',
        '    action: block',
        '',
      ].join('\n'),
    );
    const r = buckler(['validate', '--rules-dir', dir]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^error: more-rules\/infra\.yaml:9 rule infra\/blocky: "action" must be one of allow, ask, deny, nudge \(got "block"; to block, use deny\); the rule is not loaded$/m);
    expect(r.stdout).toMatch(/^warning: more-rules\/infra\.yaml:6 rule infra\/no-auto-approve: flags_any entry "-auto-approve" can never match: acmectl destroy reads it as the options -a -u -t .*single_dash_long: true, inherit_options: true.*words_any: \["-auto-approve"\]$/m);
  });

  it('errors are one line, exit 2', () => {
    for (const args of [['explain'], ['explain', '--tier', 'lax', 'ls'], ['explain', '-i', 'missing.json'], ['explain', '-i', '-', '--driver', 'nope']]) {
      const r = buckler(args, '{}');
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^buckler explain: [^\n]+\n$/);
    }
  });
});

describe('explain into a closed pipe (`| head`)', () => {
  it('stops quietly: no internal error, no stack trace', async () => {
    const home = fs.mkdtempSync(path.join(tmpdir(), 'buckler-explain-pipe-'));
    try {
      for (let i = 0; i < 3; i++) {
        const child = spawn(process.execPath, [bundle(), 'explain', '--', 'git push --force origin main'], { env: { PATH: process.env.PATH ?? '', HOME: home, BUCKLER_CONFIG_HOME: path.join(home, 'c'), BUCKLER_STATE_HOME: path.join(home, 's') }, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.destroy();
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        expect(stderr).not.toMatch(/EPIPE|internal error|at .*\.cjs/);
        expect(code).not.toBe(2);
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
