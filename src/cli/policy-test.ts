/**
 * `buckler test FILE…`: policy tests for people who keep their policy in a repository. Each
 * YAML file holds `cases:`, each a command line or a harness event with the decision (and
 * optionally the rule) it must get, decided exactly as a hook decides it. Where the case stands
 * (cwd, home, project) is fixed by the case, never taken from the machine, so a case decides the
 * same on a laptop and in CI. Exit 0 all pass, 1 a case failed (each failure shown as expected
 * against got), 2 a file or an argument is wrong. Format: docs/testing-policy.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAdapter, HARNESS_NAMES } from '../adapters/registry.ts';
import { DECISIONS, POLICY_IO_VERSION, PolicyError, TRIGGERS, type Decision, type PolicyInput, type Trigger } from '../core/contract.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { evaluate } from '../core/evaluate.ts';
import { TIERS, type CompiledPolicy, type Tier } from '../core/policy.ts';
import { displayCommand } from '../core/render.ts';
import { lineFor, type LineMap } from '../packs/problems.ts';
import { projectRulesDir } from '../packs/project-rules.ts';
import { loadPolicyReport, type RuntimeOptions } from '../packs/runtime.ts';
import { parseCommand, type Parsed } from './args.ts';
import { junitXml, type CaseResult } from './policy-test-report.ts';
import { showHelp } from './show-help.ts';
import type { CliIO } from './io.ts';
import { processPaths, processUid } from './process-paths.ts';
import { gitTopLevel } from './action-context.ts';
import { projectOf, rulesProject } from './project.ts';

/** Where a case stands unless it says otherwise (the same as rule examples'). */
export const CASE_HOME = '/home/dev';
export const CASE_PROJECT = '/home/dev/project';

const CASE_KEYS = ['name', 'command', 'event', 'driver', 'trigger', 'tool', 'tier', 'cwd', 'home', 'project', 'env', 'decision', 'rule'];

interface Case {
  name: string;
  line: number | undefined;
  input: PolicyInput;
  tier: Tier | null;
  decision: Decision;
  /** undefined: any rule; null: no rule may decide. */
  rule: string | null | undefined;
  /** The project whose `.buckler/rules.d` loads for the case, found as a hook finds it. */
  project: string | undefined;
}

/** Where cases stand when they do not say: the fixed project, or a real one (`--project`). */
interface Standing {
  project: string;
  /** A real project directory: cases standing in it by default load its rules. */
  real: boolean;
}

class CaseError extends Error {}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('test', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('test', io);
  const { values, operands: positionals } = parsed;
  if (positionals.length === 0) {
    io.err(`buckler test: give one or more case files, e.g. buckler test policy-tests.yaml (see 'buckler test --help')\n`);
    return 2;
  }
  const given = values.project as string | undefined;
  if (given === '') {
    io.err(`buckler test: --project needs a directory (see 'buckler test --help')\n`);
    return 2;
  }
  const standing = defaultStanding(given === undefined ? undefined : path.resolve(io.cwd, given), io);
  const files = await readCaseFiles(positionals, standing, io);
  if (files === null) return 2;

  const json = values.json === true;
  const junit = values.junit as string | undefined;
  if (junit === '') {
    io.err(`buckler test: --junit needs a file (see 'buckler test --help')\n`);
    return 2;
  }
  // What the run says about where project rules come from: a line of the text, a note of the JSON.
  const notes: string[] = [];
  const policyFor = policyCache(values, io, (line) => (json ? notes.push(line) : io.out(`${line}\n`)));

  const results: CaseResult[] = [];
  for (const { file, cases } of files) {
    for (const c of cases) {
      const policy = await policyFor(c.tier, c.project);
      const started = Date.now();
      const out = evaluate(c.input, policy);
      const ok = out.decision === c.decision && (c.rule === undefined || out.rule === c.rule);
      const where = `${file}${c.line !== undefined ? `:${c.line}` : ''}`;
      let why: string | undefined;
      if (!ok && c.input.shell) {
        const at = c.project !== undefined ? ` --project ${shellArg(c.project)} --cwd ${shellArg(c.input.shell.cwd ?? c.project)}` : '';
        // The same policy as the cases': the directories and config this run was given.
        const dirs = (['packs-dir', 'rules-dir', 'config'] as const).map((k) => (typeof values[k] === 'string' ? ` --${k} ${shellArg(path.resolve(io.cwd, values[k]))}` : '')).join('');
        why = `buckler explain${c.tier ? ` --tier ${c.tier}` : ''}${dirs}${at} ${shellArg(c.input.shell.command)}`;
      }
      const result: CaseResult = { file, line: c.line ?? null, name: c.name, ok, expected: { decision: c.decision, ...(c.rule === undefined ? {} : { rule: c.rule }) }, got: { decision: out.decision, rule: out.rule }, ms: Date.now() - started, ...(why === undefined ? {} : { why }) };
      results.push(result);
      if (json) continue;
      if (ok) {
        io.out(`ok    ${where}  ${c.name}\n`);
        continue;
      }
      const want = `${c.decision}${c.rule === undefined ? '' : `  ${c.rule ?? '(no rule)'}`}`;
      const got = `${out.decision}${c.rule === undefined ? '' : `  ${out.rule ?? '(no rule)'}`}`;
      const lines = [`FAIL  ${where}  ${c.name}`, `  - expected  ${want}`, `  + got       ${got}`];
      if (why !== undefined) lines.push(`  why: ${why}`);
      io.out(`${lines.join('\n')}\n`);
    }
  }
  const total = results.length;
  const failed = results.filter((r) => !r.ok).length;
  if (junit !== undefined) {
    const target = path.resolve(io.cwd, junit);
    try {
      writeFileAtomic(target, junitXml(results, [...new Set(files.map((f) => f.file))]));
    } catch (e) {
      io.err(`buckler test: cannot write ${junit} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
      return 2;
    }
  }
  if (json) io.out(`${JSON.stringify({ ok: failed === 0, total, failed, cases: results, ...(notes.length > 0 ? { notes } : {}) })}\n`);
  else io.out(`${failed === 0 ? 'ok' : 'failed'}: ${total} case${total === 1 ? '' : 's'}, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

/** Every case file, read; null after a one-line error. */
async function readCaseFiles(names: string[], standing: Standing, io: CliIO): Promise<Array<{ file: string; cases: Case[] }> | null> {
  const { parseYaml, YamlSyntaxError } = await import('../packs/yaml.ts');
  const files: Array<{ file: string; cases: Case[] }> = [];
  for (const f of names) {
    const file = path.resolve(io.cwd, f);
    try {
      const text = fs.readFileSync(file, 'utf8');
      const { doc, lines } = parseYaml(text, file);
      files.push({ file: f, cases: readCases(doc, lines, path.dirname(file), standing) });
    } catch (e) {
      const where = e instanceof YamlSyntaxError && e.line !== undefined ? `${f}:${e.line}` : f;
      if (e instanceof CaseError || e instanceof YamlSyntaxError) io.err(`buckler test: ${where}: ${e.message}\n`);
      else io.err(`buckler test: cannot read ${f} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
      return null;
    }
  }
  return files;
}

/** The policy for each tier and project the cases stand in, loaded once each. */
function policyCache(values: Parsed['values'], io: CliIO, note: (line: string) => void): (tier: Tier | null, project: string | undefined) => Promise<CompiledPolicy> {
  const opts: RuntimeOptions = { examples: false, uid: processUid() };
  const trust = values['trust-project'] === true ? 'trusted' : 'untrusted';
  for (const [key, name] of [['packsDir', 'packs-dir'], ['rulesDir', 'rules-dir'], ['configFile', 'config']] as const) {
    const v = values[name] as string | undefined;
    if (v !== undefined) opts[key] = path.resolve(io.cwd, v);
  }
  const policies = new Map<string, CompiledPolicy>();
  const warned = new Set<string>();
  const described = new Set<string>();
  return async (tier: Tier | null, project: string | undefined): Promise<CompiledPolicy> => {
    const key = `${tier ?? 'config'}\0${project ?? ''}`;
    let p = policies.get(key);
    if (!p) {
      // A case's project: its rules as a hook there loads them, with the trust fixed for this
      // run (untrusted unless --trust-project), never read from nor written to the trust store.
      const report = await loadPolicyReport(processPaths(io.env), { ...opts, ...(tier ? { tier } : {}), ...(project !== undefined ? { project, projectTrust: trust } : {}) });
      for (const w of report.warnings) {
        if (!warned.has(w)) io.err(`buckler: ${w}\n`);
        warned.add(w);
      }
      const state = report.sources.find((s) => s.source === 'project')?.project;
      if (state !== undefined && !described.has(state.root)) {
        described.add(state.root);
        note(
          `project rules: ${projectRulesDir(state.root)}: ${state.trusted ? 'taken as trusted for this run (--trust-project): they count like your own rules' : "untrusted, as on a fresh clone: deny/ask/nudge rules can only tighten, allow rules and programs: are ignored (--trust-project tests them as trusted)"}`,
        );
      }
      policies.set(key, (p = report.policy));
    }
    return p;
  };
}

const shellArg = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Where cases stand by default: `--project DIR`; else the current directory's project when it
 * has project rules (a repository testing its own rules); else the fixed, machine-independent
 * CASE_PROJECT.
 */
function defaultStanding(given: string | undefined, io: CliIO): Standing {
  if (given !== undefined) return { project: given, real: true };
  const here = projectOf(io.cwd, io.env);
  if (here !== undefined && hasRulesDir(here)) return { project: here, real: true };
  return { project: CASE_PROJECT, real: false };
}

function within(dir: string, root: string): boolean {
  const r = path.relative(root, dir);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

function hookProject(cwd: string, home: string): string {
  const top = gitTopLevel(cwd);
  return top !== null && !within(home, top) ? top : cwd;
}

/** `.buckler` or its rules.d is there (a link in its place too: the loader refuses it, loudly). */
function hasRulesDir(root: string): boolean {
  try {
    return fs.lstatSync(path.join(root, '.buckler'), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/** A case's PolicyInput: its command line, or its harness event as that harness's adapter reads it. */
function caseInput(command: string | undefined, event: unknown, str: (k: string) => string | undefined, fail: (key: string | undefined, message: string) => never): PolicyInput {
  let input: PolicyInput;
  if (command !== undefined) {
    const trigger = str('trigger') ?? 'pre_shell_exec';
    if (!(TRIGGERS as readonly string[]).includes(trigger)) return fail('trigger', `"trigger" must be one of ${TRIGGERS.join(', ')}`);
    if (str('driver') !== undefined) fail('driver', '"driver" goes with an "event"');
    input = { policy_io_version: POLICY_IO_VERSION, trigger: trigger as Trigger, harness: 'test', shell: { command } };
  } else {
    const name = str('driver');
    const adapter = name !== undefined ? getAdapter(name) : undefined;
    if (!adapter) return fail('driver', `an "event" needs "driver": one of ${HARNESS_NAMES.join(', ')}`);
    if (str('trigger') !== undefined) fail('trigger', 'an event says its own trigger');
    try {
      input = adapter.adaptInput(event);
    } catch (e) {
      if (e instanceof PolicyError) return fail('event', `the ${name} event cannot be read: ${e.message}`);
      throw e;
    }
  }
  return input;
}

function readCases(doc: unknown, lines: LineMap | undefined, base: string, standing: Standing): Case[] {
  const fail = (p: (string | number)[], message: string): never => {
    const line = lineFor(lines, p);
    throw new CaseError(line !== undefined && p.length > 0 ? `line ${line}: ${message}` : message);
  };
  if (!isObject(doc) || !Array.isArray(doc['cases'])) return fail([], 'a case file is a mapping with a "cases" list');
  for (const k of Object.keys(doc)) if (k !== 'cases') fail([k], `unknown field "${k}" (known: cases)`);
  return (doc['cases'] as unknown[]).map((raw, i): Case => {
    const at = (...p: (string | number)[]): (string | number)[] => ['cases', i, ...p];
    if (!isObject(raw)) return fail(at(), 'a case must be a mapping');
    for (const k of Object.keys(raw)) if (!CASE_KEYS.includes(k)) fail(at(k), `unknown case field "${k}" (known: ${CASE_KEYS.join(', ')})`);
    const str = (k: string): string | undefined => {
      const v = raw[k];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string' || v === '') return fail(at(k), `"${k}" must be a non-empty string`);
      return v;
    };
    const decision = str('decision');
    if (decision === undefined || !(DECISIONS as readonly string[]).includes(decision)) return fail(at('decision'), `"decision" is required: one of ${DECISIONS.join(', ')}`);
    const rule = raw['rule'] === null ? null : str('rule');
    const tier = str('tier');
    if (tier !== undefined && !(TIERS as readonly string[]).includes(tier)) return fail(at('tier'), `"tier" must be one of ${TIERS.join(', ')}`);
    const command = str('command');
    const event = raw['event'];
    if ((command === undefined) === (event === undefined)) return fail(at(), 'a case has a "command" or an "event" (a harness event), not both');

    const input = caseInput(command, event, str, (k, m) => fail(at(...(k === undefined ? [] : [k])), m));
    const tool = str('tool');
    if (tool !== undefined) input.tool = { ...input.tool, name: tool };
    const env = raw['env'];
    if (env !== undefined && env !== null) {
      if (!isObject(env) || !Object.values(env).every((v) => typeof v === 'string')) return fail(at('env'), '"env" must map variable names to strings');
      input.env = { ...(env as Record<string, string>) };
    }
    // Where the case stands: what it says (a relative cwd or project is relative to the case
    // file's directory), else a fixed home and project (never this machine's), or the project
    // of --project or of the current directory when that has project rules.
    const rel = (k: string): string | undefined => {
      const v = str(k);
      return v === undefined || path.isAbsolute(v) ? v : path.resolve(base, v);
    };
    const home = str('home') ?? input.context?.home ?? CASE_HOME;
    if (!home.startsWith('/')) fail(at('home'), '"home" must be an absolute path');
    const said = raw['project'] !== undefined || raw['cwd'] !== undefined || raw['home'] !== undefined || input.shell?.cwd !== undefined || input.context?.cwd !== undefined;
    const fallback = !said && standing.real ? standing.project : raw['home'] !== undefined ? `${home}/project` : CASE_PROJECT;
    const givenCwd = rel('cwd');
    // A cwd outside the default project, with no project: the project a hook would find there
    // (the git top-level above it, not at or above home; else the cwd itself).
    const someCwd = givenCwd ?? input.shell?.cwd ?? input.context?.cwd;
    const workspace = someCwd === undefined ? undefined : (input.session?.workspace_roots ?? []).find((r) => path.isAbsolute(r) && within(someCwd, r));
    const fromCwd = someCwd !== undefined && path.isAbsolute(someCwd) && !within(someCwd, fallback) ? (workspace ?? hookProject(someCwd, home)) : undefined;
    const project = rel('project') ?? input.context?.project_roots?.[0] ?? fromCwd ?? fallback;
    const cwd = someCwd ?? project;
    for (const [k, v] of [['project', project], ['cwd', cwd]] as const) {
      if (!v.startsWith('/')) fail(at(k), `"${k}" must be an absolute path or relative to the case file`);
    }
    input.context = { ...input.context, cwd, home, project_roots: [project] };
    if (input.shell) input.shell = { ...input.shell, cwd };
    // The project whose .buckler/rules.d loads: as a hook finds it from this context; none for
    // the fixed default place (it stands for no machine's directory). A project without a rules
    // directory shares the policy of every other.
    const found = !said && !standing.real ? undefined : rulesProject(input.context);
    const rulesAt = found !== undefined && hasRulesDir(found) ? found : undefined;
    const label = str('name') ?? (command !== undefined ? displayCommand([command]).replace(/^'|'$/g, '') : `${str('driver')} event`);
    return { name: label, line: lineFor(lines, at()), input, tier: (tier as Tier | undefined) ?? null, decision: decision as Decision, rule, project: rulesAt };
  });
}
