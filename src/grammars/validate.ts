/**
 * Checks a program grammar given as data (a pack's `programs:` entry). Returns the problems
 * found, each naming the field; an empty list means the value is a valid `ProgramGrammar`.
 */
import type { ProgramGrammar } from './types.ts';

const LEVEL_KEYS = ['value_options', 'long_options', 'synonyms', 'subcommands', 'aliases', 'nested'];
const PROGRAM_KEYS = [...LEVEL_KEYS, 'inherit_options', 'short_equals', 'abbreviations', 'inline_aliases', 'commands'];

const INLINE_ALIAS_STRINGS = ['option', 'prefix', 'env_option', 'env_key', 'env_value', 'env_parameters', 'config_command', 'dir_option'];
const INLINE_ALIAS_LISTS = ['config_value_options', 'config_read_only', 'config_rename', 'config_vars', 'include_keys'];
const INLINE_ALIAS_MAPS = ['option_vars'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

function checkLevel(v: Record<string, unknown>, at: string, keys: readonly string[], out: string[]): void {
  for (const k of Object.keys(v)) if (!keys.includes(k)) out.push(`${at}: unknown field "${k}"`);
  for (const k of ['value_options', 'long_options', 'commands']) {
    if (v[k] === undefined) continue;
    if (!isStringList(v[k])) out.push(`${at}: "${k}" must be a list of strings`);
    else if (k !== 'commands') for (const o of v[k]) if (!/^-/.test(o)) out.push(`${at}: "${k}" entry "${o}" must start with -`);
  }
  for (const k of ['synonyms', 'aliases']) if (v[k] !== undefined && !isStringMap(v[k])) out.push(`${at}: "${k}" must map strings to strings`);
  for (const k of ['nested', 'inherit_options', 'short_equals', 'abbreviations']) {
    if (v[k] !== undefined && typeof v[k] !== 'boolean') out.push(`${at}: "${k}" must be true or false`);
  }
  const ia = v['inline_aliases'];
  if (ia !== undefined && !(isObject(ia) && typeof ia['option'] === 'string' && typeof ia['prefix'] === 'string')) {
    out.push(`${at}: "inline_aliases" must be { option: string, prefix: string }`);
  } else if (isObject(ia)) {
    for (const [k, x] of Object.entries(ia)) {
      if (INLINE_ALIAS_STRINGS.includes(k)) {
        if (typeof x !== 'string') out.push(`${at}: "inline_aliases.${k}" must be a string`);
      } else if (INLINE_ALIAS_LISTS.includes(k)) {
        if (!isStringList(x)) out.push(`${at}: "inline_aliases.${k}" must be a list of strings`);
      } else if (INLINE_ALIAS_MAPS.includes(k)) {
        if (!isStringMap(x)) out.push(`${at}: "inline_aliases.${k}" must map strings to strings`);
      } else out.push(`${at}: unknown field "inline_aliases.${k}"`);
    }
  }
  const subs = v['subcommands'];
  if (subs === undefined) return;
  if (!isObject(subs)) {
    out.push(`${at}: "subcommands" must map names to grammars`);
    return;
  }
  for (const [name, sub] of Object.entries(subs)) {
    if (sub === null) continue;
    if (!isObject(sub)) out.push(`${at} ${name}: must be a mapping`);
    else checkLevel(sub, `${at} ${name}`, LEVEL_KEYS, out);
  }
}

export function grammarProblems(raw: unknown, program: string): string[] {
  const out: string[] = [];
  if (!isObject(raw)) return [`program "${program}": must be a mapping`];
  checkLevel(raw, `program "${program}"`, PROGRAM_KEYS, out);
  return out;
}

/** A checked grammar with `null` subcommand entries (`remove:` with no body) made empty. */
export function normaliseGrammar(raw: Record<string, unknown>): ProgramGrammar {
  const fix = (v: Record<string, unknown>): Record<string, unknown> => {
    const subs = v['subcommands'];
    if (!isObject(subs)) return v;
    const fixed: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(subs)) fixed[k] = s === null ? {} : fix(s as Record<string, unknown>);
    return { ...v, subcommands: fixed };
  };
  return fix(raw) as ProgramGrammar;
}
