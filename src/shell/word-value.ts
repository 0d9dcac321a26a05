/**
 * From a parsed word to the argv words bash would pass: brace expansion, then known-variable
 * substitution, then the static value. A part that is only known at run time keeps its source
 * text and makes the word dynamic.
 */
import type { DynPart, Part, Word } from './ast.ts';
import { ShellParseError } from './types.ts';

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
}

/**
 * Variables assigned earlier on the same line: a literal value, or null when assigned something
 * not known statically. A child scope (subshell, pipeline stage) sees its parent's variables and
 * keeps its own assignments to itself.
 */
export class Vars {
  private own: Map<string, string | null> | null = null;
  constructor(private readonly parent: Vars | null = null) {}

  /** The value; null = assigned but unknown; undefined = never assigned on this line. */
  get(name: string): string | null | undefined {
    for (let s: Vars | null = this; s !== null; s = s.parent) {
      const v = s.own?.get(name);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  set(name: string, value: string | null): void {
    (this.own ??= new Map()).set(name, value);
  }

  child(): Vars {
    return new Vars(this);
  }
}

/** Upper bound on the words one brace expansion may produce. */
export const MAX_BRACE_WORDS = 1024;

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
  // A lone unquoted known variable splits on blanks: `x="git push"; $x` → two words.
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.type === 'dyn' && !only.quoted && only.name !== undefined && vars !== null && !ifsChanged) {
    const v = vars.get(only.name);
    if (typeof v === 'string') {
      for (const s of v.split(/[ \t\n]+/)) if (s !== '') out.push({ value: s, dynamic: false, glob: hasGlob(s), start });
      return;
    }
  }
  let value = '';
  let dynamic = false;
  // hasGlob over the unquoted pieces only (quoted text and run-time parts cannot glob),
  // without building that text.
  let g = 0;
  for (const p of parts) {
    if (p.type === 'lit') {
      value += p.text;
      if (!p.quoted && g < 2) g = globState(p.text, g);
      continue;
    }
    const known = p.name !== undefined && vars !== null && (p.quoted || !ifsChanged) ? vars.get(p.name) : undefined;
    if (typeof known === 'string' && (p.quoted || !/[ \t\n]/.test(known))) {
      value += known;
      if (!p.quoted && g < 2) g = globState(known, g);
      continue;
    }
    value += p.src;
    dynamic = true;
  }
  const w: ArgWord = { value, dynamic, glob: g === 2, start };
  if (p0?.type === 'lit' && p0.quoted && p0.text.startsWith('~')) w.qtilde = true;
  out.push(w);
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

const isActive = (a: Atom | undefined, ch: string): boolean => a !== undefined && !('dyn' in a) && a.active && a.ch === ch;

/** Bash brace expansion over atoms: `{a,b}` alternatives and `{x..y[..n]}` sequences. */
function braceExpand(atoms: Atom[], at: number): Part[][] {
  const results: Part[][] = [];
  const work: Atom[][] = [atoms];
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
        work.push([...prefix, ...(found.alternatives[i] ?? []), ...suffix]);
      }
    }
    if (results.length + work.length > MAX_BRACE_WORDS) {
      throw new ShellParseError('too_large', `brace expansion makes more than ${MAX_BRACE_WORDS} words`, at);
    }
  }
  return results;
}

function findBrace(atoms: Atom[]): { open: number; close: number; alternatives: Atom[][] } | null {
  for (let open = 0; open < atoms.length; open++) {
    if (!isActive(atoms[open], '{')) continue;
    const prev = atoms[open - 1];
    if (prev !== undefined && !('dyn' in prev) && prev.ch === '$') continue;
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let j = open + 1; j < atoms.length; j++) {
      const a = atoms[j];
      if (isActive(a, '{')) depth++;
      else if (isActive(a, '}')) {
        if (depth === 0) {
          close = j;
          break;
        }
        depth--;
      } else if (depth === 0 && isActive(a, ',')) commas.push(j);
    }
    if (close === -1) continue;
    if (commas.length > 0) {
      const alternatives: Atom[][] = [];
      let from = open + 1;
      for (const c of [...commas, close]) {
        alternatives.push(atoms.slice(from, c));
        from = c + 1;
      }
      return { open, close, alternatives };
    }
    const seq = sequence(atoms.slice(open + 1, close));
    if (seq !== null) return { open, close, alternatives: seq.map((s) => [...s].map((ch) => ({ ch, active: false }))) };
  }
  return null;
}

/** `{1..5}`, `{a..e}`, `{10..0..2}`; null when the text is not a valid sequence. */
function sequence(inner: Atom[]): string[] | null {
  let text = '';
  for (const a of inner) {
    if ('dyn' in a) return null;
    text += a.ch;
  }
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(text);
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
