/**
 * `buckler explain "<command>" | -i FILE [--driver NAME]`: why a line gets its decision. The
 * line as analysed (each simple command, its argv, the wrappers it was found through, how its
 * program's reader read it), then for each command every rule that could apply, in precedence
 * order, with the condition that held or failed and whether the rule is in force (tier, pack),
 * and how the line's decision follows. `--json` prints the Explanation
 * (docs/contracts/explain.schema.json). Exit codes as `check`: 0 allow/nudge, 1 deny/ask, 2 error.
 *
 * Decide (core evaluate), trace (core explain.ts), render (here).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAdapter, adapterForPayload, DEFAULT_DRIVER, HARNESS_NAMES } from '../adapters/registry.ts';
import { POLICY_IO_VERSION, PolicyError, TRIGGERS, type Decision, type PolicyInput, type Trigger } from '../core/contract.ts';
import { explain, type ConditionTrace, type Explanation, type RuleTrace } from '../core/explain.ts';
import { parsePolicyInput } from '../core/input.ts';
import { displayCommand } from '../core/render.ts';
import { formatProblem } from '../packs/problems.ts';
import { loadPolicyReport, type RuntimeOptions } from '../packs/runtime.ts';
import { rulesProject } from './project.ts';
import { packageRoot } from '../paths.ts';
import { checkTier } from './evaluate.ts';
import { parseCommand } from './args.ts';
import { showHelp } from './show-help.ts';
import { gitAliasReader } from './git-config.ts';
import { targetReader } from './target-reader.ts';
import type { CliIO } from './io.ts';
import { policyOptions, processPaths } from './process-paths.ts';
import { scriptReader } from './script-reader.ts';
import { placeInput, whereOf, withPolicyEnv } from './command-input.ts';

const COLOURS: Record<Decision, string> = { allow: '32', nudge: '36', ask: '33', deny: '31' };

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('explain', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('explain', io);
  const { values, operands: positionals } = parsed;
  const tier = checkTier('explain', values.tier as string | undefined, io);
  if (tier === null) return 2;
  const fail = (message: string): number => {
    io.err(`buckler explain: ${message}\n`);
    return 2;
  };
  const inputFile = values.input as string | undefined;
  if (inputFile !== undefined && positionals.length > 0) return fail('give a command line or -i FILE, not both');
  if (inputFile === undefined && positionals.length === 0) return fail(`give the command line to explain, e.g. buckler explain git push --force (see 'buckler explain --help')`);

  let input: PolicyInput;
  if (inputFile !== undefined) {
    const got = readEvent(inputFile, values.driver as string | undefined, io);
    if (typeof got === 'string') return fail(got);
    input = got;
  } else {
    const trigger = (values.trigger as string | undefined) ?? 'pre_shell_exec';
    if (!(TRIGGERS as readonly string[]).includes(trigger)) return fail(`--trigger must be one of ${TRIGGERS.join(', ')}, not '${trigger}'`);
    input = { policy_io_version: POLICY_IO_VERSION, trigger: trigger as Trigger, harness: 'cli', shell: { command: positionals.join(' '), cwd: (values.cwd as string | undefined) ?? io.cwd } };
  }
  // Where the command stands: --home / --project / --cwd, else as a hook would see it.
  const where = whereOf(values);
  if (typeof where === 'string') return fail(where);
  input = placeInput(input, where, io);

  // As the hook loads it: in the locked-down install, with the person's layers (policyOptions).
  const opts: RuntimeOptions = { ...policyOptions(io.env), examples: false };
  if (tier) opts.tier = tier;
  // The policy `buckler test` and `validate` were given: its hint explains the same one.
  for (const [key, name] of [['packsDir', 'packs-dir'], ['rulesDir', 'rules-dir'], ['configFile', 'config']] as const) {
    const v = values[name] as string | undefined;
    if (v !== undefined) opts[key] = path.resolve(io.cwd, v);
  }
  const project = rulesProject(input.context);
  if (project !== undefined) opts.project = project;
  const report = await loadPolicyReport(processPaths(io.env), opts);
  for (const w of report.warnings) io.err(`buckler: ${w}\n`);
  input = withPolicyEnv(input, report.policy.env_keys, io);
  const cwd = input.shell?.cwd ?? io.cwd;
  const origins = new Map(report.sources.flatMap((s) => s.packs.map((p) => [p.pack.file, p.origin] as const)));
  const known = report.known.map((k) => {
    const origin = k.source !== undefined ? origins.get(k.source) : undefined;
    return origin !== undefined ? { ...k, origin } : k;
  });
  const result: Explanation = explain(input, report.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env), readTarget: targetReader(cwd, io.env), known, paths: true });
  const projectSrc = report.sources.find((s) => s.source === 'project');
  if (projectSrc?.project !== undefined) {
    const inDir = (f: string | undefined): boolean => f !== undefined && (f === projectSrc.dir || f.startsWith(projectSrc.dir + path.sep));
    const mine = report.known.filter((k) => inDir(k.source));
    result.project = {
      root: projectSrc.project.root,
      rules_dir: projectSrc.dir,
      trusted: projectSrc.project.trusted,
      changed: projectSrc.project.changed,
      loaded: mine.filter((k) => k.state !== 'skipped_trust').map((k) => k.rule.id),
      ignored: mine.filter((k) => k.state === 'skipped_trust').map((k) => k.rule.id),
      refused: report.problems.filter((p) => p.dropped === true && inDir(p.file)).map((p) => formatProblem(p)),
    };
  }

  if (values.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const how = { colour: io.stdoutIsTTY && !io.env['NO_COLOR'], displayFile: (f: string) => display(f, io.cwd) };
    io.out(values.all === true ? render(result, how.colour, how.displayFile) : renderShort(result, how.colour, how.displayFile));
  }
  return result.decision === 'deny' || result.decision === 'ask' ? 1 : 0;
}

/** A native harness event (or a PolicyInput) → PolicyInput, as the hook driver reads it; a string is what went wrong. */
function readEvent(file: string, driver: string | undefined, io: CliIO): PolicyInput | string {
  let text: string;
  try {
    text = file === '-' ? io.readStdin().toString('utf8') : fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    return `cannot read ${file === '-' ? 'stdin' : file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (e) {
    return `bad_json: the event is not valid JSON (${(e as Error).message.split('\n')[0]})`;
  }
  try {
    if (driver === undefined && typeof raw === 'object' && raw !== null && 'policy_io_version' in raw) return parsePolicyInput(raw);
    const adapter = driver !== undefined ? getAdapter(driver) : (adapterForPayload(text) ?? getAdapter(DEFAULT_DRIVER));
    if (!adapter) return `unknown driver '${driver}' (known: ${HARNESS_NAMES.join(', ')})`;
    return adapter.adaptInput(raw);
  } catch (e) {
    if (e instanceof PolicyError) return `${e.code}: ${e.message}`;
    throw e;
  }
}

/** A pack file relative to the working directory, else to Buckler's own directory (builtin packs), else as is. */
function display(file: string, cwd: string): string {
  for (const base of [cwd, packageRoot()]) {
    const rel = path.relative(base, file);
    if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  }
  return file;
}

/** A failed condition of these says the rule is about another command altogether. */
const ANOTHER_COMMAND = new Set(['program', 'opaque', 'subcommand', 'subcommand_dynamic']);

/** How many nearly matching rules the short explanation names per command. */
const NEARLY_SHOWN = 5;

/**
 * The failed conditions of a rule that did not match, when it nearly did: a `shell_segments`
 * entry whose program held and exactly one other condition failed; null otherwise.
 */
export function nearMiss(r: RuleTrace): ConditionTrace[] | null {
  if (r.outcome !== 'no_match' || r.segments === null) return null;
  const context = r.context.filter((c) => !c.held);
  for (const s of r.segments) {
    const failed = [...s.conditions.filter((c) => !c.held), ...context];
    const heldOther = s.conditions.some((c) => c.held && c.condition !== 'program' && c.condition !== 'opaque' && c.condition !== 'not');
    // One condition short, on the same command: not another subcommand, not a path it never touches.
    const f = failed[0];
    if (failed.length === 1 && heldOther && !ANOTHER_COMMAND.has(f!.condition) && !(f!.condition === 'paths' && f!.saw.length === 0)) return failed;
  }
  return null;
}

/** How a command was read: its program, subcommand, options and operands. */
function readText(read: { program: string; subcommand: readonly string[]; flags: readonly string[]; positionals: readonly string[] }): string {
  const parts = [`program ${read.program}`];
  if (read.subcommand.length > 0) parts.push(`subcommand ${read.subcommand.join(' ')}`);
  parts.push(read.flags.length > 0 ? `options ${read.flags.join(' ')}` : 'no options');
  if (read.positionals.length > 0) parts.push(`operands ${read.positionals.join(' ')}`);
  return parts.join(', ');
}

/** The colours of a rendering (none when `colour` is false). */
function painter(colour: boolean) {
  const sgr = (code: string, text: string): string => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  return {
    sgr,
    paint: (d: Decision, text: string): string => sgr(`1;${COLOURS[d]}`, text),
    dim: (text: string): string => sgr('2', text),
    mark: (held: boolean): string => (held ? sgr('32', '✓') : sgr('31', '✗')),
  };
}

/** The lines both renderings start with: the decision, what was judged, an error, the project's rules. */
function headLines(x: Explanation, { sgr, paint, dim }: ReturnType<typeof painter>, displayFile: (f: string) => string): string[] {
  const lines = [`${paint(x.decision, x.decision.toUpperCase())}${x.rule ? `  ${x.rule}` : ''}`, `  ${x.summary}`];
  const what = x.command !== null ? `line: ${x.command}` : x.tool !== null ? `tool: ${x.tool}` : 'event';
  lines.push(dim(`  ${what}  (trigger ${x.trigger}, harness ${x.harness ?? 'unknown'}, tier ${x.tier})`));
  if (x.error) lines.push(`  ${sgr('31', 'error')}: ${x.error.code}: ${x.error.message}`);
  if (x.project) {
    const p = x.project;
    const state = p.trusted ? 'trusted' : `untrusted${p.changed ? ' (changed since trusted)' : ''}: they can only tighten`;
    lines.push(`  project rules  ${displayFile(p.rules_dir)}: ${state}; ${p.loaded.length} loaded${p.ignored.length > 0 ? `, ${p.ignored.length} ignored for want of trust (${p.ignored.join(', ')})` : ''}`);
    for (const r of p.refused) lines.push(`  ${sgr('31', 'refused')}: ${r}`);
  }
  return lines;
}

/**
 * The short explanation (the default): the line's decision, each command as read, the rule that
 * decides it with its conditions, the rules that also match, the rules that nearly matched (one
 * condition short, or not in force) and why, and how many more were looked at. `--all` prints
 * `render`'s full trace.
 */
export function renderShort(x: Explanation, colour: boolean, displayFile: (f: string) => string = (f) => f): string {
  const colours = painter(colour);
  const { sgr, paint, dim, mark } = colours;
  const lines = headLines(x, colours, displayFile);
  const head = (r: RuleTrace): string => {
    const from = r.source ? `, ${displayFile(r.source)}` : '';
    return `${paint(r.action, r.action)} ${r.rule} ${dim(`(priority ${r.priority}, ${r.tier}${from})`)}`;
  };
  const one = (c: ConditionTrace): string => {
    const full = Array.isArray(c.expected) ? (c.expected.length === 1 ? c.expected[0]! : `[${c.expected.join(',')}]`) : '';
    const expected = full.length > 60 ? `${full.slice(0, 57)}…` : full;
    const saw = !c.held && c.saw.length > 0 ? ` (saw ${c.saw.join(', ')})` : '';
    return `${c.condition}${expected ? ` ${expected}` : ''} ${mark(c.held)}${saw}`;
  };
  const ruleSet = (rules: readonly RuleTrace[]): void => {
    const decides = rules.find((r) => r.outcome === 'decides');
    if (decides) {
      lines.push(`  decides       ${head(decides)}`);
      for (const c of conditionsText(decides, mark)) lines.push(`                ${c}`);
    } else lines.push(`  decides       ${dim('no rule matches: what no rule matches is allowed')}`);
    for (const r of rules.filter((r) => r.outcome === 'outranked')) lines.push(`  also matches  ${head(r)}: ${outcomeText(r, x.tier)}`);
    const nearly: string[] = [];
    for (const r of rules) {
      if (r.outcome === 'skipped' && r.matched) nearly.push(`${head(r)}: ${outcomeText(r, x.tier)}`);
      else {
        const miss = nearMiss(r);
        if (miss) nearly.push(`${head(r)}: only ${miss.map(one).join(', ')}`);
      }
    }
    nearly.slice(0, NEARLY_SHOWN).forEach((n, i) => lines.push(`  ${i === 0 ? 'nearly' : '      '}        ${n}`));
    const shown = (decides ? 1 : 0) + rules.filter((r) => r.outcome === 'outranked').length + Math.min(nearly.length, NEARLY_SHOWN);
    const rest = rules.length - shown;
    if (rest > 0) lines.push(dim(`  + ${rest} more rule${rest === 1 ? '' : 's'} looked at it and did not apply (--all shows each)`));
  };
  x.commands.forEach((c, i) => {
    lines.push('');
    const tag = c.decisive && c.rule !== null && x.commands.length > 1 ? `  ${dim('← decides the line')}` : '';
    lines.push(`${sgr('1', `command ${i + 1}`)}  ${displayCommand(c.argv, c.dynamic)}  ${paint(c.decision, c.decision)}${tag}`);
    if (c.via.length > 0) lines.push(`  via           ${c.via.join(' › ')}`);
    if (c.opaque) lines.push(`  program known only at run time${c.unseen ? ` (${c.unseen === 'runtime' ? 'its text is made at run time' : 'a script that could not be read'})` : ''}`);
    if (c.read) lines.push(`  read          ${readText(c.read)}`);
    ruleSet(c.rules);
  });
  if (x.commands.length === 0 && x.context_rules.length > 0) {
    lines.push('', sgr('1', 'rules that look at no command'));
    ruleSet(x.context_rules);
  }
  lines.push('');
  return lines.join('\n');
}

/** The full trace (`--all`): every rule that could apply, condition by condition. Colour only on a TTY (and never with NO_COLOR). */
export function render(x: Explanation, colour: boolean, displayFile: (f: string) => string = (f) => f): string {
  const colours = painter(colour);
  const { sgr, paint, dim, mark } = colours;
  const lines = headLines(x, colours, displayFile);

  const ruleLines = (rules: readonly RuleTrace[], indent: string): void => {
    if (rules.length === 0) {
      lines.push(`${indent}${dim('no rule for this trigger looks at this program')}`);
      return;
    }
    for (const r of rules) {
      const head = `${r.outcome === 'skipped' ? dim('–') : mark(r.matched)} ${paint(r.action, r.action.padEnd(5))} ${r.rule}`;
      const from = r.source ? `${displayFile(r.source)}${r.origin && r.origin !== 'builtin' ? ` [${r.origin}]` : ''}` : null;
      const meta = [`priority ${r.priority}`, r.tier, ...(from ? [from] : [])].join(', ');
      lines.push(`${indent}${head}  ${dim(`(${meta})`)}  ${outcomeText(r, x.tier)}`);
      const conds = conditionsText(r, mark);
      for (const c of conds) lines.push(`${indent}    ${c}`);
    }
  };

  x.commands.forEach((c, i) => {
    lines.push('');
    const tag = c.decisive && c.rule !== null && x.commands.length > 1 ? `  ${dim('← decides the line')}` : '';
    lines.push(`${sgr('1', `command ${i + 1}`)}  ${displayCommand(c.argv, c.dynamic)}  ${paint(c.decision, c.decision)}${c.rule ? ` ${dim(c.rule)}` : ''}${tag}`);
    if (c.via.length > 0) lines.push(`  via     ${c.via.join(' › ')}`);
    if (c.opaque) lines.push(`  program known only at run time${c.unseen ? ` (${c.unseen === 'runtime' ? 'its text is made at run time' : 'a script that could not be read'})` : ''}`);
    if (c.read) lines.push(`  read    ${readText(c.read)}`);
    lines.push(`  rules   ${dim('in precedence order: priority, then deny > ask > nudge > allow, then load order')}`);
    ruleLines(c.rules, '    ');
  });
  if (x.commands.length === 0 && x.context_rules.length > 0) {
    lines.push('', sgr('1', 'rules that look at no command'));
    ruleLines(x.context_rules, '    ');
  }
  lines.push('');
  return lines.join('\n');
}

function outcomeText(r: RuleTrace, tier: string): string {
  switch (r.outcome) {
    case 'decides':
      return 'decides';
    case 'outranked':
      return r.tighten ? 'matches, but can only tighten: another rule decides at least as severely' : 'matches, outranked';
    case 'no_match':
      return 'no match';
    case 'skipped':
      if (r.state === 'skipped_trust') return `ignored: an allow rule of untrusted project rules (buckler trust)${r.matched ? ', would match' : ''}`;
      return r.state === 'skipped_tier'
        ? `skipped: tier ${r.tier} (the tier is ${tier})${r.matched ? ', would match' : ''}`
        : `skipped: pack ${r.pack} is switched off in config.toml${r.matched ? ', would match' : ''}`;
  }
}

function conditionsText(r: RuleTrace, mark: (held: boolean) => string): string[] {
  const one = (c: ConditionTrace): string => {
    const expected = Array.isArray(c.expected) ? (c.expected.length === 1 ? c.expected[0]! : `[${c.expected.join(',')}]`) : '';
    const saw = !c.held && c.condition !== 'program' ? ` (saw ${c.saw.length > 0 ? c.saw.join(', ') : 'none'})` : '';
    return `${c.condition}${expected ? ` ${expected}` : ''} ${mark(c.held)}${saw}`;
  };
  const out: string[] = [];
  const ctx = r.context.map(one);
  if (r.segments === null) out.push(ctx.length > 0 ? ctx.join(', ') : 'looks at no command: applies to every command of the trigger');
  else {
    for (const s of r.segments) {
      const label = r.segments.length > 1 ? `[${s.index}] ` : '';
      out.push(`${label}${[...s.conditions.map(one), ...ctx].join(', ') || 'no condition'}`);
    }
  }
  return out;
}
