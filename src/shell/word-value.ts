/**
 * From a parsed word to the argv words bash would pass: brace expansion, then known-variable
 * substitution, then the static value. A part that is only known at run time keeps its source
 * text and makes the word dynamic.
 */
import type { DynPart, Part, Script, Word } from './ast.ts';
import { type ScriptSource, ShellParseError } from './types.ts';

/** One argv word as the unwrap layer sees it. */
export interface ArgWord {
  /** Quotes removed, escapes decoded; source text kept for run-time parts. */
  value: string;
  /** Holds a run-time expansion. */
  dynamic: boolean;
  /** Holds an unquoted glob character (`*`, `?`, `[…]`): its value depends on the file system. */
  glob: boolean;
  /** Offset of the word in the analysed text (for error offsets of nested scripts). */
  start: number;
  /** The word starts with a quoted `~` (`'~/x'`, `\\~`): bash does not expand it. */
  qtilde?: true;
  /** The word is exactly one `<(…)`: the commands whose output the word names (a /dev/fd path). */
  procSub?: Script;
  /** The word is exactly one quoted `"$(…)"`: the commands whose output (less trailing newlines) it is. */
  cmdSub?: Script;
  /**
   * Literal values the word may also take at run time (a variable assigned in a conditional
   * body, `${x:-default}`): each the argv words it becomes. Set only when there are some.
   */
  alts?: ArgWord[][];
  /** Other run-time words: the command lists substituted anywhere in them (`x$(curl …)`, unquoted `$(…)`). */
  subs?: Script[];
  /** Text that is another command's output (a shell's standard input): the commands that produced it. */
  from?: readonly ScriptSource[];
}

/** Literal alternatives kept per variable and per word (more are dropped: the word stays dynamic). */
export const MAX_ALTERNATIVES = 4;

/**
 * Variables assigned earlier on the same line: a literal value, or null when assigned something
 * not known statically. A child scope (subshell, pipeline stage) sees its parent's variables and
 * keeps its own assignments to itself. Also the positional parameters when they are known
 * (`bash -c '…' _ a b`).
 */
export class Vars {
  private own: Map<string, string | null> | null = null;
  /** Literal values a variable unknown here may have (assigned in a conditional body). */
  private ownAlts: Map<string, readonly string[]> | null = null;
  /** `$0 $1 …` (an entry null: unknown); null: unknown (the line's own shell); undefined: the parent's. */
  private pos: ReadonlyArray<string | null> | null | undefined;
  constructor(
    private readonly parent: Vars | null = null,
    positional?: ReadonlyArray<string | null> | null,
  ) {
    this.pos = positional === undefined && parent === null ? null : positional;
  }

  /** The value; null = assigned but unknown; undefined = never assigned on this line. */
  get(name: string): string | null | undefined {
    for (let s: Vars | null = this; s !== null; s = s.parent) {
      const v = s.own?.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  set(name: string, value: string | null, alts?: readonly string[]): void {
    (this.own ??= new Map()).set(name, value);
    if (alts !== undefined && alts.length > 0 && value === null) (this.ownAlts ??= new Map()).set(name, alts);
    else this.ownAlts?.delete(name);
  }

  /** Literal values an unknown variable may have at run time (none: undefined). */
  alternatives(name: string): readonly string[] | undefined {
    for (let s: Vars | null = this; s !== null; s = s.parent) {
      if (s.own?.has(name) === true) return s.ownAlts?.get(name);
    }
    return undefined;
  }

  /**
   * An assignment that may or may not run (in a branch, loop or function body): afterwards the
   * variable is unknown, with the earlier value (or its alternatives) and the new one as the
   * literal values it may have (at most MAX_ALTERNATIVES).
   */
  setMaybe(name: string, value: string | null, more: readonly string[] = []): void {
    const before = this.get(name);
    const alts: string[] = [];
    const add = (v: string): void => {
      if (alts.length < MAX_ALTERNATIVES && !alts.includes(v)) alts.push(v);
    };
    if (value !== null) add(value);
    for (const v of more) add(v);
    if (typeof before === 'string') add(before);
    else if (before === null) for (const v of this.alternatives(name) ?? []) add(v);
    this.set(name, null, alts);
  }

  /**
   * A function body's assignments (walked in `body`, a child of this scope) are global in bash
   * once the function is called, which may or may not happen: each is an alternative here.
   */
  absorbMaybe(body: Vars): void {
    if (body.own === null) return;
    for (const [name, v] of body.own) this.setMaybe(name, v, v === null ? (body.ownAlts?.get(name) ?? []) : []);
  }

  child(): Vars {
    return new Vars(this);
  }

  /** `$0 $1 …`, or null when not known. */
  positional(): ReadonlyArray<string | null> | null {
    for (let s: Vars | null = this; s !== null; s = s.parent) if (s.pos !== undefined) return s.pos;
    return null;
  }

  /** `set -- …`, `shift`, a function body: null makes them unknown in this scope. */
  setPositional(p: ReadonlyArray<string | null> | null): void {
    this.pos = p;
  }

  /**
   * What a child process (a nested shell) may see: every variable assigned on this line. An
   * exported one is passed with its value; so is any other whose name the environment already
   * exported (`HOME=…; bash -c '$HOME'`), which the line cannot rule out; otherwise the child
   * sees it unset, which runs less. So the assigned value stands (never fewer commands than run).
   */
  env(positional: ReadonlyArray<string | null> | null = null): Vars {
    const out = new Vars(null, positional);
    for (let s: Vars | null = this; s !== null; s = s.parent) {
      if (s.own === null) continue;
      for (const [name, v] of s.own) if (out.own?.has(name) !== true) out.set(name, v, v === null ? s.ownAlts?.get(name) : undefined);
    }
    return out;
  }
}

/** `$0`…`$9`, `${10}`, `$@`, `$*`, `$#` → the parameter's name (`1`, `@`, …); null for anything else. */
export function positionalName(p: DynPart): string | null {
  if (p.kind !== 'param' || p.name !== undefined) return null;
  const m = /^\$(?:([0-9@*#])|\{([0-9]+|[@*#])\})$/.exec(p.src);
  return m === null ? null : (m[1] ?? m[2] ?? null);
}

/** A positional parameter's value when known (`$@` / `$*` joined by spaces); undefined otherwise. */
function positionalValue(name: string, vars: Vars | null): string | undefined {
  const pos = vars?.positional();
  if (pos === null || pos === undefined) return undefined;
  if (name === '#') return String(Math.max(0, pos.length - 1));
  if (name === '@' || name === '*') {
    const rest = pos.slice(1);
    if (rest.some((x) => x === null)) return undefined;
    return rest.join(' ');
  }
  const v = pos[Number(name)];
  return v === null ? undefined : (v ?? '');
}

/**
 * The value of an assignment's word (`B=$A`, `export B="$A"`): known variables substituted, no
 * field splitting, no brace expansion or globbing (as in bash).
 */
export function assignValue(w: Word, vars: Vars): { value: string; dynamic: boolean } {
  let value = '';
  let dynamic = false;
  let copied = 0;
  for (const p of w.parts) {
    if (p.type === 'lit') {
      value += p.text;
      continue;
    }
    const known = knownParam(p, vars);
    if (known !== undefined) {
      value += known;
      copied += known.length;
    } else {
      value += p.src;
      dynamic = true;
    }
  }
  checkValue(copied, w.start);
  return { value, dynamic };
}

/**
 * Copies can double a value per assignment (`x=$x$x`), and `"$@"` can repeat every argument:
 * what the line builds that way is bounded, and past the bound analysis fails closed (as bash
 * would run it, nothing can be left out).
 */
export const MAX_VALUE_CHARS = 16 * 1024;
/** Words one command's expansions may make from variables and positional parameters. */
export const MAX_EXPANDED_WORDS = 4096;

/** `copied`: characters a word took from variables and parameters. */
function checkValue(copied: number, at: number): void {
  if (copied > MAX_VALUE_CHARS) {
    throw new ShellParseError('too_large', `a value built from variables is longer than ${MAX_VALUE_CHARS} characters`, at);
  }
}

function checkWords(count: number, at: number): void {
  if (count > MAX_EXPANDED_WORDS) {
    throw new ShellParseError('too_large', `variables and parameters expand to more than ${MAX_EXPANDED_WORDS} words in one command`, at);
  }
}

/** A plain `$NAME` or positional parameter with a known value. */
function knownParam(p: DynPart, vars: Vars | null): string | undefined {
  if (p.name !== undefined) {
    const v = vars?.get(p.name);
    return typeof v === 'string' ? v : undefined;
  }
  const pn = positionalName(p);
  return pn === null ? undefined : positionalValue(pn, vars);
}

/** Upper bound on the words one brace expansion may produce. */
export const MAX_BRACE_WORDS = 1024;
/** Upper bound on the characters one brace expansion may copy (all its words and steps together). */
export const MAX_BRACE_ATOMS = 1 << 18;

type Atom = { ch: string; active: boolean } | { dyn: DynPart };

export function literalArg(value: string, start = 0): ArgWord {
  return { value, dynamic: false, glob: false, start };
}

/** The argv words one word expands to (several with brace expansion or a split variable). */
export function expandWord(w: Word, vars: Vars | null, braces = true): ArgWord[] {
  const out: ArgWord[] = [];
  expandWordInto(w, vars, out, braces);
  return out;
}

/** expandWord, appending to `out` (no array per word). */
export function expandWordInto(w: Word, vars: Vars | null, out: ArgWord[], braces = true): void {
  if (!braces || !mayHaveBraces(w.parts)) {
    resolve(w.parts, vars, w.start, out);
    return;
  }
  for (const parts of braceExpand(toAtoms(w.parts), w.start)) resolve(parts, vars, w.start, out);
}

/** Static value of a word without expansion (dynamic parts as their source). */
export function wordText(w: Word): { value: string; dynamic: boolean } {
  let value = '';
  let dynamic = false;
  for (const p of w.parts) {
    if (p.type === 'lit') value += p.text;
    else {
      value += p.src;
      dynamic = true;
    }
  }
  return { value, dynamic };
}

function resolve(parts: Part[], vars: Vars | null, start: number, out: ArgWord[]): void {
  const p0 = parts[0];
  if (parts.length === 1 && p0?.type === 'lit') {
    const text = p0.text;
    const w: ArgWord = { value: text, dynamic: false, glob: !p0.quoted && hasGlob(text), start };
    if (p0.quoted && text.startsWith('~')) w.qtilde = true;
    out.push(w);
    return;
  }
  // With IFS assigned on the line, unquoted expansions split differently: leave them run-time.
  const ifsChanged = vars !== null && vars.get('IFS') !== undefined;
  const only = parts.length === 1 ? parts[0] : loneExpansion(parts);
  if (only?.type === 'dyn') {
    if (only.kind === 'procsub' && only.src.startsWith('<(') && only.subs.length === 1 && only.subs[0] !== undefined) {
      out.push({ value: only.src, dynamic: true, glob: false, start, procSub: only.subs[0].body });
      return;
    }
    if (only.kind === 'cmdsub' && only.quoted && only.subs.length === 1 && only.subs[0] !== undefined) {
      out.push({ value: only.src, dynamic: true, glob: false, start, cmdSub: only.subs[0].body });
      return;
    }
    // `"$@"` → one word per parameter; unquoted `$@`/`$*` → each split on blanks.
    const pn = positionalName(only);
    const pos = pn === '@' || pn === '*' ? vars?.positional() : null;
    if (pos !== null && pos !== undefined && !pos.slice(1).some((x) => x === null) && !(ifsChanged && !only.quoted)) {
      const rest = pos.slice(1) as string[];
      checkWords(out.length + rest.length, start);
      if (only.quoted && pn === '@') for (const s of rest) out.push({ value: s, dynamic: false, glob: false, start });
      else if (only.quoted) out.push({ value: rest.join(' '), dynamic: false, glob: false, start });
      else for (const a of rest) for (const s of a.split(/[ \t\n]+/)) if (s !== '') out.push({ value: s, dynamic: false, glob: hasGlob(s), start });
      return;
    }
    // A lone unquoted known variable splits on blanks: `x="git push"; $x` → two words.
    if (!only.quoted && !ifsChanged) {
      const v = knownParam(only, vars);
      if (typeof v === 'string') {
        for (const s of v.split(/[ \t\n]+/)) if (s !== '') out.push({ value: s, dynamic: false, glob: hasGlob(s), start });
        checkWords(out.length, start);
        return;
      }
    }
  }
  let value = '';
  let dynamic = false;
  let copied = 0;
  let subs: Script[] | undefined;
  // hasGlob over the unquoted pieces only (quoted text and run-time parts cannot glob),
  // without building that text.
  let g = 0;
  for (const p of parts) {
    if (p.type === 'lit') {
      value += p.text;
      if (!p.quoted && g < 2) g = globState(p.text, g);
      continue;
    }
    const known = p.quoted || !ifsChanged ? knownParam(p, vars) : undefined;
    if (typeof known === 'string' && (p.quoted || !/[ \t\n]/.test(known))) {
      value += known;
      copied += known.length;
      if (!p.quoted && g < 2) g = globState(known, g);
      continue;
    }
    value += p.src;
    dynamic = true;
    for (const sub of p.subs) (subs ??= []).push(sub.body);
  }
  if (copied > 0) checkValue(copied, start);
  const word: ArgWord = { value, dynamic, glob: g === 2, start };
  if (subs !== undefined) word.subs = subs;
  if (p0?.type === 'lit' && p0.quoted && p0.text.startsWith('~')) word.qtilde = true;
  if (dynamic) {
    const alts = wordAlternatives(parts, vars, start, ifsChanged);
    if (alts !== undefined) word.alts = alts;
  }
  out.push(word);
}

/** `${NAME:-word}`, `${NAME-word}`, `${NAME:=word}`, `${NAME=word}` → the default's source text. */
const DEFAULT_PARAM = /^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(:?)[-=]([\s\S]*)\}$/;

/**
 * The literal values a run-time part may take: a variable's alternatives (Vars.setMaybe), or the
 * default of `${x:-word}` when `word` is plain literal text (quotes allowed, no expansion).
 */
function partOptions(p: DynPart, vars: Vars | null): readonly string[] | undefined {
  if (p.kind !== 'param') return undefined;
  if (p.name !== undefined) return vars?.alternatives(p.name);
  if (p.src.charCodeAt(1) !== 123 /* { */) return undefined;
  const m = DEFAULT_PARAM.exec(p.src);
  if (m?.[1] === undefined || m[3] === undefined) return undefined;
  // A variable assigned on the line: its value, or the default when bash would use it.
  const set = /^[A-Za-z_]/.test(m[1]) ? vars?.get(m[1]) : undefined;
  if (typeof set === 'string' && (set !== '' || m[2] === '')) return [set];
  const d = unquoteLiteral(m[3], p.quoted);
  if (typeof set === 'string') return d ?? undefined;
  const others = set === null ? (vars?.alternatives(m[1]) ?? []) : [];
  if (d === null) return others.length > 0 ? others : undefined;
  return others.length > 0 ? [...d, ...others] : d;
}

/**
 * A default word's value(s) when it is literal: quotes removed (inside double quotes, single
 * quotes may also stay: both values). Null when it holds an expansion.
 */
function unquoteLiteral(src: string, inDouble: boolean): string[] | null {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === '$' || c === '`') return null;
    if (c === '\\') {
      out += src.charAt(++i);
    } else if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) return null;
      out += src.slice(i + 1, j);
      i = j;
    } else if (c === '"') {
      const j = src.indexOf('"', i + 1);
      if (j < 0) return null;
      const inner = src.slice(i + 1, j);
      if (/[$`\\]/.test(inner)) return null;
      out += inner;
      i = j;
    } else out += c;
  }
  return inDouble && src !== out ? [out, src] : [out];
}

/**
 * The words a dynamic word becomes for each combination of its parts' literal alternatives (at
 * most MAX_ALTERNATIVES); undefined when no part has any. A lone unquoted expansion splits on
 * blanks, as bash would.
 */
function wordAlternatives(parts: Part[], vars: Vars | null, start: number, ifsChanged: boolean): ArgWord[][] | undefined {
  let options: Array<readonly string[] | undefined> | undefined;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as Part;
    if (p.type !== 'dyn') continue;
    const o = partOptions(p, vars);
    if (o === undefined || o.length === 0) continue;
    (options ??= new Array<readonly string[] | undefined>(parts.length))[i] = o;
  }
  if (options === undefined) return undefined;
  const split = parts.length === 1 && parts[0]?.type === 'dyn' && !parts[0].quoted && !ifsChanged;
  const result: ArgWord[][] = [];
  const choice = new Array<number>(parts.length).fill(0);
  for (;;) {
    let value = '';
    let dynamic = false;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] as Part;
      const o = options[i];
      if (p.type === 'lit') value += p.text;
      else if (o !== undefined) value += o[choice[i] as number] ?? '';
      else {
        const known = p.quoted || !ifsChanged ? knownParam(p, vars) : undefined;
        if (typeof known === 'string') value += known;
        else {
          value += p.src;
          dynamic = true;
        }
      }
    }
    checkValue(value.length, start);
    if (split) {
      const ws: ArgWord[] = [];
      for (const s of value.split(/[ \t\n]+/)) if (s !== '') ws.push({ value: s, dynamic: false, glob: hasGlob(s), start });
      result.push(ws);
    } else result.push([{ value, dynamic, glob: false, start }]);
    if (result.length >= MAX_ALTERNATIVES) break;
    // Next combination (odometer over the parts with options).
    let i = parts.length - 1;
    for (; i >= 0; i--) {
      const o = options[i];
      if (o === undefined) continue;
      if ((choice[i] as number) + 1 < o.length) {
        choice[i] = (choice[i] as number) + 1;
        break;
      }
      choice[i] = 0;
    }
    if (i < 0) break;
  }
  return result;
}

/** `"$@"` is parsed with empty quoted text around the expansion: the expansion alone, if so. */
function loneExpansion(parts: Part[]): DynPart | undefined {
  let found: DynPart | undefined;
  for (const p of parts) {
    if (p.type === 'lit') {
      if (p.text !== '') return undefined;
    } else if (found !== undefined) return undefined;
    else found = p;
  }
  return found?.quoted === true ? found : undefined;
}

/** Unquoted `*`, `?`, or `[` with a later `]`. */
export const hasGlob = (s: string): boolean => globState(s, 0) === 2;

/**
 * Glob scan of one piece of unquoted text, in one pass: 2 = a glob, 1 = an open `[` (a later
 * `]`, also in a later piece, makes a glob), 0 = neither; `state` is the result for the pieces before.
 */
function globState(s: string, state: number): number {
  let open = state === 1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 42 /* * */ || c === 63 /* ? */ || (c === 93 /* ] */ && open)) return 2;
    if (c === 91 /* [ */) open = true;
  }
  return open ? 1 : 0;
}

function mayHaveBraces(parts: Part[]): boolean {
  for (const p of parts) if (p.type === 'lit' && !p.quoted && p.text.includes('{')) return true;
  return false;
}

function toAtoms(parts: Part[]): Atom[] {
  const atoms: Atom[] = [];
  for (const p of parts) {
    if (p.type === 'dyn') atoms.push({ dyn: p });
    else for (const ch of p.text) atoms.push({ ch, active: !p.quoted });
  }
  return atoms;
}

function fromAtoms(atoms: Atom[]): Part[] {
  const parts: Part[] = [];
  for (const a of atoms) {
    if ('dyn' in a) {
      parts.push(a.dyn);
      continue;
    }
    const last = parts[parts.length - 1];
    if (last?.type === 'lit' && last.quoted === !a.active) last.text += a.ch;
    else parts.push({ type: 'lit', text: a.ch, quoted: !a.active });
  }
  return parts;
}

/**
 * Bash brace expansion over atoms: `{a,b}` alternatives and `{x..y[..n]}` sequences. Each step
 * finds the first group in one pass and copies the word once per alternative; the words and the
 * atoms copied are capped per word (`too_large`), and the caller charges what comes out to the
 * analysis's work budget.
 */
function braceExpand(atoms: Atom[], at: number): Part[][] {
  const results: Part[][] = [];
  const work: Atom[][] = [atoms];
  let copied = 0;
  while (work.length > 0) {
    const cur = work.pop();
    if (cur === undefined) break;
    const found = findBrace(cur);
    if (found === null) {
      results.push(fromAtoms(cur));
    } else {
      const prefix = cur.slice(0, found.open);
      const suffix = cur.slice(found.close + 1);
      // Reverse so the stack pops alternatives in order.
      for (let i = found.alternatives.length - 1; i >= 0; i--) {
        const alt = found.alternatives[i] ?? [];
        copied += prefix.length + alt.length + suffix.length;
        if (copied > MAX_BRACE_ATOMS) {
          throw new ShellParseError('too_large', `brace expansion makes more than ${MAX_BRACE_ATOMS} characters`, at);
        }
        work.push([...prefix, ...alt, ...suffix]);
      }
    }
    if (results.length + work.length > MAX_BRACE_WORDS) {
      throw new ShellParseError('too_large', `brace expansion makes more than ${MAX_BRACE_WORDS} words`, at);
    }
  }
  return results;
}

/**
 * The first brace group to expand: the leftmost `{` (not `${`) with a matching `}` whose
 * contents hold a `,` at their own level or form a sequence. One pass with a stack of open
 * braces (measured: the former scan from every `{` to the end took minutes on 64 KB of `{`).
 */
function findBrace(atoms: Atom[]): { open: number; close: number; alternatives: Atom[][] } | null {
  const opens: number[] = [];
  const commas: number[][] = [];
  let best: { open: number; close: number; commas: number[] } | null = null;
  for (let j = 0; j < atoms.length; j++) {
    const a = atoms[j];
    if (a === undefined || 'dyn' in a || !a.active) continue;
    if (a.ch === '{') {
      opens.push(j);
      commas.push([]);
    } else if (a.ch === '}') {
      const open = opens.pop();
      const cs = commas.pop();
      if (open === undefined || cs === undefined || (best !== null && best.open < open)) continue;
      const prev = atoms[open - 1];
      if (prev !== undefined && !('dyn' in prev) && prev.ch === '$') continue;
      if (cs.length > 0 || isSequence(atoms, open + 1, j)) best = { open, close: j, commas: cs };
    } else if (a.ch === ',' && opens.length > 0) {
      commas[commas.length - 1]?.push(j);
    }
  }
  if (best === null) return null;
  const { open, close } = best;
  if (best.commas.length > 0) {
    const alternatives: Atom[][] = [];
    let from = open + 1;
    for (const c of [...best.commas, close]) {
      alternatives.push(atoms.slice(from, c));
      from = c + 1;
    }
    return { open, close, alternatives };
  }
  const seq = sequence(atoms.slice(open + 1, close)) ?? [];
  return { open, close, alternatives: seq.map((s) => [...s].map((ch) => ({ ch, active: false }))) };
}

/** The longest text a valid sequence can have (`-9999999999..-9999999999..-9999999999`). */
const MAX_SEQUENCE_TEXT = 64;

function isSequence(atoms: Atom[], from: number, to: number): boolean {
  if (to - from > MAX_SEQUENCE_TEXT || to - from < 4) return false;
  let text = '';
  for (let i = from; i < to; i++) {
    const a = atoms[i];
    if (a === undefined || 'dyn' in a) return false;
    text += a.ch;
  }
  return SEQ_NUM.test(text) || SEQ_CHR.test(text);
}

const SEQ_NUM = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const SEQ_CHR = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/;

/** `{1..5}`, `{a..e}`, `{10..0..2}`; null when the text is not a valid sequence. */
function sequence(inner: Atom[]): string[] | null {
  let text = '';
  for (const a of inner) {
    if ('dyn' in a) return null;
    text += a.ch;
  }
  const num = SEQ_NUM.exec(text);
  const chr = SEQ_CHR.exec(text);
  const m = num ?? chr;
  if (m === null) return null;
  const a = num !== null ? parseInt(m[1] ?? '0', 10) : (m[1] ?? 'a').charCodeAt(0);
  const b = num !== null ? parseInt(m[2] ?? '0', 10) : (m[2] ?? 'a').charCodeAt(0);
  const step = Math.abs(parseInt(m[3] ?? '1', 10)) || 1;
  if (Math.abs(b - a) / step > MAX_BRACE_WORDS) {
    throw new ShellParseError('too_large', `brace sequence makes more than ${MAX_BRACE_WORDS} words`, 0);
  }
  const out: string[] = [];
  const dir = b >= a ? 1 : -1;
  for (let v = a; dir > 0 ? v <= b : v >= b; v += dir * step) {
    out.push(num !== null ? String(v) : String.fromCharCode(v));
  }
  return out;
}
