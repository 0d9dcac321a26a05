/**
 * Makefiles (`make TARGET`): a pure reader, text in, shell text out. What a goal runs is the
 * recipes of the goal and of every prerequisite that has a rule, as shell text. A make variable
 * or function (`$(CC)`, `${X}`, `$@`, `$(shell …)`) becomes the run-time word `$__make`: in an
 * argument it is a run-time word, in program position the command is opaque. Both branches of a
 * conditional count; `include`d files are not read (`includes` says there were some).
 */
import type { ScriptPiece } from './piece.ts';

export interface MakeRecipes {
  /** The recipe lines that run, shell text, in order (each with its target). */
  lines: Array<{ target: string; text: string }>;
  /** Goals (and prerequisites) with no rule here. */
  missing: string[];
  /** The Makefile includes others (not read). */
  includes: boolean;
  /** The goal made when none is named. */
  defaultGoal: string | null;
}

/**
 * A recipe line that is one plain command whose program is a make variable (`$(CC) $(CFLAGS)
 * -c $< -o $@` as shell text): no quotes, substitutions, redirections, operators or globs, so
 * it is one opaque command whose words do not depend on anything before it. Without
 * `.ONESHELL` each recipe line runs in a shell of its own, so such a line judged once stands for
 * every copy of it (a Makefile of explicit rules repeats it for each target).
 */
const PLAIN_RUNTIME = /^\$\{__make\}(?:[ \t]+(?:[A-Za-z0-9_.\/,:=+%@^-]|\$\{__make\})+)*[ \t]*$/;

interface Rule {
  prereqs: string[];
  recipe: string[];
}

const ASSIGNMENT = /^\s*(?:(?:export|override|private)\s+)*[^\s:#=]+\s*(?:::=|:::=|:=|\?=|\+=|!=|=)/;
/** Directives: a line whose first word is one (`-include` too) is not a rule. */
const DIRECTIVES: ReadonlySet<string> = new Set(['include', 'sinclude', 'ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif', 'vpath', 'export', 'unexport', 'undefine']);
/** A line's first word (`\w` characters) after blanks and an optional `-`: one regex for the directive tests. */
const LEAD = /^\s*(-?)(\w*)(\s?)/;
const ENDEF = /^\s*endef\b/;
const DEFAULT_GOAL = /^\s*\.DEFAULT_GOAL\s*:?=\s*(\S+)/;
const SPACES = /\s+/;
const BRACKET = /[(){}]/;
/*
 * Native string searches (indexOf, search, split) rather than loops over characters where the
 * usual line allows: a hook runs this code cold, where each character a loop visits costs far
 * more than in a warm process (docs/performance.md).
 */
const noCr = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);
const words = (text: string): string[] => text.trim().split(SPACES).filter((t) => t !== '');
/** Targets followed at most (bounded work on any input). */
const MAX_TARGETS = 1024;

/** The rules of a Makefile, by target. */
export function parseMakefile(text: string): { rules: Map<string, Rule>; includes: boolean; defaultGoal: string | null; oneShell: boolean } {
  const rules = new Map<string, Rule>();
  let includes = false;
  let oneShell = false;
  let defaultGoal: string | null = null;
  let explicitDefault: string | null = null;
  let current: Rule[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = noCr(lines[i] as string);
    if (line.startsWith('\t') && current.length > 0) {
      // A recipe line; a backslash-newline continues it (the next line's leading tab removed).
      let body = line.slice(1);
      while (body.endsWith('\\') && i + 1 < lines.length) {
        i++;
        const next = noCr(lines[i] as string);
        body += '\n' + (next.startsWith('\t') ? next.slice(1) : next);
      }
      for (const r of current) r.recipe.push(body);
      continue;
    }
    while (line.endsWith('\\') && i + 1 < lines.length) {
      i++;
      line = line.slice(0, -1) + ' ' + noCr(lines[i] as string).trim();
    }
    const code = stripComment(line);
    if (code.trim() === '') continue;
    // `define`, `include` and the other directives, told by the first word.
    const lead = LEAD.exec(code) as RegExpExecArray;
    const dash = lead[1] === '-';
    const first = lead[2] as string;
    if (!dash && first === 'define') {
      while (i + 1 < lines.length && !ENDEF.test(lines[i + 1] as string)) i++;
      i++;
      current = [];
      continue;
    }
    if ((first === 'include' || (!dash && first === 'sinclude')) && lead[3] !== '') includes = true;
    const hasEq = code.includes('=');
    const goal = hasEq ? DEFAULT_GOAL.exec(code) : null;
    if (goal) explicitDefault = goal[1] as string;
    if ((dash ? first === 'include' : DIRECTIVES.has(first)) || (hasEq && ASSIGNMENT.test(code) && !ruleBeforeAssignment(code))) {
      current = [];
      continue;
    }
    const colon = ruleColon(code);
    if (colon < 0) {
      current = [];
      continue;
    }
    const rule = ruleLine(code, colon);
    current = [];
    if (rule === null) continue;
    const { targets, prereqs, inline } = rule;
    for (const t of targets) {
      let r = rules.get(t);
      if (r === undefined) {
        r = { prereqs: [], recipe: [] };
        rules.set(t, r);
      }
      r.prereqs.push(...prereqs);
      if (inline !== null && inline.trim() !== '') r.recipe.push(inline.trim());
      current.push(r);
      if (t === '.ONESHELL') oneShell = true;
      if (defaultGoal === null && !t.startsWith('.') && !t.includes('%') && !t.includes('$')) defaultGoal = t;
    }
  }
  return { rules, includes, defaultGoal: explicitDefault ?? defaultGoal, oneShell };
}

/**
 * A rule line split at its colon: its targets, prerequisites and the recipe after a `;`; null
 * for a target-specific variable (`t: X = 1`), which is not a rule.
 */
function ruleLine(code: string, colon: number): { targets: string[]; prereqs: string[]; inline: string | null } | null {
  const targets = words(code.slice(0, colon));
  let rest = code.slice(colon + 1);
  if (rest.startsWith(':')) rest = rest.replace(/^:+/, '');
  if (rest.includes('=') && ASSIGNMENT.test(rest)) return null;
  // Static pattern rules (`objs: %.o: %.c`): the prerequisites after the second colon.
  const second = ruleColon(rest);
  if (second >= 0) rest = rest.slice(second + 1);
  let inline: string | null = null;
  const semi = rest.indexOf(';');
  if (semi >= 0) {
    inline = rest.slice(semi + 1);
    rest = rest.slice(0, semi);
  }
  return { targets, prereqs: words(rest.replace('|', ' ')), inline };
}

/** What making `goals` runs (none: the default goal). */
export function makeRecipes(text: string, goals: readonly string[]): MakeRecipes {
  const { rules, includes, defaultGoal, oneShell } = parseMakefile(text);
  const out: MakeRecipes = { lines: [], missing: [], includes, defaultGoal };
  const start = goals.length > 0 ? goals : defaultGoal === null ? [] : [defaultGoal];
  const seen = new Set<string>();
  /** Plain run-time-program lines already listed (PLAIN_RUNTIME): one copy is judged. */
  const plain = new Set<string>();
  const visit = (t: string, depth: number): void => {
    if (seen.has(t) || seen.size >= MAX_TARGETS || depth > 64) return;
    seen.add(t);
    const r = rules.get(t);
    if (r === undefined) {
      if (depth === 0) out.missing.push(t);
      return;
    }
    for (const p of r.prereqs) visit(p, depth + 1);
    for (const line of r.recipe) {
      const shell = recipeShell(line);
      if (!oneShell && shell.startsWith('${__make}') && PLAIN_RUNTIME.test(shell)) {
        if (plain.has(shell)) continue;
        plain.add(shell);
      }
      out.lines.push({ target: t, text: shell });
    }
  };
  for (const g of start) visit(g, 0);
  return out;
}

/**
 * One recipe line as the shell sees it: its `@`/`-`/`+` prefixes removed, `$$` a `$`, and each
 * make variable or function the run-time word `$__make`.
 */
export function recipeShell(line: string): string {
  const text = line.replace(/^[\s@+-]+/, '');
  let out = '';
  let from = 0;
  for (let i = text.indexOf('$'); i >= 0; i = text.indexOf('$', from)) {
    out += text.slice(from, i);
    const n = text[i + 1];
    if (n === '$') {
      out += '$';
      from = i + 2;
    } else if (n === '(' || n === '{') {
      from = closing(text, i + 1) + 1;
      out += '${__make}';
    } else if (n !== undefined) {
      out += '${__make}';
      from = i + 2;
    } else {
      out += '$';
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/** The index of the bracket closing the one at `open` (balanced), or the end. */
function closing(text: string, open: number): number {
  const o = text[open] as string;
  const c = o === '(' ? ')' : '}';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === o) depth++;
    else if (text[i] === c && --depth === 0) return i;
  }
  return text.length - 1;
}

function stripComment(line: string): string {
  const hash = line.indexOf('#');
  if (hash < 0) return line;
  if (line.lastIndexOf('\\', hash) < 0) return line.slice(0, hash);
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '#') return line.slice(0, i);
  }
  return line;
}

/** The rule's colon (not inside `$(…)`, not part of `:=`), or -1. */
function ruleColon(code: string): number {
  const first = code.indexOf(':');
  if (first < 0) return -1;
  // The usual rule line: no bracket before its colon, which starts no `:=`.
  if (code[first + 1] !== '=') {
    const b = code.search(BRACKET);
    if (b < 0 || b > first) return first;
  }
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ':' && depth === 0 && code[i + 1] !== '=') {
      // `a:b` in a Windows path is not expected here; `::` is a double-colon rule.
      return i;
    }
  }
  return -1;
}

/** `t: X = 1` (a rule's colon comes before the `=`): a target-specific variable, handled above. */
function ruleBeforeAssignment(code: string): boolean {
  const colon = ruleColon(code);
  const eq = code.indexOf('=');
  return colon >= 0 && (eq < 0 || colon < eq) && code[colon + 1] !== '=' && !/^[^:]*::?=/.test(code);
}

/**
 * Every recipe line of a Makefile, of every rule (what some goal runs), in file order, as shell
 * pieces with where each stands: the repository scan's view (the hook reads one goal's, above).
 * Which lines are recipes is parseMakefile's answer; a line is found again by its text.
 */
export function makefilePieces(text: string): ScriptPiece[] {
  const { rules } = parseMakefile(text);
  const bodies = new Map<string, string>();
  for (const [t, r] of rules) for (const b of r.recipe) if (!bodies.has(b)) bodies.set(b, t);
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const out: ScriptPiece[] = [];
  const add = (target: string, body: string, line: number, column: number): void => {
    const prefix = /^[\s@+-]*/.exec(body)?.[0].length ?? 0;
    const at = body.split('\n').map((_, k) => (k === 0 ? ([line, column + prefix] as const) : ([line + k, (lines[line + k - 1] as string).startsWith('\t') ? 2 : 1] as const)));
    out.push({ label: `recipe of ${target}`, text: recipeShell(body), at });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('\t')) {
      const start = i;
      let body = line.slice(1);
      while (body.endsWith('\\') && i + 1 < lines.length) {
        i++;
        body += '\n' + (lines[i] as string).replace(/^\t/, '');
      }
      const target = bodies.get(body);
      if (target !== undefined) add(target, body, start + 1, 2);
      continue;
    }
    // `target: prerequisites ; command`
    const semi = line.indexOf(';');
    if (semi < 0 || ruleColon(stripComment(line)) < 0) continue;
    const inline = line.slice(semi + 1).trim();
    const target = bodies.get(inline);
    if (target !== undefined && inline !== '') add(target, inline, i + 1, line.indexOf(inline, semi) + 1);
  }
  return out;
}
