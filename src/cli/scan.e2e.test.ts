/**
 * `buckler scan` through the built bundle: one fixture repository per input kind
 * (src/cli/scan/testdata/, each with a look-alike that gives no finding), the package.json
 * scripts of npm packages installed here as dev dependencies, SARIF output validated against
 * the SARIF 2.1.0 schema kept in the repository (src/cli/scan/README.md), project rules and
 * their trust, `--packs`, `--fail-on`, and the exit codes (0, 1, 2 with a one-line error).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { buckler, e2eDir, homeEnv, type Ran } from './e2e.testing.ts';

const home = e2eDir('buckler-scan-');
const HERE = path.dirname(new URL(import.meta.url).pathname);
const FIXTURES = path.join(HERE, 'scan', 'testdata');
const REPO = path.resolve(HERE, '..', '..');

function scan(args: string[], cwd: string): Ran {
  return buckler(['scan', ...args], { cwd, env: homeEnv(home), timeout: 60_000 });
}

/** `file:line:column level rule` of each finding in the text report. */
function findings(r: Ran): string[] {
  return r.stdout
    .split('\n')
    .filter((l) => /^\S+:\d+:\d+: (error|warning|note) /.test(l))
    .map((l) => l.split(': ').slice(0, 2).join(' ').replace(/:$/, ''));
}

/** The SARIF 2.1.0 schema (draft-04), compiled by ajv 8: its `id` is what later drafts call `$id`. */
function sarifValidator(): ReturnType<Ajv['compile']> {
  const schema = JSON.parse(fs.readFileSync(path.join(HERE, 'scan', 'sarif-2.1.0.schema.json'), 'utf8')) as Record<string, unknown>;
  const { id, $schema: _draft, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  ajv.addFormat('uri', (s: string) => URL.canParse(s));
  ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'file:///'));
  ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
  return ajv.compile({ $id: id as string, ...rest });
}

// Each fixture: the findings it must give (its look-alikes give none), and the exit code.
const KINDS: Array<[string, string[], number]> = [
  ['package-json', ['package.json:6:17 warning agent-publish/publish'], 0],
  ['make-recipes', ['Makefile:9:2 error agent-git/no-force-push'], 1],
  ['shell-script', ['scripts/clean.sh:5:1 error agent-fs/no-recursive-delete-outside-project'], 1],
  ['shell-shebang', ['bin/setup:5:3 warning agent-worktree/clean-force'], 0],
  ['github-actions', ['.github/workflows/release.yml:13:11 error agent-git/no-delete-remote-ref'], 1],
  ['gitlab-ci', ['.gitlab-ci.yml:9:7 note agent-git/add-review'], 0],
  ['dockerfile', ['Dockerfile:6:5 warning agent-remote-exec/pipe-to-shell', 'Dockerfile:8:5 error agent-git/no-commit'], 1],
  ['git-hook', ['.githooks/post-merge:4:1 warning agent-worktree/reset-hard'], 0],
];

describe('buckler scan: one fixture per input kind', () => {
  it.each(KINDS)('%s', (kind, want, code) => {
    const r = scan([], path.join(FIXTURES, kind));
    expect(r.stderr).toBe('');
    expect(findings(r)).toEqual(want);
    expect(r.status).toBe(code);
  });

  it('the whole tree at once: every kind, every file found, the same findings', () => {
    const r = scan(['testdata'], path.join(HERE, 'scan'));
    expect(r.stderr).toBe('');
    const all = KINDS.flatMap(([kind, want]) => want.map((w) => `${kind}/${w}`)).sort();
    expect(findings(r).sort()).toEqual(all);
    // 1 package.json, 1 Makefile, 2 shell scripts, 1 workflow, 1 .gitlab-ci.yml, 1 Dockerfile, 2 git hooks (not the python script).
    expect(r.stdout).toMatch(/^scan: 9 files read \(tier baseline\); 4 errors, 4 warnings, 1 note$/m);
    expect(r.status).toBe(1);
  });

  it('a file alone: its findings, placed in it', () => {
    const r = scan(['bin/setup'], path.join(FIXTURES, 'shell-shebang'));
    expect(findings(r)).toEqual(['setup:5:3 warning agent-worktree/clean-force']);
  });
});

describe('buckler scan --format sarif', () => {
  const validate = sarifValidator();

  it('validates against the SARIF 2.1.0 schema, with rule, level, file, line, column and reason', () => {
    const r = scan(['--format', 'sarif', 'testdata'], path.join(HERE, 'scan'));
    expect(r.status).toBe(1);
    const log = JSON.parse(r.stdout);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0];
    const rules = run.tool.driver.rules.map((x: { id: string }) => x.id);
    const got = run.results.map((x: any) => {
      const loc = x.locations[0].physicalLocation;
      expect(rules[x.ruleIndex]).toBe(x.ruleId);
      expect(x.message.text.length).toBeGreaterThan(20);
      return `${loc.artifactLocation.uri}:${loc.region.startLine}:${loc.region.startColumn} ${x.level} ${x.ruleId}`;
    });
    expect(got.sort()).toEqual(KINDS.flatMap(([kind, want]) => want.map((w) => `${kind}/${w}`)).sort());
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${FIXTURES}/`);
  });

  it('a log with no finding validates too, and the schema check can fail', () => {
    const r = scan(['--format', 'sarif', '--packs', 'agent-k8s'], path.join(FIXTURES, 'make-recipes'));
    expect(r.status).toBe(0);
    const log = JSON.parse(r.stdout);
    expect(log.runs[0].results).toEqual([]);
    expect(validate(log)).toBe(true);
    expect(validate({ ...log, runs: [{ ...log.runs[0], results: [{ level: 'fatal', message: { text: 'x' } }] }] })).toBe(false);
  });
});

describe('buckler scan: scripts of npm packages installed as dev dependencies', () => {
  // typescript (Apache-2.0), vite (MIT), esbuild (MIT), ajv (MIT): their package.json files as
  // installed in node_modules, read only. Versions pinned by package-lock.json.
  it.each([
    ['typescript', 12],
    ['vite', 10],
    ['esbuild', 1],
  ] as const)('%s: every script read, none flagged', (name, scripts) => {
    const file = path.join(REPO, 'node_modules', name, 'package.json');
    expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).scripts ?? {})).toHaveLength(scripts);
    const r = scan([file], REPO);
    expect(r.stderr).toBe('');
    expect(findings(r)).toEqual([]);
    expect(r.stdout).toMatch(/^scan: 1 file read/m);
    expect(r.status).toBe(0);
  });

  it('ajv: a script that runs a script file the install does not have is asked about, where it is', () => {
    const file = path.join(REPO, 'node_modules', 'ajv', 'package.json');
    const r = scan([file, '--fail-on', 'warning'], REPO);
    expect(findings(r)).toEqual(['package.json:22:16 warning agent-tamper/unreadable-script', 'package.json:26:41 warning agent-tamper/unreadable-script']);
    expect(r.status).toBe(1);
  });
});

describe('buckler scan: policy, options and exit codes', () => {
  it('--packs selects the packs whose rules decide', () => {
    const dir = path.join(FIXTURES, 'dockerfile');
    expect(findings(scan(['--packs', 'agent-git'], dir))).toEqual(['Dockerfile:8:5 error agent-git/no-commit']);
    expect(findings(scan(['--packs', 'agent-remote-exec'], dir))).toEqual(['Dockerfile:6:5 warning agent-remote-exec/pipe-to-shell']);
    expect(scan(['--packs', 'agent-remote-exec'], dir).status).toBe(0);
  });

  it('the operator bypass in the environment changes nothing: a scan reports what an agent would meet', () => {
    const r = buckler(['scan'], { cwd: path.join(FIXTURES, 'make-recipes'), env: homeEnv(home, { BUCKLER_BYPASS: '1' }) });
    expect(findings(r)).toEqual(['Makefile:9:2 error agent-git/no-force-push']);
    expect(r.status).toBe(1);
  });

  it('--fail-on warning and note tighten the exit code', () => {
    const dir = path.join(FIXTURES, 'gitlab-ci');
    expect(scan([], dir).status).toBe(0);
    expect(scan(['--fail-on', 'warning'], dir).status).toBe(0);
    expect(scan(['--fail-on', 'note'], dir).status).toBe(1);
    expect(scan(['--fail-on', 'warning'], path.join(FIXTURES, 'package-json')).status).toBe(1);
  });

  it("the repository's own rules: untrusted they only tighten; trusted, their allow counts", () => {
    const repo = path.join(home, 'repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.mkdirSync(path.join(repo, '.buckler', 'rules.d'), { recursive: true });
    fs.writeFileSync(
      path.join(repo, '.buckler', 'rules.d', 'team.yaml'),
      'pack: team\nrules:\n  - id: no-apply\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: terraform, subcommand: apply }] }\n    action: deny\n' +
        '  - id: publish-ok\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: npm, subcommand: publish }] }\n    action: allow\n    priority: 5000\n',
    );
    fs.writeFileSync(path.join(repo, 'package.json'), '{\n  "scripts": {\n    "infra": "terraform apply",\n    "plan": "terraform plan",\n    "ship": "npm publish"\n  }\n}\n');
    const untrusted = scan([], repo);
    expect(findings(untrusted)).toEqual(['package.json:3:15 error team/no-apply', 'package.json:5:14 warning agent-publish/publish']);
    expect(untrusted.stderr).toMatch(/ignored until you trust/);
    expect(buckler(['trust'], { cwd: repo, env: homeEnv(home) }).status).toBe(0);
    expect(findings(scan([], repo))).toEqual(['package.json:3:15 error team/no-apply']);
  });

  it.each([
    [['no-such-dir'], /^buckler scan: cannot read no-such-dir \(ENOENT\)\n$/],
    [['a', 'b'], /^buckler scan: give one directory \(or file\) to scan, not 2 \(see 'buckler scan --help'\)\n$/],
    [['--format', 'xml'], /^buckler scan: --format must be text or sarif, not 'xml'/],
    [['--fail-on', 'info'], /^buckler scan: --fail-on must be error, warning or note, not 'info'/],
    [['--packs', 'agent-nope'], /^buckler scan: --packs: no pack 'agent-nope' is loaded here/],
    [['--tier', 'strickt'], /^buckler scan: --tier must be one of/],
    [['--frobnicate'], /^buckler scan: unknown option '--frobnicate'/],
    [['README.md'], /^buckler scan: README.md is not a file the scan reads/],
  ])('usage error %j: exit 2, one line', (args, message) => {
    const r = scan(args, FIXTURES);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.status).toBe(2);
  });

  it.each([
    ['package.json', '{ "scripts": ', /^buckler scan: cannot read package\.json is not a JSON object/],
    ['.gitlab-ci.yml', 'build:\n  script: [unclosed\n', /^buckler scan: cannot read \.gitlab-ci\.yml:\d+: not valid YAML/],
    ['big.sh', `#!/bin/sh\n${'echo x\n'.repeat(200_000)}`, /^buckler scan: cannot read big\.sh \(.*larger than 1048576 bytes\)/],
  ])('unreadable input %s: exit 2, one line', (name, text, message) => {
    const dir = fs.mkdtempSync(path.join(home, 'bad-'));
    fs.writeFileSync(path.join(dir, name), text);
    const r = scan([], dir);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.status).toBe(2);
  });
});
