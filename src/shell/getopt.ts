/**
 * Option scanning for wrapper programs (`sudo`, `env`, `xargs`, …), getopt-style: bundled short
 * options, values attached or in the next word, GNU long options with `=` and unique prefixes,
 * `--`, and a stop at the first operand (the wrapped command). Anything not understood is
 * reported, never guessed.
 */
import type { ArgWord } from './word-value.ts';

export type LongKind = 'none' | 'required' | 'optional';

export interface OptionSpec {
  /** Short options, getopt syntax: `x` flag, `x:` takes a value, `x::` value only when attached. */
  short: string;
  long?: Record<string, LongKind>;
  /** `-5`, `-10` are options (old `nice` syntax). */
  numeric?: boolean;
  /** Options after which scanning stops (`env -S`: its words are read next). */
  stopAfter?: readonly string[];
  /** GNU permutation: operands may stand between options (`su root -c cmd`); `next` is then the end. */
  permute?: boolean;
}

export interface ParsedOption {
  /** Short letter or long name without dashes (long names resolved from prefixes). */
  name: string;
  value: string | null;
  /** The value holds a run-time expansion. */
  dynamic?: boolean;
  /** Index of the word after the one(s) holding this option. */
  end: number;
}

export type OptionScan =
  | { ok: true; options: ParsedOption[]; /** index of the first operand */ next: number; /** operands skipped (permute) */ operands: number[] }
  | { ok: false; reason: string };

function shortKind(spec: string, c: string): LongKind | null {
  const i = spec.indexOf(c);
  if (i === -1 || c === ':') return null;
  if (spec.charAt(i + 1) !== ':') return 'none';
  return spec.charAt(i + 2) === ':' ? 'optional' : 'required';
}

function longName(spec: Record<string, LongKind>, given: string): string | null {
  if (Object.hasOwn(spec, given)) return given;
  const matches = Object.keys(spec).filter((k) => k.startsWith(given));
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

/** Scans options of `args` from index `from` on. */
export function scanOptions(args: readonly ArgWord[], from: number, spec: OptionSpec): OptionScan {
  const options: ParsedOption[] = [];
  const operands: number[] = [];
  const stop = (): boolean => {
    const last = options[options.length - 1];
    return last !== undefined && spec.stopAfter !== undefined && spec.stopAfter.includes(last.name);
  };
  let i = from;
  while (i < args.length) {
    const w = args[i];
    if (w === undefined) break;
    const v = w.value;
    if (!v.startsWith('-') || v === '-') {
      if (spec.permute !== true) break;
      operands.push(i);
      i++;
      continue;
    }
    if (w.dynamic) return { ok: false, reason: `run-time option ${v}` };
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const given = eq === -1 ? v.slice(2) : v.slice(2, eq);
      const name = spec.long === undefined ? null : longName(spec.long, given);
      const kind = name === null ? undefined : spec.long?.[name];
      if (name === null || kind === undefined) return { ok: false, reason: `unknown option --${given}` };
      if (kind === 'none' && eq !== -1) return { ok: false, reason: `option --${name} takes no value` };
      if (eq !== -1) {
        options.push({ name, value: v.slice(eq + 1), end: i + 1 });
      } else if (kind === 'required') {
        const val = args[i + 1];
        if (val === undefined) return { ok: false, reason: `option --${name} needs a value` };
        options.push({ name, value: val.value, dynamic: val.dynamic, end: i + 2 });
        i++;
      } else {
        options.push({ name, value: null, end: i + 1 });
      }
      i++;
      if (stop()) break;
      continue;
    }
    if (spec.numeric === true && /^-\d+$/.test(v)) {
      options.push({ name: '#', value: v.slice(1), end: i + 1 });
      i++;
      continue;
    }
    let consumedNext = false;
    for (let k = 1; k < v.length; k++) {
      const c = v.charAt(k);
      const kind = shortKind(spec.short, c);
      if (kind === null) return { ok: false, reason: `unknown option -${c}` };
      if (kind === 'none') {
        options.push({ name: c, value: null, end: i + 1 });
        continue;
      }
      const attached = v.slice(k + 1);
      if (attached !== '' || kind === 'optional') {
        options.push({ name: c, value: attached === '' ? null : attached, end: i + 1 });
      } else {
        const val = args[i + 1];
        if (val === undefined) return { ok: false, reason: `option -${c} needs a value` };
        options.push({ name: c, value: val.value, dynamic: val.dynamic, end: i + 2 });
        consumedNext = true;
      }
      break;
    }
    i += consumedNext ? 2 : 1;
    if (stop()) break;
  }
  if (spec.permute === true) while (i < args.length) operands.push(i++);
  return { ok: true, options, next: i, operands };
}

export const has = (scan: { options: ParsedOption[] }, ...names: string[]): boolean =>
  scan.options.some((o) => names.includes(o.name));
