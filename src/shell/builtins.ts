/**
 * The shell's own commands as the walk sees them: variables the line assigns (`X=v`, `export`,
 * `read`), positional parameters (`set --`, `shift`, a script's `$0 $1 …`), the working directory
 * (`cd`, `pushd`, `popd`) and what `echo`, `printf`, `cat` and `tee` print.
 */
import type { Word } from './ast.ts';
import { type Ctx, type Output, type Stdin, type Walker, basename } from './context.ts';
import type { PathWord, ShellCommand } from './types.ts';
import type { ArgWord, Vars } from './word-value.ts';

/** Distinct values recorded per variable in `assignments`; more are one unknown value. */
const MAX_ASSIGNED_VALUES = 16;
const ASSIGNING_BUILTINS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const READING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'unset', 'let']);

/**
 * Every variable the line may assign, with each value it may get (null: known only at run
 * time): prefix and plain assignments and `NAME=VALUE` arguments (`env`, `export`, `sudo`).
 * A superset, in no order: a consumer that must not miss an assignment reads it (git's
 * `GIT_CONFIG_*` aliases). `map` is null until something is assigned.
 */
export class Assigned {
  map: Map<string, (string | null)[]> | null = null;

  add(name: string, value: string | null): void {
    const all = (this.map ??= new Map());
    const list = all.get(name);
    if (list === undefined) all.set(name, [value]);
    else if (list.length >= MAX_ASSIGNED_VALUES) {
      // Linear work for any input: past the bound, one unknown value stands for the rest.
      if (list[list.length - 1] !== null) list.push(null);
    } else if (!list.includes(value)) list.push(value);
  }

  /** The `NAME=value` arguments of a command (`env A=1 cmd`, `sudo A=1 cmd`, `export A=1`). */
  addArguments(args: readonly ArgWord[]): void {
    for (let i = 1; i < args.length; i++) {
      const a = args[i] as ArgWord;
      const eq = a.value.indexOf('=');
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(a.value.slice(0, eq))) this.add(a.value.slice(0, eq), a.dynamic ? null : a.value.slice(eq + 1));
    }
  }
}

/** Variables a command sets: `export x=git` (known), `read x` (unknown); `set --`, `shift`; `cd`. */
export function varEffects(w: Walker, assigned: Assigned, args: ArgWord[], words: Word[], ctx: Ctx): void {
  const prog = args[0] !== undefined && !args[0].dynamic ? basename(args[0].value) : '';
  if (prog === 'cd' || prog === 'pushd' || prog === 'popd') {
    changeDir(prog, args, ctx.vars, ctx.cond);
  } else if (ASSIGNING_BUILTINS.has(prog)) {
    for (let i = 1; i < words.length; i++) {
      const word = words[i] as Word;
      // Declaration builtins take `NAME=value` as an assignment (no field splitting): `export B=$A`.
      const v = w.chargedAssign(word, ctx.vars);
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)([\s\S]*)$/.exec(v.value);
      if (m?.[1] === undefined) continue;
      const known = !v.dynamic && m[2] === '=' && !(m[3] ?? '').startsWith('(') && !hasBrace(word);
      if (ctx.cond) ctx.vars.setMaybe(m[1], known ? (m[3] ?? '') : null);
      else ctx.vars.set(m[1], known ? (m[3] ?? '') : null);
    }
  } else if (prog === 'shift' || prog === 'set') {
    const pos = ctx.vars.positional();
    const next = prog === 'set' ? setPositional(args, pos) : shiftPositional(args, pos);
    if (next !== undefined) ctx.vars.setPositional(ctx.cond ? null : next);
  } else if (READING_BUILTINS.has(prog)) {
    for (const a of args.slice(1)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(a.value);
      if (m?.[1] !== undefined) {
        ctx.vars.set(m[1], null);
        assigned.add(m[1], null);
      }
    }
  }
}

/** An unquoted `{` (brace expansion may apply). */
export function hasBrace(w: Word): boolean {
  return w.parts.some((p) => p.type === 'lit' && !p.quoted && p.text.includes('{'));
}

// ---- positional parameters ----------------------------------------------------------------------

type Positional = ReadonlyArray<string | null> | null;

/**
 * `$0 $1 …` from the words after a script (a run-time or glob word: that parameter is unknown);
 * none given: `$0` is unknown (the shell's name), no other parameter.
 */
export function positionalOf(words: readonly ArgWord[]): Array<string | null> {
  return words.length === 0 ? [null] : words.map((w) => (w.dynamic || w.glob ? null : w.value));
}

/**
 * The positional parameters after `set …`: `set -- a b`, `set a b`, `set -e x` replace them
 * (`$0` stays); `set -e`, `set -o x` leave them (undefined). A run-time option word: unknown.
 */
export function setPositional(args: ArgWord[], pos: Positional): Positional | undefined {
  for (let i = 1; i < args.length; i++) {
    const w = args[i] as ArgWord;
    if (w.dynamic) return null;
    if (w.value === '--' || w.value === '-') return [pos?.[0] ?? null, ...positionalOf(args.slice(i + 1))];
    if (!/^[-+]/.test(w.value)) return [pos?.[0] ?? null, ...positionalOf(args.slice(i))];
    // `-o NAME`, also bundled (`set -euo pipefail`): the next word is the option's name.
    if (w.value.includes('o')) i++;
  }
  return undefined;
}

/** `shift [N]`: the known parameters moved, or unknown. */
export function shiftPositional(args: ArgWord[], pos: Positional): Positional {
  const n = args.length === 1 ? 1 : args.length === 2 && /^[0-9]+$/.test(args[1]?.value ?? '') && args[1]?.dynamic === false ? Number(args[1]?.value) : -1;
  if (pos === null || n < 0) return null;
  // bash leaves them unchanged when N is larger than their count.
  return n > pos.length - 1 ? pos : [pos[0] ?? null, ...pos.slice(1 + n)];
}

// ---- the working directory ----------------------------------------------------------------------

/** The key the line's working directory is kept under in Vars (no variable can have this name). */
const CWD = ' cwd';
/** Marks a kept directory whose text holds a run-time part (`cd "$HOME/x"`). */
const DYN = '\u0001';

export function cwdOf(vars: Vars): PathWord | null | undefined {
  const v = vars.get(CWD);
  if (v === undefined || v === null) return v;
  return v.startsWith(DYN) ? { value: v.slice(1), dynamic: true } : { value: v, dynamic: false };
}

/** `cmd` with the directory it runs in (the line's `cd`s), unless it has one already. */
export function withCwd(cmd: ShellCommand, vars: Vars): ShellCommand {
  if (!('cwd' in cmd)) {
    const cwd = cwdOf(vars);
    if (cwd !== undefined) cmd.cwd = cwd;
  }
  return cmd;
}

/** A path that does not depend on the directory it is read in: `/x`, `~`, `~/x`, `$HOME/x`. */
/**
 * `/^(?:\/|~(?:\/|$)|\$\{?(?:HOME|TMPDIR)\}?(?:\/|$))/`, without a regular expression: `cd` is
 * in many agent command lines, and a hook would compile it every time (a test checks the two agree).
 */
export function isRooted(v: string): boolean {
  if (v.startsWith('/')) return true;
  if (v.startsWith('~')) return v.length === 1 || v[1] === '/';
  if (!v.startsWith('$')) return false;
  let i = 1;
  const brace = v[1] === '{';
  if (brace) i = 2;
  let name: string;
  if (v.startsWith('HOME', i)) name = 'HOME';
  else if (v.startsWith('TMPDIR', i)) name = 'TMPDIR';
  else return false;
  i += name.length;
  // `${?` and `}?` are independent in the expression: `$HOME}` and `${HOME` match too.
  if (v[i] === '}') i++;
  return i === v.length || v[i] === '/';
}

/** `-L`, `-P`, `-e`, `-@` and their combinations: `cd`'s options (`/^-[LPe@]+$/`). */
export function isCdOptions(v: string): boolean {
  if (v.length < 2 || v[0] !== '-') return false;
  for (let i = 1; i < v.length; i++) if (!'LPe@'.includes(v[i] as string)) return false;
  return true;
}

/** `cd DIR`, `pushd DIR`, `popd`: the directory later commands of this shell run in. */
export function changeDir(prog: string, args: ArgWord[], vars: Vars, cond: boolean): void {
  let target: ArgWord | undefined;
  let i = 1;
  while (i < args.length && isCdOptions(args[i]?.value ?? '')) i++;
  if (args[i]?.value === '--') i++;
  target = args[i];
  if (cond || prog === 'popd' || target?.value === '-' || (prog === 'pushd' && target !== undefined && /^[+-]\d+$/.test(target.value))) {
    vars.set(CWD, null);
    return;
  }
  const t = target === undefined ? (prog === 'cd' ? { value: '~', dynamic: false } : null) : target;
  if (t === null || (target?.glob ?? false)) {
    vars.set(CWD, null);
    return;
  }
  const value = t.value;
  if (t.dynamic && !(isRooted(value) && value.startsWith('$'))) {
    vars.set(CWD, null);
    return;
  }
  if (isRooted(value) && (target?.qtilde !== true || !value.startsWith('~'))) {
    vars.set(CWD, (t.dynamic ? DYN : '') + value);
    return;
  }
  const prev = vars.get(CWD);
  if (prev === null) return;
  vars.set(CWD, prev === undefined ? (value === '' ? '.' : value) : `${prev}/${value}`);
}

// ---- what the printing builtins print -----------------------------------------------------------

/**
 * What `prog args…` prints when it is one of the printing builtins (`echo`, `printf`, `cat`,
 * `tee`, `true`, `:`); undefined for any other program. `input`: what `cat`/`tee` read on
 * standard input; `readable`: script files can be read (`cat FILE` stands for the file).
 */
export function printed(prog: string, args: readonly ArgWord[], readable: boolean, input: () => Stdin | null): Output | undefined {
  const dynamic = args.some((a) => a.dynamic);
  if (prog === 'echo') return echoOutput(args, dynamic);
  if (prog === 'printf' && args.length >= 2) {
    if (args[1]?.value === '-v') return { text: '', dynamic: false };
    const from = args[1]?.value === '--' ? 2 : 1;
    if (from >= args.length) return null;
    const text = simplePrintf(args[from]?.value ?? '', args.slice(from + 1).map((a) => a.value));
    return text === null ? null : { text, dynamic };
  }
  if (prog === 'cat' || prog === 'tee') {
    // `tee FILE…` passes its input on (and writes it to the files).
    const files = prog === 'tee' ? [] : args.slice(1);
    if (files.length === 0 || (files.length === 1 && files[0]?.value === '-')) {
      const s = input();
      if (s === null || s.kind === 'unknown') return null;
      return s.kind === 'file' ? { file: s.path } : { text: s.text, dynamic: s.dynamic };
    }
    const f = files[0];
    if (readable && files.length === 1 && f !== undefined && !f.dynamic && !f.glob && !f.value.startsWith('-')) return { file: f };
    return null;
  }
  if (prog === 'true' || prog === ':') return { text: '', dynamic: false };
  return undefined;
}

function echoOutput(args: readonly ArgWord[], dynamic: boolean): Output {
  let i = 1;
  let newline = true;
  let escapes = false;
  while (i < args.length && /^-[neE]+$/.test(args[i]?.value ?? '')) {
    const f = args[i]?.value ?? '';
    if (f.includes('n')) newline = false;
    if (f.includes('e')) escapes = true;
    if (f.includes('E')) escapes = false;
    i++;
  }
  let text = args.slice(i).map((a) => a.value).join(' ');
  if (escapes) text = decodeEchoEscapes(text);
  return { text: newline ? text + '\n' : text, dynamic };
}

export function decodeEchoEscapes(s: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v', e: '\x1b' };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s.charAt(i + 1);
    if (n === 'c') return out;
    const m = map[n];
    if (m !== undefined) {
      out += m;
      i++;
    } else if (n === '0' || n === 'x') {
      const re = n === '0' ? /^0([0-7]{0,3})/ : /^x([0-9a-fA-F]{1,2})/;
      const mm = re.exec(s.slice(i + 1));
      if (mm === null) {
        out += c;
        continue;
      }
      out += String.fromCharCode(parseInt(mm[1] === '' ? '0' : (mm[1] ?? '0'), n === '0' ? 8 : 16));
      i += mm[0].length;
    } else out += c;
  }
  return out;
}

/** printf with only `%s`, `%b`, `%%` and backslash escapes; null for anything else. */
export function simplePrintf(fmt: string, args: string[]): string | null {
  if (/%[^sb%]/.test(fmt.replace(/%%/g, ''))) return null;
  const conversions = (fmt.match(/%[sb]/g) ?? []).length;
  let out = '';
  let k = 0;
  do {
    out += decodeEchoEscapes(
      fmt.replace(/%%|%[sb]/g, (m) => {
        if (m === '%%') return '%';
        const a = args[k++] ?? '';
        return m === '%b' ? a : a.replace(/\\/g, '\\\\');
      }),
    );
  } while (conversions > 0 && k < args.length);
  return out;
}
