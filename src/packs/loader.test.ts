/**
 * Loading packs and config from disk: problems with file, line, rule id and what; a broken rule
 * or file never takes the rest down; tiers, disabled packs, examples, programs, old files.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyInput } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { resolvePaths } from '../paths.ts';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import { formatProblem } from './problems.ts';
import { loadPolicyReport, loadRuntimePolicy, type RuntimeOptions } from './runtime.ts';

let root: string;
let packsDir: string;
let configHome: string;
let rulesDir: string;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-loader-'));
  packsDir = path.join(root, 'packs');
  configHome = path.join(root, 'config');
  rulesDir = path.join(configHome, 'rules.d');
  fs.mkdirSync(packsDir);
  fs.mkdirSync(rulesDir, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string): string => {
  fs.writeFileSync(file, text);
  return file;
};
const env = () => ({ BUCKLER_CONFIG_HOME: configHome });
const paths = () => resolvePaths({ env: env(), platform: process.platform, home: root });
const load = (opts: RuntimeOptions = {}) => loadPolicyReport(paths(), { packsDir, ...opts });
const run = (policy: Awaited<ReturnType<typeof load>>['policy'], command: string, extra: Partial<PolicyInput> = {}) =>
  evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command }, ...extra }, policy);

const GOOD_RULE = `
  - id: no-rm
    trigger: pre_shell_exec
    match:
      shell_segments:
        - program: rm
          flags_any: ["-r"]
    action: deny
    user_message: "no {command}"
    agent_message: "no"
    examples:
      match: ["rm -rf x"]
      no_match: ["rm x"]
`;

describe('problems are reported with file, line, rule id and what', () => {
  it('a bad action: exact message, rule skipped, the rest of the file loads', async () => {
    const file = write(
      path.join(packsDir, 'agent-x.yaml'),
      `pack: agent-x
version: "1"
rules:
  - id: no-force-push
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: git, subcommand: push }] }
    action: block
${GOOD_RULE}`,
    );
    const r = await load();
    const errors = r.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => formatProblem(p))).toEqual([
      `${file}:7 rule agent-x/no-force-push: "action" must be one of allow, ask, deny, nudge (got "block"; to block, use deny); the rule is not loaded`,
    ]);
    expect(r.policy.rules.map((x) => x.id)).toEqual(['agent-x/no-rm']);
    expect(run(r.policy, 'rm -rf /tmp/x').decision).toBe('deny');
  });

  it('a file that is not YAML is reported with its line and skipped; other files load', async () => {
    const bad = write(path.join(rulesDir, 'a.yaml'), 'rules:\n  - id: x\n    trigger: [pre_shell_exec\n    action: deny\n');
    write(path.join(rulesDir, 'b.yaml'), `rules:${GOOD_RULE}`);
    const r = await load();
    const p = r.problems.find((x) => x.file === bad);
    expect(p?.severity).toBe('error');
    expect(p?.message).toMatch(/not valid YAML/);
    expect(p?.line).toBeGreaterThan(0);
    expect(r.policy.rules.map((x) => x.id)).toEqual(['b/no-rm']);
    expect(r.warnings.some((w) => w.startsWith(`${bad}:`))).toBe(true);
  });

  it.each<[string, string, string]>([
    ['trigger: pre_everything', 'trigger', '"trigger" "pre_everything" must be one of'],
    ['trigger: []', 'trigger', '"trigger" is required'],
    ['priority: high', 'priority', '"priority" must be an integer'],
    ['priority: 1.5', 'priority', '"priority" must be an integer'],
    ['tier: extreme', 'tier', '"tier" must be one of baseline, strict'],
    ['user_message: [a]', 'user_message', '"user_message" must be a string or null'],
    ['enabled: "no"', 'enabled', '"enabled" must be true or false'],
    ['match: { shell_segment: [] }', 'match', 'unknown match field "shell_segment"'],
    ['match: { shell_segments: [] }', 'match', '"match.shell_segments" must be a non-empty list'],
    ['match: { shell_segments: [{ program: git, flags: [-f] }] }', 'match', 'unknown shell_segments field "flags"'],
    ['match: { shell_segments: [{ program: git, flags_any: [f] }] }', 'match', 'must be an option such as -f'],
    ['match: { shell_segments: [{ program: git, refspec_delete: "yes" }] }', 'match', '"refspec_delete" must be true or false'],
    ['match: { shell_segments: [{ program: git, role_marks: [force] }] }', 'match', '"role_marks" must be a non-empty list of ROLE.MARK names'],
    ['match: { shell_segments: [{ program: git, role_marks: [] }] }', 'match', '"role_marks" must be a non-empty list of ROLE.MARK names'],
    ['match: { shell_segments: [{ program: git, flags_none: [n] }] }', 'match', 'must be an option such as -f'],
    ['match: { shell_segments: [{ program: git, words_all: [] }] }', 'match', '"words_all" must be a non-empty list of strings'],
    ['match: { shell_segments: [{ program: git, positionals_min: -1 }] }', 'match', '"positionals_min" must be a whole number'],
    ['match: { shell_segments: [{ program: git, positionals_any: x }] }', 'match', '"positionals_any" must be a non-empty list of strings'],
    ['match: { shell_segments: [{ script_from: [curl] }] }', 'match', '"script_from" must be a mapping'],
    ['match: { shell_segments: [{ script_from: { program: curl } }] }', 'match', 'unknown script_from field "program"'],
    ['match: { shell_segments: [{ script_from: { programs: [] } }] }', 'match', '"script_from.programs" must be a program name or a non-empty list'],
    ['match: { shell_segments: [{ script_from: { programs: curl, how: [ftp] } }] }', 'match', '"script_from.how" must be one or more of pipe, substitution, file'],
    ['match: { shell_segments: [{ script_from: { programs: curl, flags_any: [d] } }] }', 'match', 'must be an option such as -f'],
    ['match: { env: { A: [1] } }', 'match', '"match.env.A" must be a string'],
    ['match: { tool_name: 3 }', 'match', '"match.tool_name" must be a string'],
    ['examples: { matches: [x] }', 'examples', 'unknown examples field "matches"'],
    ['examples: { match: [{ cmd: x }] }', 'examples', 'unknown example field "cmd"'],
  ])('%s', async (line, field, message) => {
    // The bad field sits between two good ones, so the line reported must be its own.
    const text = `rules:\n  - id: r\n    action: deny\n    ${line}\n    ${line.startsWith('trigger') ? 'description: x' : 'trigger: pre_shell_exec'}\n`;
    const file = write(path.join(packsDir, 'p.yaml'), text);
    const r = await load();
    const p = r.problems.find((x) => x.severity === 'error');
    expect(p, JSON.stringify(r.problems)).toBeDefined();
    expect(p!.file).toBe(file);
    expect(p!.rule).toBe('p/r');
    expect(p!.message).toContain(message);
    // The problem points at the line that holds `field:` in the file.
    const fieldLine = text.split('\n').findIndex((l) => l.trimStart().startsWith(`${field}:`)) + 1;
    expect(fieldLine).toBe(4);
    expect(p!.line).toBe(fieldLine);
    expect(r.policy.rules).toEqual([]);
  });

  it('a missing id, a duplicate id, a rule that is not a mapping', async () => {
    write(
      path.join(packsDir, 'p.yaml'),
      `rules:\n  - action: deny\n    trigger: pre_shell_exec\n  - id: a\n    action: deny\n    trigger: pre_shell_exec\n  - id: a\n    action: allow\n    trigger: pre_shell_exec\n  - just text\n`,
    );
    const r = await load();
    const lines = r.problems.map((p) => formatProblem(p, (f) => path.basename(f)));
    expect(lines).toEqual([
      'p.yaml:2 rule p/#1: "id" is required and must be a non-empty string',
      'p.yaml:7 rule p/a: duplicate rule id "a" in pack p',
      'p.yaml:10 rule p/#4: a rule must be a mapping',
    ]);
    expect(r.policy.rules.map((x) => [x.id, x.action])).toEqual([['p/a', 'deny']]);
  });

  it('deny or ask after an action is refused (nothing can be blocked then)', async () => {
    write(path.join(packsDir, 'p.yaml'), 'rules:\n  - id: r\n    trigger: [pre_shell_exec, post_tool_success]\n    action: deny\n');
    const r = await load();
    expect(r.problems[0]?.message).toMatch(/cannot apply to post_tool_success/);
    expect(r.policy.rules).toEqual([]);
  });

  it('unknown rule and pack fields are errors naming file, line and rule; the rule still loads', async () => {
    write(path.join(packsDir, 'p.yaml'), 'pack: p\nauthor: me\nrules:\n  - id: r\n    trigger: pre_shell_exec\n    action: ask\n    severity: high\n');
    const r = await load();
    expect(r.problems.map((p) => [p.severity, p.line, p.message])).toEqual([
      ['error', 2, 'unknown pack field "author" (known: pack, version, description, defaults, rules, programs, guarded_words); the field does nothing'],
      [
        'error',
        7,
        'unknown rule field "severity" (known: id, description, trigger, match, action, priority, tier, user_message, agent_message, additional_context, enabled, examples); the field does nothing, the rest of the rule is in force',
      ],
    ]);
    expect(r.policy.rules.map((x) => x.id)).toEqual(['p/r']);
  });

  it('a file of another format version is refused; an empty file is a warning', async () => {
    write(path.join(packsDir, 'a.yaml'), 'version: "2"\nrules: []\n');
    write(path.join(packsDir, 'b.yaml'), '');
    const r = await load();
    expect(r.problems.map((p) => [p.severity, path.basename(p.file), p.message])).toEqual([
      ['error', 'a.yaml', 'pack format version "2" is not supported (this Buckler reads "1")'],
      ['warning', 'b.yaml', 'the file is empty (no rules loaded)'],
    ]);
  });

  it('a missing builtin packs directory is an error; a missing rules directory is fine', async () => {
    fs.rmSync(rulesDir, { recursive: true });
    const r = await load({ packsDir: path.join(root, 'nope') });
    expect(r.problems.map((p) => p.message)).toEqual(['cannot read the packs directory (ENOENT)']);
  });
});

describe('examples', () => {
  it('a failing example is reported at its line; the rule stays loaded', async () => {
    const file = write(
      path.join(packsDir, 'p.yaml'),
      `rules:
  - id: r
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: rm, flags_any: [-r] }] }
    action: deny
    examples:
      match:
        - rm -rf x
        - rm x
      no_match:
        - rm -r y
        - ls
`,
    );
    const r = await load();
    expect(r.problems.map((p) => formatProblem(p))).toEqual([
      `${file}:9 rule p/r: example "rm x" should match but does not`,
      `${file}:11 rule p/r: example "rm -r y" should not match but does`,
    ]);
    expect(r.policy.rules.map((x) => x.id)).toEqual(['p/r']);
  });

  it('examples can set env, tool and trigger; plain commands keep the rule’s own conditions', async () => {
    write(
      path.join(packsDir, 'p.yaml'),
      `rules:
  - id: freeze
    trigger: pre_shell_exec
    match: { env: { FREEZE: "1" } }
    action: deny
    examples:
      match: [ls, { command: ls, env: { FREEZE: "1" } }]
      no_match: [{ command: ls, env: { FREEZE: "0" } }]
  - id: write
    trigger: pre_shell_tool
    match: { tool_name: Write }
    action: ask
    examples:
      match: [{ tool_name: Write }]
      no_match: [{ tool_name: Read }, { tool_name: Write, trigger: pre_shell_exec }]
`,
    );
    expect((await load()).problems).toEqual([]);
  });

  it('an example that cannot be parsed fails', async () => {
    write(path.join(packsDir, 'p.yaml'), 'rules:\n  - id: r\n    trigger: pre_shell_exec\n    action: deny\n    examples:\n      no_match: [\'echo "x\']\n');
    expect((await load()).problems[0]?.message).toMatch(/could not be analysed/);
  });

  it('examples can be switched off for a faster load', async () => {
    write(path.join(packsDir, 'p.yaml'), 'rules:\n  - id: r\n    trigger: pre_shell_exec\n    action: deny\n    examples: { match: [ls], no_match: [ls] }\n');
    expect((await load({ examples: false })).problems).toEqual([]);
    expect((await load()).problems).toHaveLength(1);
  });
});

describe('tiers, config, order', () => {
  const TWO_TIERS = `pack: t
defaults:
  tier: strict
rules:
  - id: strict-one
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: git, subcommand: merge }] }
    action: deny
  - id: baseline-one
    tier: baseline
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: git, subcommand: commit }] }
    action: deny
`;

  it('baseline drops strict rules (also by the pack default); strict keeps them', async () => {
    write(path.join(packsDir, 't.yaml'), TWO_TIERS);
    expect((await load()).policy.rules.map((r) => r.id)).toEqual(['t/baseline-one']);
    expect((await load({ tier: 'strict' })).policy.rules.map((r) => r.id)).toEqual(['t/strict-one', 't/baseline-one']);
    write(path.join(configHome, 'config.toml'), '[core]\ntier = "strict"\naudit_log = true\n');
    const r = await load();
    expect(r.config).toEqual({ tier: 'strict', audit_log: true, packs: {} });
    expect(r.policy.tier).toBe('strict');
    expect(r.policy.rules).toHaveLength(2);
    expect((await load({ tier: 'baseline' })).policy.rules).toHaveLength(1);
  });

  it('a disabled pack loads no rules but is still checked', async () => {
    write(path.join(packsDir, 't.yaml'), `${TWO_TIERS}  - id: broken\n    trigger: pre_shell_exec\n    action: nope\n`);
    write(path.join(configHome, 'config.toml'), '[packs]\nt = { enabled = false }\n');
    const r = await load();
    expect(r.policy.rules).toEqual([]);
    expect(r.policy.packs).toEqual([]);
    expect(r.problems.map((p) => p.rule)).toEqual(['t/broken']);
  });

  it('a malformed config.toml: an error, and the strict reading (tier strict, every pack on)', async () => {
    write(path.join(packsDir, 't.yaml'), TWO_TIERS);
    const cfg = write(path.join(configHome, 'config.toml'), '[core]\ntier = \n');
    const r = await load();
    expect(r.config).toMatchObject({ tier: 'strict', audit_log: null, packs: {} });
    expect(r.config.strict_reading).toMatch(/^config\.toml line 2: not valid TOML .*; using the strict reading$/);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ severity: 'error', file: cfg, line: 2 });
    expect(r.problems[0]!.message).toMatch(/not valid TOML .*read as: tier strict, every pack on/);
    expect(r.policy.rules.map((x) => x.id).sort()).toEqual(['t/baseline-one', 't/strict-one']);
  });

  // text, message, line, tier read, audit_log read, packs read
  it.each<[string, RegExp, number, string, boolean | null, Record<string, { enabled: boolean }>]>([
    ['[core]\ntier = "extreme"\n', /core.tier must be "baseline" or "strict"/, 2, 'strict', null, {}],
    ['[core]\naudit_log = "yes"\n', /core.audit_log must be true or false/, 2, 'baseline', null, {}],
    ['[packs]\nx = false\n', /packs.x must be \{ enabled = true\|false \}/, 2, 'baseline', null, {}],
    ['[packs]\nt = { enabled = "no" }\n', /packs.t must be \{ enabled = true\|false \}/, 2, 'baseline', null, {}],
    ['[core]\ncolour = 1\n', /unknown key core.colour/, 2, 'baseline', null, {}],
    ['\n[extra]\n', /unknown section \[extra\]/, 2, 'baseline', null, {}],
    ['[system]\nallow_bypass = "yes"\n', /system.allow_bypass must be true or false/, 2, 'baseline', null, {}],
    ['[system]\nallow_location_variables = 1\n', /system.allow_location_variables must be true or false/, 2, 'baseline', null, {}],
    ['[system]\nallow = "no"\n', /system.allow must be true or false/, 2, 'baseline', null, {}],
    ['[system]\n\ngrant_seconds = 0\n', /system.grant_seconds must be a whole number/, 3, 'baseline', null, {}],
    ['[system]\nallow_bypas = true\n', /unknown key system.allow_bypas/, 2, 'baseline', null, {}],
    ['system = 1\n', /\[system\] must be a table/, 1, 'baseline', null, {}],
  ])('config %j → an error, its line, the strictest valid reading', async (text, message, line, tier, audit, packs) => {
    write(path.join(configHome, 'config.toml'), text);
    const r = await load();
    const p = r.problems.find((x) => message.test(x.message));
    expect(p).toMatchObject({ severity: 'error', line });
    expect(r.config).toMatchObject({ tier, audit_log: audit, packs });
    expect(r.config.strict_reading).toMatch(new RegExp(`^config\\.toml line ${line}: .*; using the strict reading$`));
  });

  // [system] (the locked-down install): what the person's environment may set; a bad value allows nothing.
  it.each<[string, unknown]>([
    ['[system]\nallow_bypass = true\n', { bypass: true, location_variables: false }],
    ['[system]\nallow_location_variables = true\nallow_bypass = false\n', { bypass: false, location_variables: true }],
    ['[system]\nallow = false\ntrust = false\ngrant_seconds = 30\n', { bypass: false, location_variables: false, allow: false, trust: false }],
    ['[system]\nallow = true\ntrust = "no"\n', { bypass: false, location_variables: false, trust: false }],
    ['[system]\nallow = true\ntrust = true\ngrant_seconds = 30\n', undefined],
    ['[system]\nallow_bypass = "true"\nallow_location_variables = true\n', { bypass: false, location_variables: true }],
    ['', undefined],
  ])('config %j → system_allows %j', async (text, want) => {
    write(path.join(configHome, 'config.toml'), text);
    const r = await load();
    expect(r.config.system_allows).toEqual(want);
  });

  it('a valid config has no strict reading', async () => {
    write(path.join(configHome, 'config.toml'), '[core]\ntier = "baseline"\naudit_log = true\n');
    const r = await load();
    expect(r.problems).toEqual([]);
    expect(r.config.strict_reading).toBeUndefined();
  });

  it('builtin packs (by file name) load before user packs (by file name); .yml counts, other files do not', async () => {
    write(path.join(packsDir, 'b.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: nudge, additional_context: b }\n');
    write(path.join(packsDir, 'a.yml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: nudge, additional_context: a }\n');
    write(path.join(rulesDir, 'c.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: nudge, additional_context: c }\n');
    write(path.join(rulesDir, '0.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: nudge, additional_context: z }\n');
    write(path.join(rulesDir, 'notes.txt'), 'not a pack');
    const r = await load();
    expect(r.policy.rules.map((x) => x.id)).toEqual(['a/r', 'b/r', '0/r', 'c/r']);
    expect(r.policy.packs.map((p) => [p.id, p.builtin])).toEqual([['a', true], ['b', true], ['0', false], ['c', false]]);
    // Full tie: the earlier rule gives the messages.
    expect(run(r.policy, 'ls').additional_context).toBe('a');
  });

  it('a user allow rule for one command never lets another command of the line through', async () => {
    write(path.join(packsDir, 'g.yaml'), 'rules:\n  - { id: no-commit, trigger: pre_shell_exec, action: deny, agent_message: x, user_message: x, match: { shell_segments: [{ program: git, subcommand: commit }] } }\n');
    write(
      path.join(rulesDir, 'mine.yaml'),
      'rules:\n  - id: allow-amend\n    trigger: pre_shell_exec\n    priority: 90\n    action: allow\n    match: { shell_segments: [{ program: git, subcommand: commit, flags_all: [--amend, --no-edit] }] }\n',
    );
    const { policy } = await load();
    expect(run(policy, 'git commit --amend --no-edit').decision).toBe('allow');
    expect(run(policy, 'git commit --amend --no-edit && git commit -m x').decision).toBe('deny');
  });

  it('env keys of the rules are listed with the bypass variables', async () => {
    write(path.join(packsDir, 'p.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: deny, match: { env: { CI: "true", LEVEL: 3 } } }\n');
    const { policy } = await load();
    expect(policy.env_keys).toEqual(['BUCKLER_BYPASS', 'CI', 'LEVEL', 'RETHUNK_ALLOW_SHELL']);
    expect(policy.rules[0]!.env).toEqual({ CI: 'true', LEVEL: '3' });
  });

  it('loadRuntimePolicy gives the policy, the config, one line per problem and the rules dropped', async () => {
    write(path.join(packsDir, 'p.yaml'), 'rules:\n  - { id: r, trigger: pre_shell_exec, action: nope }\n  - { id: s, trigger: pre_shell_exec, action: deny, colour: red }\n');
    const loaded = await loadRuntimePolicy(paths(), { packsDir });
    expect(Object.keys(loaded).sort()).toEqual(['config', 'dropped', 'policy', 'warnings']);
    expect(loaded.warnings).toHaveLength(2);
    expect(loaded.warnings[0]).toMatch(/p\.yaml:2 rule p\/r: "action" must be one of/);
    // The unknown field is an error too, but the rule stays in force: it is not dropped.
    expect(loaded.dropped).toEqual([loaded.warnings[0]]);
    expect(loaded.policy.rules.map((r) => r.id)).toEqual(['p/s']);
    // From the compiled-pack cache the same.
    const again = await loadRuntimePolicy(paths(), { packsDir });
    expect(again.cached).toBe(true);
    expect(again.dropped).toEqual(loaded.dropped);
  });
});

describe('format "1" files of the earlier Buckler load unchanged', () => {
  it('an old-style user pack keeps its meaning', async () => {
    write(
      path.join(rulesDir, 'team.yaml'),
      `# no pack:, no version: the id comes from the file name
description: Team rules
rules:
  - id: no-prod-deploy
    trigger: pre_shell_exec
    match:
      shell_segments:
        - program: kubectl
          subcommand: apply
    action: ask
    priority: 60
    user_message: Deploying from an agent needs a person.
    agent_message: null
    additional_context: null
  - id: block-write-tool
    trigger: [pre_shell_tool]
    match:
      tool_name: Write
      env:
        FREEZE: "1"
    action: deny
    user_message: "Frozen: {pack}/{rule} blocked {command}"
    agent_message: Writes are frozen.
  - id: old-disabled
    enabled: false
    trigger: pre_shell_exec
    action: deny
`,
    );
    const r = await load();
    expect(r.problems).toEqual([]);
    expect(r.policy.rules.map((x) => x.id)).toEqual(['team/no-prod-deploy', 'team/block-write-tool']);
    expect(run(r.policy, 'kubectl apply -f x.yaml').decision).toBe('ask');
    const tool = evaluate({ policy_io_version: '1', trigger: 'pre_shell_tool', tool: { name: 'Write' }, env: { FREEZE: '1' } }, r.policy);
    expect(tool.decision).toBe('deny');
    expect(tool.user_message).toBe('Frozen: team/team/block-write-tool blocked Write');
    expect(evaluate({ policy_io_version: '1', trigger: 'pre_shell_tool', tool: { name: 'Write' } }, r.policy).decision).toBe('allow');
  });
});

describe('programs: a pack describes more programs', () => {
  it('kubectl with a value-taking global option and nested subcommands', async () => {
    write(
      path.join(rulesDir, 'k8s.yaml'),
      `pack: k8s
programs:
  kubectl:
    value_options: [-n, --namespace, --context]
    inherit_options: true
    subcommands:
      delete:
      config:
        nested: true
rules:
  - id: no-delete
    trigger: pre_shell_exec
    match:
      shell_segments:
        - program: kubectl
          subcommand: delete
    action: deny
    user_message: x
    agent_message: x
    examples:
      match: [kubectl -n prod delete pod x, kubectl delete -n prod pod x, kubectl --context=c delete ns y]
      no_match: [kubectl -n delete get pods, kubectl get pods -n delete]
  - id: no-config-set
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: kubectl, subcommand: config set-context }] }
    action: ask
    examples:
      match: [kubectl config --kubeconfig=x set-context a]
      no_match: [kubectl config view]
`,
    );
    const r = await load();
    expect(r.problems).toEqual([]);
    expect(r.policy.grammars['kubectl']).toBeDefined();
    expect(run(r.policy, 'kubectl -n prod delete pod x').decision).toBe('deny');
  });

  it('a role of its own with role_kinds, tested with role_marks; an undeclared mark warns', async () => {
    write(
      path.join(rulesDir, 'k8s.yaml'),
      `pack: k8s
programs:
  kubectl:
    value_options: [--context]
    inherit_options: true
    roles: { --context: context }
    role_kinds:
      context: { marks: { production: { ignore_case: true, equals: [prod, production] } } }
rules:
  - id: no-prod
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: kubectl, role_marks: [context.production] }] }
    action: deny
    examples:
      match: [kubectl --context=PROD get pods, kubectl get pods --context production]
      no_match: [kubectl --context=products get pods, kubectl get pods prod]
  - id: never
    trigger: pre_shell_exec
    match: { shell_segments: [{ program: git, role_marks: [refspec.gone] }] }
    action: deny
`,
    );
    const r = await load();
    expect(r.problems.map((p) => p.message)).toEqual([expect.stringContaining('no program\'s data declares the mark "refspec.gone"')]);
    expect(run(r.policy, 'kubectl --context prod delete ns x').decision).toBe('deny');
    expect(run(r.policy, 'kubectl --context staging delete ns x').decision).toBe('allow');
    expect(run(r.policy, 'git push origin :gone').decision).toBe('allow');
  });

  it('a bad grammar is reported and not used', async () => {
    write(path.join(rulesDir, 'k.yaml'), 'programs:\n  kubectl:\n    value_options: -n\nrules: []\n');
    const r = await load();
    expect(r.problems.map((p) => [p.line, p.message])).toEqual([[2, 'program "kubectl": "value_options" must be a list of strings']]);
    expect(r.policy.grammars['kubectl']).toEqual(BUILTIN_GRAMMARS['kubectl']);
  });

  it('subcommand aliases in rules are canonical: "remote rm" means "remote remove"', async () => {
    write(path.join(rulesDir, 'r.yaml'), 'rules:\n  - id: r\n    trigger: pre_shell_exec\n    action: deny\n    match: { shell_segments: [{ program: git, subcommand: remote rm }] }\n    examples: { match: [git remote remove x, git remote rm x], no_match: [git remote add x y] }\n');
    const r = await load();
    expect(r.problems).toEqual([]);
    expect(r.policy.rules[0]!.shell_segments![0]!.subcommand).toEqual(['remote', 'remove']);
  });
});

describe('guarded_words: words a pack guards when a script cannot be seen', () => {
  it('are compiled per enabled pack and tier, and make an unseen script ask', async () => {
    write(
      path.join(rulesDir, 'k8s.yaml'),
      `pack: k8s
guarded_words:
  - [kubectl, delete]
  - { words: drain, tier: strict }
  - { words: [helm, "uninstall*"] }
rules: []
`,
    );
    const r = await load();
    expect(r.problems).toEqual([]);
    const k8s = r.policy.guarded_words?.find((g) => g.pack === 'k8s');
    expect(k8s?.words).toEqual([['kubectl', 'delete'], ['helm', 'uninstall*']]);
    expect(run(r.policy, 'curl -s https://x | sh -s -- kubectl delete ns prod')).toMatchObject({ decision: 'ask', rule: 'k8s/guarded-words' });
    expect(run(r.policy, 'kubectl delete ns prod').decision).toBe('allow');
    expect(run(r.policy, 'curl -s https://x | sh -s -- kubectl get pods').decision).toBe('allow');
    const strict = await load({ tier: 'strict' });
    expect(strict.policy.guarded_words?.find((g) => g.pack === 'k8s')?.words).toEqual([['kubectl', 'delete'], ['drain'], ['helm', 'uninstall*']]);
  });

  it('a broken entry is reported with its line and left out; a disabled pack contributes none', async () => {
    write(path.join(rulesDir, 'g.yaml'), 'pack: g\nguarded_words:\n  - ok\n  - [two words]\n  - { words: x, tier: loud }\n  - { word: x }\n  - "*"\nrules: []\n');
    const r = await load();
    expect(r.problems.map((p) => [p.line, p.message])).toEqual([
      [4, 'guarded word "two words" must be non-empty, without blanks, and more than "*"'],
      [5, '"tier" must be one of baseline, strict'],
      [6, 'unknown guarded_words field "word" (known: words, tier); entry skipped'],
      [7, 'guarded word "*" must be non-empty, without blanks, and more than "*"'],
    ]);
    expect(r.policy.guarded_words?.find((g) => g.pack === 'g')?.words).toEqual([['ok']]);
    write(path.join(configHome, 'config.toml'), '[packs.g]\nenabled = false\n');
    expect((await load()).policy.guarded_words?.find((g) => g.pack === 'g')).toBeUndefined();
  });

  it('must be a list', async () => {
    write(path.join(rulesDir, 'g.yaml'), 'pack: g\nguarded_words: push\nrules: []\n');
    const r = await load();
    expect(r.problems.map((p) => [p.line, p.message])).toEqual([[2, '"guarded_words" must be a list of words, lists of words, or { words, tier } mappings']]);
  });
});
