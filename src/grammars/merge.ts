/**
 * A pack's `programs:` entry extends the program's data: mappings merge key by key (recursively),
 * lists add their new entries, anything else replaces. A pack may so add one subcommand, option
 * or wrapper role without restating the builtin data.
 */
import type { ProgramGrammar } from './types.ts';

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(base: Json, over: Json): Json {
  if (Array.isArray(base) && Array.isArray(over)) return [...base, ...over.filter((x) => !base.includes(x))];
  if (isObject(base) && isObject(over)) {
    const out: Record<string, Json> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = Object.hasOwn(base, k) ? merge(base[k], v) : v;
    return out;
  }
  return over;
}

export function mergeGrammar(base: ProgramGrammar | undefined, over: ProgramGrammar): ProgramGrammar {
  return base === undefined ? over : (merge(base, over) as ProgramGrammar);
}

function extend(base: Json, over: Json, at: string, kept: string[]): Json {
  if (Array.isArray(base) && Array.isArray(over)) return [...base, ...over.filter((x) => !base.includes(x))];
  if (isObject(base) && isObject(over)) {
    const out: Record<string, Json> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = Object.hasOwn(base, k) ? extend(base[k], v, at === '' ? k : `${at}.${k}`, kept) : v;
    return out;
  }
  if (JSON.stringify(base) !== JSON.stringify(over)) kept.push(at);
  return base;
}

/**
 * Like `mergeGrammar`, for packs that are not the person's own config (signed bundles, trusted
 * project rules): new programs, keys and list entries are added, but a value already there
 * (builtin or an earlier pack's) is kept; `kept` names each one a pack tried to change.
 */
export function extendGrammar(base: ProgramGrammar | undefined, over: ProgramGrammar): { grammar: ProgramGrammar; kept: string[] } {
  if (base === undefined) return { grammar: over, kept: [] };
  const kept: string[] = [];
  return { grammar: extend(base, over, '', kept) as ProgramGrammar, kept };
}
