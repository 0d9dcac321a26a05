/**
 * Pack format "1" (docs/packs.md): a parsed pack document → checked rules and grammars.
 * Each rule is checked on its own: a broken rule is reported and left out, the rest of the
 * file still loads. Unknown keys that could change what a rule matches are errors; other
 * unknown keys are warnings.
 */
import { DECISIONS, TRIGGERS, type Decision, type Trigger } from '../core/contract.ts';
import { programName } from '../core/facts.ts';
import { TARGET_STATES, TIERS, type CompiledRule, type TargetState, type PathMatcher, type RoleMarkCondition, type SegmentMatcher, type Tier } from '../core/policy.ts';
import { ACCESS_KINDS } from '../core/contract.ts';
import type { PathScope } from '../core/path-scope.ts';
import type { Grammars, ProgramGrammar } from '../grammars/types.ts';
import { SQL_KINDS, type SqlKind } from '../grammars/sql.ts';
import { grammarProblems, normaliseGrammar } from '../grammars/validate.ts';
import { lineFor, type LineMap, type Problem } from './problems.ts';
import { checkRuleOptions, subcommandWarning } from './rule-options.ts';

export interface RuleExample {
  command?: string;
  tool_name?: string;
  env?: Record<string, string>;
  trigger?: string;
  /** Where the example stands (defaults: EXAMPLE_HOME, EXAMPLE_PROJECT, cwd the project). */
  cwd?: string;
  home?: string;
  project?: string;
  tmpdir?: string;
  /** A file-tool example: the paths the call touches (`tool_name` names the tool). */
  paths?: Array<{ path: string; access: 'read' | 'write' | 'delete' | 'metadata' }>;
  /** A file-tool example's arguments as a harness gives them (`{ content: … }`: what `text_contains` reads). */
  tool_input?: Record<string, unknown>;
}

/** The fake home directory and project root rule examples stand in, unless they say otherwise. */
export const EXAMPLE_HOME = '/home/dev';
export const EXAMPLE_PROJECT = '/home/dev/project';

export interface LoadedRule {
  rule: CompiledRule;
  examples: { match: RuleExample[]; no_match: RuleExample[] };
  /** Line of the rule in its file. */
  line: number | undefined;
  /** Index in the file's `rules` list. */
  index: number;
}

export interface PackContext {
  file: string;
  /** Pack id when the file has no `pack:` (the file name without extension). */
  defaultId: string;
  lines?: LineMap;
}

type Obj = Record<string, unknown>;
type Path = (string | number)[];

export const PACK_KEYS = ['pack', 'version', 'description', 'defaults', 'rules', 'programs', 'guarded_words'];
export const RULE_KEYS = ['id', 'description', 'trigger', 'match', 'action', 'priority', 'tier', 'user_message', 'agent_message', 'additional_context', 'enabled', 'examples'];
const SEGMENT_BOOLEANS = ['opaque', 'subcommand_dynamic', 'dynamic_words'] as const;
/**
 * Pack keys (`refspec_force: true`) that are shorthands of `role_marks` (`[refspec.force]`), in
 * the order explain shows them; `gh_api_delete` is another name of `method_delete` (pack format
 * "1" spelled it so). The marks are the program data's (`role_kinds` of git and gh).
 */
const MARK_SHORTHANDS: Readonly<Record<string, { condition: string; mark: string }>> = {
  refspec_delete: { condition: 'refspec_delete', mark: 'refspec.delete' },
  refspec_force: { condition: 'refspec_force', mark: 'refspec.force' },
  method_delete: { condition: 'method_delete', mark: 'http_method.delete' },
  gh_api_delete: { condition: 'method_delete', mark: 'http_method.delete' },
};
export const SEGMENT_KEYS = [
  'program', 'subcommand', 'flags_any', 'flags_all', 'flags_none', 'words_any', 'words_all', 'words_any_ignore_case', 'words_contain',
  'text_contains', 'line_sets', 'positionals_min', 'positionals_any', 'script_from', 'unseen', 'unseen_file', 'not', 'paths', 'role_marks', 'sql', 'sql_unread', 'argv', 'project', 'target', ...SEGMENT_BOOLEANS, ...Object.keys(MARK_SHORTHANDS),
];
export const PATH_KEYS = ['access', 'scope', 'glob', 'not_glob', 'holds_project', 'project_root', 'recursive', 'location', 'link'] as const;
const PATH_SCOPES = ['project', 'temp', 'home', 'system', 'runtime'] as const;
const SCRIPT_FROM_KEYS = ['programs', 'flags_any', 'how'];
const SCRIPT_HOW = ['pipe', 'substitution', 'file'] as const;
const UNSEEN_WHY = ['runtime', 'unreadable'] as const;
const MESSAGE_KEYS = ['user_message', 'agent_message', 'additional_context'] as const;
const DEFAULT_PRIORITY = 50;
/** The pack format this Buckler reads (a pack's `version:`, a bundle's `pack_format`). */
export const PACK_FORMAT = '1';

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Thrown inside one rule's check; the rule is skipped. */
class RuleProblem extends Error {
  constructor(
    message: string,
    readonly path: Path,
  ) {
    super(message);
  }
}

export interface PackHeader {
  id: string;
  defaultTier: Tier;
  problems: Problem[];
  /** False when the file cannot be used at all (not a mapping, another format version). */
  usable: boolean;
}

export function readHeader(doc: unknown, ctx: PackContext): PackHeader {
  const problems: Problem[] = [];
  const at = (path: Path, message: string, severity: Problem['severity'] = 'error'): void => {
    const line = lineFor(ctx.lines, path);
    problems.push(line === undefined ? { severity, file: ctx.file, message } : { severity, file: ctx.file, line, message });
  };
  const header: PackHeader = { id: ctx.defaultId, defaultTier: 'baseline', problems, usable: false };
  if (doc === null || doc === undefined) {
    at([], 'the file is empty (no rules loaded)', 'warning');
    return header;
  }
  if (!isObject(doc)) {
    at([], 'a pack must be a YAML mapping with a "rules" list');
    return header;
  }
  for (const k of Object.keys(doc)) if (!PACK_KEYS.includes(k)) at([k], `unknown pack field "${k}" (known: ${PACK_KEYS.join(', ')}); the field does nothing`);
  const version = doc['version'];
  if (version !== undefined && String(version) !== PACK_FORMAT) {
    at(['version'], `pack format version ${JSON.stringify(version)} is not supported (this Buckler reads "${PACK_FORMAT}")`);
    return header;
  }
  const id = doc['pack'];
  if (id !== undefined) {
    if (typeof id === 'string' && /^[A-Za-z0-9_.-]+$/.test(id)) header.id = id;
    else at(['pack'], `"pack" must be a name of letters, digits, "-", "_" or "." (using "${ctx.defaultId}")`);
  }
  const defaults = doc['defaults'];
  if (defaults !== undefined && defaults !== null) {
    if (!isObject(defaults)) at(['defaults'], '"defaults" must be a mapping');
    else {
      for (const k of Object.keys(defaults)) if (k !== 'tier') at(['defaults', k], `unknown field "defaults.${k}" (ignored)`, 'warning');
      const tier = defaults['tier'];
      if (tier !== undefined) {
        if (typeof tier === 'string' && (TIERS as readonly string[]).includes(tier)) header.defaultTier = tier as Tier;
        else at(['defaults', 'tier'], `"defaults.tier" must be one of ${TIERS.join(', ')}`);
      }
    }
  }
  const rules = doc['rules'];
  if (rules !== undefined && rules !== null && !Array.isArray(rules)) {
    at(['rules'], '"rules" must be a list');
    return header;
  }
  header.usable = true;
  return header;
}

/** The pack's `programs:` (grammars for more programs), checked. */
export function readPrograms(doc: unknown, ctx: PackContext): { programs: Record<string, ProgramGrammar>; problems: Problem[] } {
  const programs: Record<string, ProgramGrammar> = {};
  const problems: Problem[] = [];
  const raw = isObject(doc) ? doc['programs'] : undefined;
  if (raw === undefined || raw === null) return { programs, problems };
  const at = (path: Path, message: string): void => {
    const line = lineFor(ctx.lines, path);
    problems.push(line === undefined ? { severity: 'error', file: ctx.file, message } : { severity: 'error', file: ctx.file, line, message });
  };
  if (!isObject(raw)) {
    at(['programs'], '"programs" must map program names to grammars');
    return { programs, problems };
  }
  for (const [name, g] of Object.entries(raw)) {
    const found = grammarProblems(g ?? {}, name);
    if (found.length > 0) for (const p of found) at(['programs', name], p);
    else programs[name] = normaliseGrammar((g ?? {}) as Obj);
  }
  return { programs, problems };
}

/** One `guarded_words` entry: words that must all appear in the line, for a tier. */
export interface GuardedEntry {
  words: string[];
  tier: Tier;
}

/**
 * The pack's `guarded_words:` (docs/packs.md), checked. Each entry is a word, a list of words,
 * or `{ words: …, tier: … }`; a broken entry is reported and left out.
 */
export function readGuardedWords(doc: unknown, header: PackHeader, ctx: PackContext): { entries: GuardedEntry[]; problems: Problem[] } {
  const entries: GuardedEntry[] = [];
  const problems: Problem[] = [];
  const raw = isObject(doc) ? doc['guarded_words'] : undefined;
  if (raw === undefined || raw === null) return { entries, problems };
  const at = (path: Path, message: string): void => {
    const line = lineFor(ctx.lines, ['guarded_words', ...path]);
    problems.push(line === undefined ? { severity: 'error', file: ctx.file, message } : { severity: 'error', file: ctx.file, line, message });
  };
  if (!Array.isArray(raw)) {
    at([], '"guarded_words" must be a list of words, lists of words, or { words, tier } mappings');
    return { entries, problems };
  }
  raw.forEach((e: unknown, i) => {
    let words: unknown = e;
    let tier: unknown = header.defaultTier;
    if (isObject(e)) {
      for (const k of Object.keys(e)) {
        if (k !== 'words' && k !== 'tier') return at([i, k], `unknown guarded_words field "${k}" (known: words, tier); entry skipped`);
      }
      words = e['words'];
      tier = e['tier'] ?? header.defaultTier;
    }
    const list = typeof words === 'string' ? [words] : words;
    if (!isStringList(list) || list.length === 0) return at([i], 'a guarded_words entry must be a word or a non-empty list of words');
    const bad = list.find((w) => w === '' || /\s/.test(w) || /^\**$/.test(w));
    if (bad !== undefined) return at([i], `guarded word ${JSON.stringify(bad)} must be non-empty, without blanks, and more than "*"`);
    if (typeof tier !== 'string' || !(TIERS as readonly string[]).includes(tier)) return at([i, 'tier'], `"tier" must be one of ${TIERS.join(', ')}`);
    entries.push({ words: [...new Set(list)], tier: tier as Tier });
  });
  return { entries, problems };
}

/** Checks every rule; returns the good ones (tier not yet filtered) and the problems. */
export function readRules(
  doc: unknown,
  header: PackHeader,
  ctx: PackContext,
  grammars: Grammars,
): { rules: LoadedRule[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const rules: LoadedRule[] = [];
  const list = isObject(doc) && Array.isArray(doc['rules']) ? (doc['rules'] as unknown[]) : [];
  const seen = new Set<string>();
  list.forEach((raw, index) => {
    const localId = isObject(raw) && typeof raw['id'] === 'string' && raw['id'] !== '' ? raw['id'] : `#${index + 1}`;
    const fullId = `${header.id}/${localId}`;
    const report = (severity: Problem['severity'], path: Path, message: string): void => {
      const line = lineFor(ctx.lines, ['rules', index, ...path]);
      const p: Problem = { severity, file: ctx.file, rule: fullId, message };
      if (line !== undefined) p.line = line;
      problems.push(p);
    };
    try {
      const loaded = readRule(
        raw,
        index,
        header,
        grammars,
        (path, m) => report('warning', path, m),
        (path, m) => report('error', path, m),
      );
      if (!loaded) return;
      if (seen.has(loaded.rule.id)) throw new RuleProblem(`duplicate rule id "${localId}" in pack ${header.id}`, ['id']);
      seen.add(loaded.rule.id);
      loaded.line = lineFor(ctx.lines, ['rules', index]);
      rules.push(loaded);
    } catch (e) {
      if (!(e instanceof RuleProblem)) throw e;
      report('error', e.path, e.message);
      problems[problems.length - 1]!.dropped = true;
    }
  });
  return { rules, problems };
}

function readRule(
  raw: unknown,
  index: number,
  header: PackHeader,
  grammars: Grammars,
  warn: (path: Path, message: string) => void,
  fail: (path: Path, message: string) => void,
): LoadedRule | null {
  if (!isObject(raw)) throw new RuleProblem('a rule must be a mapping', []);
  // An unknown field is an error (a misspelt condition or setting would otherwise do nothing
  // unnoticed); the rule stays in force, as a rule whose examples fail does.
  for (const k of Object.keys(raw)) if (!RULE_KEYS.includes(k)) fail([k], `unknown rule field "${k}" (known: ${RULE_KEYS.join(', ')}); the field does nothing, the rest of the rule is in force`);
  const id = raw['id'];
  if (typeof id !== 'string' || id === '') throw new RuleProblem('"id" is required and must be a non-empty string', ['id']);
  if (!/^[A-Za-z0-9_.-]+$/.test(id)) throw new RuleProblem('"id" may hold only letters, digits, "-", "_" and "."', ['id']);
  const enabled = raw['enabled'];
  if (enabled !== undefined && typeof enabled !== 'boolean') throw new RuleProblem('"enabled" must be true or false', ['enabled']);

  const triggers = readTriggers(raw['trigger']);
  const action = raw['action'];
  if (typeof action !== 'string' || !(DECISIONS as readonly string[]).includes(action)) {
    const hint = typeof action === 'string' && ['block', 'reject', 'forbid', 'refuse', 'prevent'].includes(action.toLowerCase()) ? '; to block, use deny' : '';
    const got = action === undefined ? 'none given' : `got ${JSON.stringify(action)}`;
    throw new RuleProblem(`"action" must be one of ${[...DECISIONS].sort().join(', ')} (${got}${hint}); the rule is not loaded`, ['action']);
  }
  if (action === 'deny' || action === 'ask') {
    const after = triggers.filter((t) => t.startsWith('post_'));
    if (after.length > 0) {
      throw new RuleProblem(`"action" ${action} cannot apply to ${after.join(', ')}: nothing is blocked after an action (use nudge)`, ['action']);
    }
  }
  const priority = raw['priority'] ?? DEFAULT_PRIORITY;
  if (typeof priority !== 'number' || !Number.isInteger(priority)) throw new RuleProblem('"priority" must be an integer', ['priority']);
  const tier = raw['tier'] ?? header.defaultTier;
  if (typeof tier !== 'string' || !(TIERS as readonly string[]).includes(tier)) {
    throw new RuleProblem(`"tier" must be one of ${TIERS.join(', ')}`, ['tier']);
  }
  const messages = {} as Record<(typeof MESSAGE_KEYS)[number], string | null>;
  for (const k of MESSAGE_KEYS) {
    const v = raw[k];
    if (v !== undefined && v !== null && typeof v !== 'string') throw new RuleProblem(`"${k}" must be a string or null`, [k]);
    messages[k] = typeof v === 'string' ? v : null;
  }
  const { shell_segments, tool_name, env } = readMatch(raw['match'], grammars, warn);
  const examples = readExamples(raw['examples']);
  if (enabled === false) return null;
  const rule: CompiledRule = {
    id: `${header.id}/${id}`,
    pack: header.id,
    triggers,
    action: action as Decision,
    priority,
    tier: tier as Tier,
    shell_segments,
    tool_name,
    env,
    ...messages,
  };
  return { rule, examples, line: undefined, index };
}

function readTriggers(v: unknown): Trigger[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!isStringList(list) || list.length === 0) throw new RuleProblem('"trigger" is required: a trigger or a list of triggers', ['trigger']);
  for (const t of list) {
    if (!(TRIGGERS as readonly string[]).includes(t)) throw new RuleProblem(`"trigger" ${JSON.stringify(t)} must be one of ${TRIGGERS.join(', ')}`, ['trigger']);
  }
  return [...new Set(list)] as Trigger[];
}

/** `target: production`, or a list of TARGET_STATES. */
function readTarget(target: unknown, path: Path): TargetState[] {
  const list = typeof target === 'string' ? [target] : target;
  if (!isStringList(list) || list.length === 0 || list.some((k) => !(TARGET_STATES as readonly string[]).includes(k))) {
    throw new RuleProblem(`"target" must be one of, or a list of: ${TARGET_STATES.join(', ')}`, path);
  }
  return list as TargetState[];
}

function readMatch(v: unknown, grammars: Grammars, warn: (path: Path, message: string) => void): Pick<CompiledRule, 'shell_segments' | 'tool_name' | 'env'> {
  const out: Pick<CompiledRule, 'shell_segments' | 'tool_name' | 'env'> = { shell_segments: null, tool_name: null, env: null };
  if (v === undefined || v === null) return out;
  if (!isObject(v)) throw new RuleProblem('"match" must be a mapping', ['match']);
  for (const k of Object.keys(v)) {
    if (!['shell_segments', 'tool_name', 'env', 'target'].includes(k)) {
      throw new RuleProblem(`unknown match field "${k}" (known: shell_segments, tool_name, env, target)`, ['match', k]);
    }
  }
  const segs = v['shell_segments'];
  if (segs !== undefined && segs !== null) {
    if (!Array.isArray(segs) || segs.length === 0) throw new RuleProblem('"match.shell_segments" must be a non-empty list', ['match', 'shell_segments']);
    out.shell_segments = segs.map((s, i) => readSegment(s, ['match', 'shell_segments', i], grammars, warn));
  }
  // `target` beside `shell_segments`: every entry must meet it (a production rule beside the
  // rule it sharpens reuses that rule's entries: `shell_segments: *destroy`).
  const target = v['target'];
  if (target !== undefined && target !== null) {
    if (out.shell_segments === null) throw new RuleProblem('"match.target" needs "match.shell_segments"', ['match', 'target']);
    const states = readTarget(target, ['match', 'target']);
    out.shell_segments = out.shell_segments.map((m) => ({ ...m, target: m.target === undefined ? states : m.target.filter((t) => states.includes(t)) }));
  }
  const tool = v['tool_name'];
  if (tool !== undefined && tool !== null) {
    if (typeof tool !== 'string') throw new RuleProblem('"match.tool_name" must be a string', ['match', 'tool_name']);
    out.tool_name = tool;
  }
  const env = v['env'];
  if (env !== undefined && env !== null) {
    if (!isObject(env)) throw new RuleProblem('"match.env" must map variable names to values', ['match', 'env']);
    out.env = {};
    for (const [k, x] of Object.entries(env)) {
      if (typeof x === 'string') out.env[k] = x;
      else if (typeof x === 'number') out.env[k] = String(x);
      else throw new RuleProblem(`"match.env.${k}" must be a string`, ['match', 'env', k]);
    }
  }
  return out;
}

function readSegment(v: unknown, path: Path, grammars: Grammars, warn: (path: Path, message: string) => void): SegmentMatcher {
  if (!isObject(v)) throw new RuleProblem('a shell_segments entry must be a mapping', path);
  const m: SegmentMatcher = {};
  for (const k of Object.keys(v)) {
    if (!SEGMENT_KEYS.includes(k)) throw new RuleProblem(`unknown shell_segments field "${k}" (known: ${SEGMENT_KEYS.join(', ')})`, [...path, k]);
  }
  const program = v['program'];
  if (program !== undefined && program !== null) {
    const list = typeof program === 'string' ? [program] : program;
    if (!isStringList(list) || list.length === 0 || list.some((p) => p === '')) {
      throw new RuleProblem('"program" must be a program name or a list of them', [...path, 'program']);
    }
    m.program = list.map((p) => programName(p.slice(p.lastIndexOf('/') + 1)));
  }
  const sub = v['subcommand'];
  if (sub !== undefined && sub !== null) {
    const words = typeof sub === 'string' ? sub.trim().split(/\s+/) : sub;
    if (!isStringList(words) || words.length === 0 || words.some((w) => w === '')) {
      throw new RuleProblem('"subcommand" must be one or more words, e.g. "push" or "remote remove"', [...path, 'subcommand']);
    }
    m.subcommand = canonicalSubcommand(words, m.program, grammars);
    const unknown = subcommandWarning(m.program, m.subcommand, grammars);
    if (unknown !== null) warn([...path, 'subcommand'], unknown);
  }
  for (const k of ['flags_any', 'flags_all', 'flags_none'] as const) {
    const x = v[k];
    if (x === undefined || x === null) continue;
    readOptions(x, [...path, k], k);
    // Read as the program's reader reads a command (`--force-with-lease=x` is the option);
    // what it could never see as written is a warning with the fix (rule-options.ts).
    const checked = checkRuleOptions(k, x as string[], m.program, m.subcommand, grammars);
    for (const w of checked.warnings) warn([...path, k], w);
    m[k] = checked.flags;
  }
  for (const k of ['words_any', 'words_all', 'words_any_ignore_case', 'words_contain', 'text_contains', 'positionals_any', 'unseen_file', 'line_sets'] as const) {
    const x = v[k];
    if (x === undefined || x === null) continue;
    const contains = k === 'words_contain' || k === 'text_contains';
    if (!isStringList(x) || x.length === 0 || (contains && x.some((w) => w === ''))) {
      throw new RuleProblem(`"${k}" must be a non-empty list of ${contains ? 'non-empty ' : ''}strings`, [...path, k]);
    }
    m[k] = k === 'words_any_ignore_case' || contains ? x.map((w) => w.toLowerCase()) : x;
  }
  const argv = v['argv'];
  if (argv !== undefined && argv !== null) {
    const name = isStringList(argv) && argv.length > 0 ? programName(argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1)) : '';
    if (name === '' || (m.program !== undefined && !m.program.includes(name))) throw new RuleProblem('"argv" must list the command\'s words, the first its program', [...path, 'argv']);
    m.argv = argv as string[];
    // Indexed by its program, as a `program:` entry is.
    m.program ??= [name];
  }
  const project = v['project'];
  if (project !== undefined && project !== null) {
    if (!isStringList(project) || project.length === 0 || project.some((d) => !d.startsWith('/') || d.endsWith('/') || d.includes('//') || /\/\.\.?(?:\/|$)/.test(d))) throw new RuleProblem('"project" must list absolute, normalised directories', [...path, 'project']);
    m.project = project;
  }
  const min = v['positionals_min'];
  if (min !== undefined && min !== null) {
    if (typeof min !== 'number' || !Number.isInteger(min) || min < 0) throw new RuleProblem('"positionals_min" must be a whole number (0 or more)', [...path, 'positionals_min']);
    m.positionals_min = min;
  }
  const from = v['script_from'];
  if (from !== undefined && from !== null) m.script_from = readScriptFrom(from, [...path, 'script_from']);
  const unseen = v['unseen'];
  if (unseen !== undefined && unseen !== null) m.unseen = readUnseen(unseen, [...path, 'unseen']);
  for (const k of SEGMENT_BOOLEANS) {
    const x = v[k];
    if (x === undefined || x === null) continue;
    if (typeof x !== 'boolean') throw new RuleProblem(`"${k}" must be true or false`, [...path, k]);
    if (x) m[k] = true;
  }
  const sql = v['sql'];
  if (sql !== undefined && sql !== null) {
    if (!isStringList(sql) || sql.length === 0 || sql.some((k) => !(SQL_KINDS as readonly string[]).includes(k))) {
      throw new RuleProblem(`"sql" must be a non-empty list of: ${SQL_KINDS.join(', ')}`, [...path, 'sql']);
    }
    m.sql = sql as SqlKind[];
  }
  const unread = v['sql_unread'];
  if (unread !== undefined && unread !== null) {
    if (unread !== true) throw new RuleProblem('"sql_unread" must be true (leave it out otherwise)', [...path, 'sql_unread']);
    m.sql_unread = true;
  }
  const target = v['target'];
  if (target !== undefined && target !== null) m.target = readTarget(target, [...path, 'target']);
  const marks = readRoleMarks(v, path, grammars, warn);
  if (marks.length > 0) m.role_marks = marks;
  const paths = v['paths'];
  if (paths !== undefined && paths !== null) m.paths = readPaths(paths, [...path, 'paths']);
  const not = v['not'];
  if (not !== undefined && not !== null) {
    const list = Array.isArray(not) ? not : [not];
    if (list.length === 0) throw new RuleProblem('"not" must be a shell_segments entry or a non-empty list of them', [...path, 'not']);
    m.not = list.map((n, i) => readSegment(n, [...path, 'not', i], grammars, warn));
  }
  return m;
}

/** `role_marks: [ROLE.MARK, …]` and its shorthands (`refspec_force: true`), shorthands first. */
function readRoleMarks(v: Obj, path: Path, grammars: Grammars, warn: (path: Path, message: string) => void): RoleMarkCondition[] {
  const out: RoleMarkCondition[] = [];
  for (const [k, c] of Object.entries(MARK_SHORTHANDS)) {
    const x = v[k];
    if (x === undefined || x === null) continue;
    if (typeof x !== 'boolean') throw new RuleProblem(`"${k}" must be true or false`, [...path, k]);
    if (x && !out.some((o) => o.condition === c.condition)) out.push({ ...c });
  }
  const list = v['role_marks'];
  if (list === undefined || list === null) return out;
  if (!isStringList(list) || list.length === 0 || list.some((w) => !/^[^.\s]+\.[^.\s]+$/.test(w))) {
    throw new RuleProblem('"role_marks" must be a non-empty list of ROLE.MARK names, e.g. [refspec.force]', [...path, 'role_marks']);
  }
  const declared = new Set<string>();
  for (const g of Object.values(grammars)) {
    for (const [role, kind] of Object.entries(g.role_kinds ?? {})) for (const mark of Object.keys(kind.marks)) declared.add(`${role}.${mark}`);
  }
  for (const mark of list) {
    if (!declared.has(mark)) warn([...path, 'role_marks'], `no program's data declares the mark "${mark}" (role_kinds): the entry never matches`);
    out.push({ condition: 'role_marks', mark });
  }
  return out;
}

/** A segment's `paths:` conditions (docs/packs.md, "Paths"). */
function readPaths(v: unknown, path: Path): PathMatcher {
  if (!isObject(v)) throw new RuleProblem('"paths" must be a mapping of path conditions', path);
  const m: PathMatcher = {};
  for (const k of Object.keys(v)) {
    if (!(PATH_KEYS as readonly string[]).includes(k)) throw new RuleProblem(`unknown paths field "${k}" (known: ${PATH_KEYS.join(', ')})`, [...path, k]);
  }
  const list = (k: string, allowed: readonly string[] | null): string[] | undefined => {
    const x = v[k];
    if (x === undefined || x === null) return undefined;
    const l = typeof x === 'string' ? [x] : x;
    if (!isStringList(l) || l.length === 0 || l.some((e) => e === '')) throw new RuleProblem(`"${k}" must be a non-empty list of strings`, [...path, k]);
    const bad = allowed === null ? undefined : l.find((e) => !allowed.includes(e));
    if (bad !== undefined) throw new RuleProblem(`"${k}" entry ${JSON.stringify(bad)} must be one of ${allowed!.join(', ')}`, [...path, k]);
    return l;
  };
  const access = list('access', ACCESS_KINDS);
  if (access) m.access = access as NonNullable<PathMatcher['access']>;
  const scope = list('scope', PATH_SCOPES);
  if (scope) m.scope = scope as PathScope[];
  const location = list('location', null);
  if (location) {
    const bad = location.find((e) => !/^[a-z][a-z0-9_]*$/.test(e));
    if (bad !== undefined) throw new RuleProblem(`"location" entry ${JSON.stringify(bad)} must be a location name such as harness_settings (lower case, digits, _)`, [...path, 'location']);
    m.location = location;
  }
  for (const k of ['glob', 'not_glob'] as const) {
    const g = list(k, null);
    if (!g) continue;
    const bad = g.find((e) => !(e.startsWith('/') || e === '~' || e.startsWith('~/') || !e.startsWith('~')) || e.includes('//'));
    if (bad !== undefined) throw new RuleProblem(`"${k}" entry ${JSON.stringify(bad)}: a glob is absolute (/…), under the home directory (~/…) or a name matched anywhere (.env, *.pem)`, [...path, k]);
    m[k] = g;
  }
  for (const k of ['holds_project', 'project_root', 'recursive', 'link'] as const) {
    const x = v[k];
    if (x === undefined || x === null) continue;
    if (typeof x !== 'boolean') throw new RuleProblem(`"${k}" must be true or false`, [...path, k]);
    m[k] = x;
  }
  if (Object.keys(m).length === 0) throw new RuleProblem('"paths" needs at least one condition', path);
  return m;
}

function readOptions(x: unknown, path: Path, k: string): string[] {
  if (!isStringList(x) || x.length === 0) throw new RuleProblem(`"${k}" must be a non-empty list of strings`, path);
  const bad = x.find((f) => !/^-./.test(f));
  if (bad !== undefined) throw new RuleProblem(`"${k}" entry ${JSON.stringify(bad)} must be an option such as -f or --force`, path);
  // `--force-with-lease=x` in a rule means the option, as in the command.
  return x.map((f) => (f.startsWith('--') && f.includes('=') ? f.slice(0, f.indexOf('=')) : f));
}

/** `unseen: [unreadable]` (or one reason): why the text that runs was not seen (ShellCommand.unseen). */
function readUnseen(v: unknown, path: Path): NonNullable<SegmentMatcher['unseen']> {
  const list = typeof v === 'string' ? [v] : v;
  if (!isStringList(list) || list.length === 0 || list.some((x) => !UNSEEN_WHY.includes(x as (typeof UNSEEN_WHY)[number]))) {
    throw new RuleProblem(`"unseen" must be one or more of ${UNSEEN_WHY.join(', ')}`, path);
  }
  return list as NonNullable<SegmentMatcher['unseen']>;
}

/** `script_from: { programs: [...], flags_any: [...], how: [...] }`. */
function readScriptFrom(v: unknown, path: Path): NonNullable<SegmentMatcher['script_from']> {
  if (!isObject(v)) throw new RuleProblem('"script_from" must be a mapping with "programs" (and optionally "flags_any", "how")', path);
  for (const k of Object.keys(v)) {
    if (!SCRIPT_FROM_KEYS.includes(k)) throw new RuleProblem(`unknown script_from field "${k}" (known: ${SCRIPT_FROM_KEYS.join(', ')})`, [...path, k]);
  }
  const programs = v['programs'];
  const list = typeof programs === 'string' ? [programs] : programs;
  if (!isStringList(list) || list.length === 0 || list.some((p) => p === '')) {
    throw new RuleProblem('"script_from.programs" must be a program name or a non-empty list of them', [...path, 'programs']);
  }
  const out: NonNullable<SegmentMatcher['script_from']> = { programs: list.map((p) => programName(p.slice(p.lastIndexOf('/') + 1))) };
  const flags = v['flags_any'];
  if (flags !== undefined && flags !== null) out.flags_any = readOptions(flags, [...path, 'flags_any'], 'script_from.flags_any');
  const how = v['how'];
  if (how !== undefined && how !== null) {
    const h = typeof how === 'string' ? [how] : how;
    if (!isStringList(h) || h.length === 0 || h.some((x) => !(SCRIPT_HOW as readonly string[]).includes(x))) {
      throw new RuleProblem(`"script_from.how" must be one or more of ${SCRIPT_HOW.join(', ')}`, [...path, 'how']);
    }
    out.how = h as Array<(typeof SCRIPT_HOW)[number]>;
  }
  return out;
}

/** `remote rm` → `remote remove`, with the grammar's aliases (only when the program is known). */
function canonicalSubcommand(words: string[], programs: string[] | undefined, grammars: Grammars): string[] {
  if (!programs || programs.length !== 1) return words;
  const g = Object.hasOwn(grammars, programs[0]!) ? grammars[programs[0]!] : undefined;
  if (!g) return words;
  const out: string[] = [];
  let level: ProgramGrammar | undefined = g;
  for (const w of words) {
    const name: string = level?.aliases?.[w] ?? w;
    out.push(name);
    level = level?.subcommands?.[name];
  }
  return out;
}

function readExamples(v: unknown): LoadedRule['examples'] {
  const out: LoadedRule['examples'] = { match: [], no_match: [] };
  if (v === undefined || v === null) return out;
  if (!isObject(v)) throw new RuleProblem('"examples" must be a mapping with "match" and "no_match" lists', ['examples']);
  for (const k of Object.keys(v)) {
    if (k !== 'match' && k !== 'no_match') throw new RuleProblem(`unknown examples field "${k}" (known: match, no_match)`, ['examples', k]);
  }
  for (const k of ['match', 'no_match'] as const) {
    const list = v[k];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw new RuleProblem(`"examples.${k}" must be a list`, ['examples', k]);
    out[k] = list.map((x, i) => readExample(x, ['examples', k, i]));
  }
  return out;
}

function readExample(x: unknown, path: Path): RuleExample {
  if (typeof x === 'string') return { command: x };
  if (!isObject(x)) throw new RuleProblem('an example must be a command or a mapping { command, tool_name, paths, tool_input, env, trigger, cwd, home, project, tmpdir }', path);
  const ex: RuleExample = {};
  for (const [k, val] of Object.entries(x)) {
    if (k === 'env') {
      if (!isObject(val) || !Object.values(val).every((s) => typeof s === 'string')) throw new RuleProblem('example "env" must map names to strings', [...path, k]);
      ex.env = val as Record<string, string>;
    } else if (k === 'command' || k === 'tool_name' || k === 'trigger' || k === 'cwd' || k === 'home' || k === 'project' || k === 'tmpdir') {
      if (typeof val !== 'string') throw new RuleProblem(`example "${k}" must be a string`, [...path, k]);
      ex[k] = val;
    } else if (k === 'paths') {
      const ok =
        Array.isArray(val) &&
        val.every((p) => isObject(p) && typeof p['path'] === 'string' && typeof p['access'] === 'string' && (ACCESS_KINDS as readonly string[]).includes(p['access']));
      if (!ok) throw new RuleProblem(`example "paths" must be a list of { path, access } (access: ${ACCESS_KINDS.join(', ')})`, [...path, k]);
      ex.paths = val as NonNullable<RuleExample['paths']>;
    } else if (k === 'tool_input') {
      if (!isObject(val)) throw new RuleProblem('example "tool_input" must be a mapping (the tool\'s arguments)', [...path, k]);
      ex.tool_input = val;
    } else throw new RuleProblem(`unknown example field "${k}" (known: command, tool_name, paths, tool_input, env, trigger, cwd, home, project, tmpdir)`, [...path, k]);
  }
  if (ex.trigger !== undefined && !(TRIGGERS as readonly string[]).includes(ex.trigger)) {
    throw new RuleProblem(`example "trigger" must be one of ${TRIGGERS.join(', ')}`, [...path, 'trigger']);
  }
  return ex;
}
