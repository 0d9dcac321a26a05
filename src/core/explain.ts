/**
 * `explain`: why a line got its decision. Decide, then trace, then render (the renderer is in
 * the CLI): the line is decided by `evaluate` exactly as a hook decides it, and only afterwards,
 * from the commands it judged, each rule that could apply to each command is traced condition by
 * condition. Pure, like the rest of the core; the hook path never calls it, so deciding pays
 * nothing for it (evaluate's `onDecided` is absent there).
 *
 * The JSON shape (`Explanation`) is a contract: docs/contracts/explain.schema.json.
 */
import { SEVERITY, type Decision, type PolicyInput, type PolicyOutput } from './contract.ts';
import { evaluate, type EvaluateOptions } from './evaluate.ts';
import type { CommandFacts } from './facts.ts';
import type { Judged } from './messages.ts';
import { pathMatches, segmentMatches } from './match.ts';
import type { CompiledPolicy, CompiledRule, SegmentMatcher, Tier } from './policy.ts';

const EXPLAIN_FORMAT = 1;

/**
 * Why a rule is in force or not: `active`; `skipped_tier` (a strict rule while the tier is
 * baseline); `skipped_pack` (its pack is switched off in config.toml); `skipped_trust` (an
 * `allow` rule of a project whose rules the person has not trusted).
 */
export type RuleState = 'active' | 'skipped_tier' | 'skipped_pack' | 'skipped_trust';

/** A rule known to the loader, in load order, with its state. */
export interface KnownRule {
  rule: CompiledRule;
  state: RuleState;
  /** The file the rule came from. */
  source?: string;
  /** Where its pack came from: `builtin`, `user`, `bundle NAME VERSION` (the loader's sources). */
  origin?: string;
}

export interface ConditionTrace {
  /** `program`, `subcommand`, `flags_any`, …, `tool_name`, `env`. */
  condition: string;
  /** What the rule asks for. */
  expected: string[] | boolean;
  held: boolean;
  /** What the command (or the event) has, for this condition. Never an environment value. */
  saw: string[];
}

export interface SegmentTrace {
  /** Index in the rule's `shell_segments`. */
  index: number;
  matched: boolean;
  conditions: ConditionTrace[];
}

/**
 * `decides`: it matched and gave the command its decision; `outranked`: it matched but another
 * rule takes precedence; `no_match`: a condition failed; `skipped`: not in force (see `state`).
 */
export type RuleOutcome = 'decides' | 'outranked' | 'no_match' | 'skipped';

export interface RuleTrace {
  rule: string;
  pack: string;
  source: string | null;
  origin: string | null;
  action: Decision;
  priority: number;
  tier: Tier;
  state: RuleState;
  /** An untrusted project rule: it can only make the decision more severe (absent: an ordinary rule). */
  tighten?: true;
  /** Whether every condition held (whatever the state). */
  matched: boolean;
  outcome: RuleOutcome;
  /** Conditions that do not depend on the command (`tool_name`, `env`). */
  context: ConditionTrace[];
  /** The `shell_segments` entries that could apply to this program; null: the rule does not look at the command. */
  segments: SegmentTrace[] | null;
}

export interface CommandTrace {
  argv: string[];
  /** Indices of argv words with a run-time part. */
  dynamic: number[];
  /** Wrappers the command was found through, outermost first (`sudo`, `bash -c`, an alias). */
  via: string[];
  /** The program is known only at run time. */
  opaque: boolean;
  /** A script analysis cannot see (`runtime`, `unreadable`). */
  unseen: 'runtime' | 'unreadable' | null;
  /** How the program's reader read the words (null when the program is opaque). */
  read: { program: string; subcommand: string[]; flags: string[]; positionals: string[] } | null;
  decision: Decision;
  rule: string | null;
  /** This command gave the line its decision. */
  decisive: boolean;
  /** Every rule that could apply, in precedence order (priority, then severity, then load order). */
  rules: RuleTrace[];
}

export interface Explanation {
  explain_format: typeof EXPLAIN_FORMAT;
  trigger: string;
  harness: string | null;
  tier: Tier;
  /** The command line as given (null: the event has no shell command). */
  command: string | null;
  tool: string | null;
  decision: Decision;
  rule: string | null;
  bypass: boolean;
  error: { code: string; message: string } | null;
  /** One sentence: how the line's decision follows from its commands'. */
  summary: string;
  commands: CommandTrace[];
  /** Rules that look at no command (only `tool_name`/`env`) when the event has no command. */
  context_rules: RuleTrace[];
  /** The decision exactly as a hook gets it. */
  output: PolicyOutput;
  /** The project whose `.buckler/rules.d` loaded, filled in by the loader's caller (absent: none). */
  project?: {
    root: string;
    rules_dir: string;
    trusted: boolean;
    changed: boolean;
    /** Rule ids in force. */
    loaded: string[];
    /** Rule ids ignored for want of trust. */
    ignored: string[];
    /** Files refused or malformed, one line each. */
    refused: string[];
  };
}

export interface ExplainOptions extends Omit<EvaluateOptions, 'onDecided'> {
  /** Every rule the loader knows, active or not, in load order (default: the policy's rules, all active). */
  known?: readonly KnownRule[];
}

export function explain(input: PolicyInput, policy: CompiledPolicy, options: ExplainOptions = {}): Explanation {
  const { known, ...evalOptions } = options;
  let judged: readonly Judged[] = [];
  let decisive = -1;
  const output = evaluate(input, policy, {
    ...evalOptions,
    onDecided: (j, d) => {
      judged = j;
      decisive = d;
    },
  });
  const rules = (known ?? policy.rules.map((rule) => ({ rule, state: 'active' as const }))).map((k, order) => ({ ...k, order }));
  const forTrigger = rules.filter((k) => k.rule.triggers.includes(input.trigger));

  const commands: CommandTrace[] = [];
  let contextRules: RuleTrace[] = [];
  judged.forEach((j, i) => {
    if (j.facts === null) {
      contextRules = traceRules(forTrigger.filter((k) => k.rule.shell_segments === null), null, j, input);
      return;
    }
    commands.push(traceCommand(j, j.facts, i === decisive, forTrigger, input));
  });

  return {
    explain_format: EXPLAIN_FORMAT,
    trigger: input.trigger,
    harness: input.harness ?? null,
    tier: policy.tier,
    command: input.shell?.command ?? null,
    tool: input.tool?.name ?? null,
    decision: output.decision,
    rule: output.rule,
    bypass: output.bypass === true,
    error: output.error ?? null,
    summary: summary(output, commands),
    commands,
    context_rules: contextRules,
    output,
  };
}

type Ordered = KnownRule & { order: number };

function traceCommand(j: Judged, facts: CommandFacts, decisive: boolean, rules: readonly Ordered[], input: PolicyInput): CommandTrace {
  const { cmd } = facts;
  const applicable = rules.filter((k) => k.rule.shell_segments === null || k.rule.shell_segments.some((m) => segmentApplies(m, facts)));
  const read = facts.opaque
    ? null
    : { program: facts.program, subcommand: [...facts.read.subcommand], flags: [...facts.read.flags].sort(), positionals: [...facts.read.positionals] };
  return {
    argv: [...cmd.argv],
    dynamic: [...cmd.dynamic],
    via: [...cmd.via],
    opaque: cmd.opaque,
    unseen: cmd.unseen ?? null,
    read,
    decision: j.winner?.rule.action ?? 'allow',
    rule: j.winner?.rule.id ?? null,
    decisive,
    rules: traceRules(applicable, facts, j, input),
  };
}

/** Whether a segment's program condition leaves it a chance on this command (else it is not listed). */
function segmentApplies(m: SegmentMatcher, f: CommandFacts): boolean {
  if (!m.program) return true;
  return !f.opaque && m.program.includes(f.program);
}

function traceRules(rules: readonly Ordered[], facts: CommandFacts | null, j: Judged, input: PolicyInput): RuleTrace[] {
  const out = [...rules].sort(precedence).map((k) => traceRule(k, facts, j, input));
  // A rule made during the decision (a pack's guarded words, for a script analysis cannot see).
  const w = j.winner;
  if (w && !rules.some((k) => k.rule.id === w.rule.id)) {
    out.unshift({
      rule: w.rule.id,
      pack: w.rule.pack,
      source: null,
      origin: null,
      action: w.rule.action,
      priority: w.rule.priority,
      tier: w.rule.tier,
      state: 'active',
      matched: true,
      outcome: 'decides',
      context: [],
      segments: null,
    });
  }
  return out;
}

function precedence(a: Ordered, b: Ordered): number {
  // Tighten-only rules never outrank the others: they are listed after them.
  if ((a.rule.tighten === true) !== (b.rule.tighten === true)) return a.rule.tighten ? 1 : -1;
  if (a.rule.priority !== b.rule.priority) return b.rule.priority - a.rule.priority;
  const s = SEVERITY[b.rule.action] - SEVERITY[a.rule.action];
  return s !== 0 ? s : a.order - b.order;
}

function traceRule(k: Ordered, facts: CommandFacts | null, j: Judged, input: PolicyInput): RuleTrace {
  const { rule } = k;
  const context = contextConditions(rule, input);
  let segments: SegmentTrace[] | null = null;
  if (rule.shell_segments !== null) {
    segments = [];
    rule.shell_segments.forEach((m, index) => {
      if (facts === null || !segmentApplies(m, facts)) return;
      const conditions = segmentConditions(m, facts);
      segments!.push({ index, matched: conditions.every((c) => c.held), conditions });
    });
  }
  const matched = context.every((c) => c.held) && (segments === null || segments.some((s) => s.matched));
  let outcome: RuleOutcome;
  if (k.state !== 'active') outcome = 'skipped';
  else if (!matched) outcome = 'no_match';
  else outcome = j.winner?.rule.id === rule.id ? 'decides' : 'outranked';
  const trace: RuleTrace = {
    rule: rule.id,
    pack: rule.pack,
    source: k.source ?? null,
    origin: k.origin ?? null,
    action: rule.action,
    priority: rule.priority,
    tier: rule.tier,
    state: k.state,
    matched,
    outcome,
    context,
    segments,
  };
  if (rule.tighten) trace.tighten = true;
  return trace;
}

function contextConditions(rule: CompiledRule, input: PolicyInput): ConditionTrace[] {
  const out: ConditionTrace[] = [];
  if (rule.tool_name !== null) {
    const tool = input.tool?.name;
    out.push({ condition: 'tool_name', expected: [rule.tool_name], held: tool === rule.tool_name, saw: tool === undefined ? [] : [tool] });
  }
  if (rule.env !== null) {
    for (const [name, value] of Object.entries(rule.env)) {
      const v = input.env?.[name];
      // The value seen is never shown: it may be a secret. Only whether it is set.
      out.push({ condition: 'env', expected: [`${name}=${value}`], held: v === value, saw: [v === undefined ? `${name} unset` : v === value ? `${name}=${value}` : `${name} set to another value`] });
    }
  }
  return out;
}

/** Each condition of one `shell_segments` entry, in the order match.ts tests them. */
function segmentConditions(m: SegmentMatcher, f: CommandFacts): ConditionTrace[] {
  const out: ConditionTrace[] = [];
  const read = f.opaque ? null : f.read;
  const flags = read ? [...read.flags].sort() : [];
  if (m.program) out.push({ condition: 'program', expected: m.program, held: !f.opaque && m.program.includes(f.program), saw: [f.program] });
  if (m.opaque) out.push({ condition: 'opaque', expected: true, held: f.opaque, saw: f.opaque ? ['known only at run time'] : [f.program] });
  if (m.subcommand_dynamic) {
    const held = read !== null && read.subcommand_dynamic;
    out.push({ condition: 'subcommand_dynamic', expected: true, held, saw: held ? ['a run-time word'] : read ? read.subcommand : [] });
  }
  if (m.subcommand) {
    const path = read ? [...read.subcommand, ...read.positionals].slice(0, Math.max(m.subcommand.length, read.subcommand.length)) : [];
    const held = read !== null && m.subcommand.every((w, i) => path[i] === w);
    out.push({ condition: 'subcommand', expected: m.subcommand, held, saw: path });
  }
  if (m.flags_any) out.push({ condition: 'flags_any', expected: m.flags_any, held: m.flags_any.some((x) => read?.flags.has(x) === true), saw: flags });
  if (m.flags_all) out.push({ condition: 'flags_all', expected: m.flags_all, held: m.flags_all.every((x) => read?.flags.has(x) === true), saw: flags });
  for (const c of m.role_marks ?? []) {
    const role = c.mark.slice(0, c.mark.lastIndexOf('.'));
    const expected = c.condition === 'role_marks' ? [c.mark] : true;
    out.push({ condition: c.condition, expected, held: f.read.marks.has(c.mark), saw: read ? [...(read.roles.get(role) ?? [])] : [] });
  }
  if (m.words_any) out.push({ condition: 'words_any', expected: m.words_any, held: m.words_any.some((w) => f.words.has(w)), saw: [...f.words] });
  if (m.paths) {
    const p = m.paths;
    const expected = Object.entries(p).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : String(v)}`);
    const saw = f.paths.map((x) => `${x.access}${x.recursive ? ' (recursive)' : ''} ${x.path ?? x.written} [${x.pseudo ? 'not a file' : x.scope}${x.holdsProject ? ', holds a project' : ''}]`);
    out.push({ condition: 'paths', expected, held: f.paths.some((x) => pathMatches(p, x, f.home, f.locations)), saw });
  }
  // Every other condition, judged by the matcher itself: a trace that left one out would call a
  // rule matched when it is not (`script_from` of `ls -la`).
  for (const [key, value] of Object.entries(m) as [keyof SegmentMatcher, unknown][]) {
    if (value === undefined || TRACED.has(key) || (f.tool && key !== 'not')) continue;
    if (key === 'not') {
      out.push({ condition: 'not', expected: (value as SegmentMatcher[]).map((v) => JSON.stringify(v)), held: !m.not!.some((n) => segmentMatches(n, f)), saw: [] });
      continue;
    }
    const alone = { [key]: value } as SegmentMatcher;
    if ((key === 'positionals_min' || key === 'positionals_any') && m.subcommand !== undefined) alone.subcommand = m.subcommand;
    const expected = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) : typeof value === 'boolean' ? value : [JSON.stringify(value)];
    out.push({ condition: key, expected, held: segmentMatches(alone, f), saw: [] });
  }
  return out;
}

/** The conditions segmentConditions traces by name. */
const TRACED = new Set<string>(['program', 'opaque', 'subcommand_dynamic', 'subcommand', 'flags_any', 'flags_all', 'role_marks', 'words_any', 'paths']);

function summary(out: PolicyOutput, commands: readonly CommandTrace[]): string {
  if (out.bypass) return `${out.decision}: the operator bypass (BUCKLER_BYPASS=1) allows every action before it runs`;
  if (out.error && out.commands.length === 0) return `${out.decision}: the command line could not be analysed (${out.error.message})`;
  const d = commands.find((c) => c.decisive);
  if (commands.length === 0) return out.rule ? `${out.decision}: rule ${out.rule} decides the event` : `${out.decision}: no rule applies to the event`;
  if (!d || d.rule === null) return `${out.decision}: no rule matched ${commands.length === 1 ? 'the command' : `any of the ${commands.length} commands`}; what no rule matches is allowed`;
  const n = commands.length;
  const which = n === 1 ? 'the only command' : `command ${commands.indexOf(d) + 1} of ${n}, the most severe decision of the line`;
  return `${out.decision}: rule ${d.rule} decides ${which}`;
}
