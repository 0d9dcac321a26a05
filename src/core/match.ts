/**
 * Rule matching. A policy is indexed once per policy object and trigger (only the triggers
 * asked for: a hook asks for one) by program, so one command is compared only with the rules
 * that can match it.
 */
import { SEVERITY } from './contract.ts';
import { programName, type CommandFacts } from './facts.ts';
import type { CompiledPolicy, CompiledRule, OrderedRule, PathMatcher, RuleBuckets, ScriptFromMatcher, SegmentMatcher } from './policy.ts';
import { globMatches, globOverlaps, inLocation, type PathFact } from './paths.ts';
import { readSql, type SqlKind } from '../grammars/sql.ts';

interface Candidate {
  rule: CompiledRule;
  /** Load order: the earlier rule wins a full tie. */
  order: number;
  matcher: SegmentMatcher;
}

export interface TriggerIndex {
  byProgram: { get(program: string): Candidate[] | undefined };
  /** Entries without `program`. */
  anyProgram: Candidate[];
  /** Rules without `shell_segments` (they match every command alike). */
  noSegments: Array<{ rule: CompiledRule; order: number }>;
}

const indexes = new WeakMap<CompiledPolicy, Map<string, TriggerIndex>>();

export function triggerIndex(policy: CompiledPolicy, trigger: string): TriggerIndex {
  let byTrigger = indexes.get(policy);
  if (!byTrigger) indexes.set(policy, (byTrigger = new Map()));
  let ix = byTrigger.get(trigger);
  if (!ix) {
    const buckets = policy.rule_buckets;
    ix = buckets === undefined ? buildIndex(policy.rules.map((rule, order) => ({ rule, order })), trigger) : lazyIndex(buckets, trigger);
    byTrigger.set(trigger, ix);
  }
  return ix;
}

function buildIndex(rules: readonly OrderedRule[], trigger: string): TriggerIndex & { byProgram: Map<string, Candidate[]> } {
  const byProgram = new Map<string, Candidate[]>();
  const anyProgram: Candidate[] = [];
  const noSegments: TriggerIndex['noSegments'] = [];
  for (const { rule, order } of rules) {
    if (!rule.triggers.includes(trigger)) continue;
    if (rule.shell_segments === null) {
      noSegments.push({ rule, order });
      continue;
    }
    for (const matcher of rule.shell_segments) {
      const c = { rule, order, matcher };
      if (!matcher.program) anyProgram.push(c);
      else {
        for (const p of matcher.program) {
          const list = byProgram.get(p);
          if (list) list.push(c);
          else byProgram.set(p, [c]);
        }
      }
    }
  }
  return { byProgram, anyProgram, noSegments };
}

/**
 * The index of a policy whose rules are read by program (`rule_buckets`): the common rules at
 * once, a program's own rules when a command of it is first judged. Candidates come in the same
 * order as `buildIndex` gives them (load order, then entry order).
 */
function lazyIndex(buckets: RuleBuckets, trigger: string): TriggerIndex {
  const base = buildIndex(buckets.common, trigger);
  const seen = new Map<string, Candidate[] | undefined>();
  const get = (program: string): Candidate[] | undefined => {
    if (seen.has(program)) return seen.get(program);
    const own = buildIndex(buckets.forProgram(program), trigger).byProgram.get(program) ?? [];
    const common = base.byProgram.get(program) ?? [];
    const all = own.length === 0 ? common : common.length === 0 ? own : [...common, ...own].sort((a, b) => a.order - b.order);
    const list = all.length === 0 ? undefined : all;
    seen.set(program, list);
    return list;
  };
  return { byProgram: { get }, anyProgram: base.anyProgram, noSegments: base.noSegments };
}

/** Conditions that do not depend on the command: tool name and env. */
export function contextMatches(rule: CompiledRule, toolName: string | undefined, env: Readonly<Record<string, string>> | undefined): boolean {
  if (rule.tool_name !== null && rule.tool_name !== toolName) return false;
  if (rule.env !== null) {
    for (const [k, v] of Object.entries(rule.env)) if (env?.[k] !== v) return false;
  }
  return true;
}

export function segmentMatches(m: SegmentMatcher, f: CommandFacts): boolean {
  if (f.tool) {
    // `not` entries that name a program never match a tool call, so they let it through.
    return (
      m.paths !== undefined &&
      onlyPaths(m) &&
      f.paths.some((p) => pathMatches(m.paths!, p, f.home, f.locations)) &&
      (m.text_contains === undefined || textContains(m.text_contains, f)) &&
      !(m.not?.some((n) => segmentMatches(n, f)) ?? false)
    );
  }
  if (m.program && (f.opaque || !m.program.includes(f.program))) return false;
  if (m.opaque && !f.opaque) return false;
  if (m.subcommand_dynamic && !f.read.subcommand_dynamic) return false;
  if (m.subcommand && !subcommandMatches(m.subcommand, f, m.opaque === true)) return false;
  if (m.flags_any && !m.flags_any.some((x) => f.read.flags.has(x))) return false;
  if (m.flags_all && !m.flags_all.every((x) => f.read.flags.has(x))) return false;
  if (m.role_marks && !m.role_marks.every((c) => f.read.marks.has(c.mark))) return false;
  if (m.words_any && !m.words_any.some((w) => f.words.has(w))) return false;
  if (m.words_contain && !wordsContain(m.words_contain, f)) return false;
  if (m.text_contains && !textContains(m.text_contains, f)) return false;
  if (m.words_all && !m.words_all.every((w) => f.words.has(w))) return false;
  if (m.argv && !argvIs(m.argv, f)) return false;
  if (m.project && !m.project.some((r) => f.roots.includes(r))) return false;
  if (m.words_any_ignore_case && !anyWordIgnoringCase(m.words_any_ignore_case, f.words)) return false;
  if (m.flags_none && m.flags_none.some((x) => f.read.flags.has(x))) return false;
  if (m.positionals_min !== undefined || m.positionals_any) {
    if (f.opaque) return false;
    const taken = Math.max(0, (m.subcommand?.length ?? 0) - f.read.subcommand.length);
    const rest = taken === 0 ? f.read.positionals : f.read.positionals.slice(taken);
    if (m.positionals_min !== undefined && rest.length < m.positionals_min) return false;
    if (m.positionals_any && !rest.some((p) => m.positionals_any!.some((g) => globMatch(g, p)))) return false;
  }
  if (m.line_sets && !m.line_sets.some((g) => f.lineSets.some((name) => globMatch(g, name)))) return false;
  if (m.script_from && !scriptFromMatches(m.script_from, f)) return false;
  if (m.unseen && (f.cmd.unseen === undefined || !m.unseen.includes(f.cmd.unseen))) return false;
  if (m.unseen_file && (f.cmd.unseen === undefined || !m.unseen_file.some((g) => globMatch(g, f.cmd.argv[0] ?? '')))) return false;
  if (m.dynamic_words && !f.dynamicWords) return false;
  if (m.sql && !m.sql.some((k) => sqlOf(f).kinds.has(k))) return false;
  if (m.sql_unread && !sqlOf(f).unread) return false;
  if (m.target && !m.target.some((t) => (t === 'production' ? f.targets.production !== null : f.targets.unchecked))) return false;
  if (m.paths && !f.paths.some((p) => pathMatches(m.paths!, p, f.home, f.locations))) return false;
  if (m.not && m.not.some((n) => segmentMatches(n, f))) return false;
  return true;
}

/** `argv:` the command's words exactly, none known only at run time (the program by its name). */
function argvIs(want: readonly string[], f: CommandFacts): boolean {
  const argv = f.cmd.argv;
  if (f.opaque || argv.length !== want.length || f.cmd.dynamic.length > 0) return false;
  const first = want[0] ?? '';
  if (programName(first.slice(first.lastIndexOf('/') + 1)) !== f.program) return false;
  for (let i = 1; i < argv.length; i++) if (argv[i] !== want[i]) return false;
  return true;
}

interface SqlFacts {
  kinds: ReadonlySet<SqlKind>;
  unread: boolean;
}
const sqlRead = new WeakMap<CommandFacts, SqlFacts>();

/**
 * The SQL a command carries: each word of its `sql` role (program data `roles`) read by the
 * statement reader, once per command and only when a rule asks. A word with a run-time part, or
 * one the reader cannot read within its bounds, is unread.
 */
function sqlOf(f: CommandFacts): SqlFacts {
  let got = sqlRead.get(f);
  if (got !== undefined) return got;
  const kinds = new Set<SqlKind>();
  let unread = false;
  const texts = f.opaque ? [] : (f.read.roles.get('sql') ?? []);
  for (const text of texts) {
    if (runTimeWord(f, text)) {
      unread = true;
      continue;
    }
    const r = readSql(text);
    if (!r.ok) unread = true;
    else for (const k of r.destructive) kinds.add(k);
  }
  // What it reads on standard input or from a file an option names (ShellCommand.texts).
  for (const t of f.opaque ? [] : (f.cmd.texts ?? [])) {
    if (t.role !== 'sql') continue;
    const r = t.text === null ? null : readSql(t.text);
    if (r === null || !r.ok) unread = true;
    else for (const k of r.destructive) kinds.add(k);
  }
  got = { kinds, unread };
  sqlRead.set(f, got);
  return got;
}

/** `value` is (the end of) an argument word with a part known only at run time (`-c "$Q"`, `--command=$Q`). */
function runTimeWord(f: CommandFacts, value: string): boolean {
  const { argv, dynamic } = f.cmd;
  for (const i of dynamic) {
    const w = argv[i];
    if (w !== undefined && w.endsWith(value)) return true;
  }
  return false;
}

/** Some literal argument word contains one of `parts` (lower case already), in any letter case. */
function wordsContain(parts: readonly string[], f: CommandFacts): boolean {
  for (const w of f.words) {
    const lower = w.toLowerCase();
    for (const p of parts) if (lower.includes(p)) return true;
  }
  return false;
}

/** Some literal argument word, the here-document or here-string read, or a file tool's written text contains one of `parts` (lower case already). */
function textContains(parts: readonly string[], f: CommandFacts): boolean {
  if (!f.tool && wordsContain(parts, f)) return true;
  const text = f.writtenText;
  if (text === '') return false;
  const lower = text.toLowerCase();
  for (const p of parts) if (lower.includes(p)) return true;
  return false;
}

/** A file-tool call meets only entries that look at nothing but paths and written text (and what they are not). */
function onlyPaths(m: SegmentMatcher): boolean {
  for (const k in m) if (k !== 'paths' && k !== 'not' && k !== 'text_contains') return false;
  return true;
}

export function pathMatches(
  m: PathMatcher,
  p: PathFact,
  home: string | null,
  locations: Readonly<Record<string, readonly string[]>> | null = null,
): boolean {
  if (p.pseudo) return false;
  // A link's target is written only through the link: scope alone does not judge it (`ln -s ../shared lib`).
  if (p.link ? m.link === false || (m.link === undefined && m.location === undefined && m.glob === undefined) : m.link === true) return false;
  if (m.access && !m.access.includes(p.access)) return false;
  if (m.scope && !m.scope.includes(p.scope)) return false;
  if (m.recursive !== undefined && m.recursive !== p.recursive) return false;
  if (m.holds_project !== undefined && m.holds_project !== p.holdsProject) return false;
  if (m.project_root !== undefined && m.project_root !== p.projectRoot) return false;
  if (m.glob && (p.path === null || !m.glob.some((g) => globMatches(g, p.path!, home) || (p.glob && globOverlaps(g, p.path!, home))))) return false;
  if (m.not_glob && p.path !== null && m.not_glob.some((g) => globMatches(g, p.path!, home))) return false;
  if (m.location) {
    if (locations === null) return false;
    let hit = false;
    for (const name of m.location) {
      const patterns = Object.hasOwn(locations, name) ? locations[name]! : [];
      if (patterns.some((g) => inLocation(g, p, home))) {
        hit = true;
        break;
      }
    }
    if (!hit) return false;
  }
  return true;
}

function anyWordIgnoringCase(lower: readonly string[], words: ReadonlySet<string>): boolean {
  for (const w of words) if (lower.includes(w.toLowerCase())) return true;
  return false;
}

function scriptFromMatches(m: ScriptFromMatcher, f: CommandFacts): boolean {
  if (f.cmd.script_from === undefined) return false;
  return f.scriptFrom.some(
    (s) => m.programs.includes(s.program) && (!m.how || m.how.includes(s.how)) && (!m.flags_any || m.flags_any.some((x) => s.flags.has(x))),
  );
}

const globs = new Map<string, RegExp>();

/** `*` matches any characters, `\` makes the next character literal; the whole word must match. */
export function globMatch(pattern: string, word: string): boolean {
  let re = globs.get(pattern);
  if (re === undefined) {
    let src = '';
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern.charAt(i);
      if (c === '*') src += '[\\s\\S]*';
      else {
        const lit = c === '\\' && i + 1 < pattern.length ? pattern.charAt(++i) : c;
        src += lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
    }
    re = new RegExp(`^${src}$`);
    globs.set(pattern, re);
  }
  return re.test(word);
}

/**
 * The rule's words begin the subcommand path, continued by the positionals (`stash drop`). A
 * command whose program is known only at run time has a subcommand only for an entry that asks
 * for such commands (`opaque: true`): its first argument and the words after it, read with no
 * program data (`$B trust`, not `$CC -o allow x.c`).
 */
function subcommandMatches(words: readonly string[], f: CommandFacts, opaque: boolean): boolean {
  if (f.opaque && (!opaque || f.cmd.argv[1] !== words[0])) return false;
  const path = f.read.subcommand;
  for (let i = 0; i < words.length; i++) {
    const w = i < path.length ? path[i] : f.read.positionals[i - path.length];
    if (w !== words[i]) return false;
  }
  return true;
}

export interface Winner {
  rule: CompiledRule;
  order: number;
}

/** Precedence: higher priority, then the more severe action, then the earlier rule. */
export function better(a: Winner, b: Winner | null): boolean {
  if (b === null) return true;
  if (a.rule.priority !== b.rule.priority) return a.rule.priority > b.rule.priority;
  const sa = SEVERITY[a.rule.action];
  const sb = SEVERITY[b.rule.action];
  if (sa !== sb) return sa > sb;
  return a.order < b.order;
}
