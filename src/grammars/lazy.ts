/**
 * Program data read from JSON texts when first looked up: the builtin programs' texts
 * (builtin-texts.ts) overlaid by a policy's own (the programs packs added or changed, as the
 * compiled-pack cache stores them). A text becomes an object on its first lookup and stays one.
 */
import { BUILTIN_TEXTS, builtinGetters } from './builtin-texts.ts';
import { defineLazy } from './define-lazy.ts';
import type { Grammars, ProgramGrammar } from './types.ts';

/** A text that is not a JSON object: `onBad` decides what to throw. */
export type BadText = (program: string) => Error;

const notAnObject: BadText = (program) => new Error(`the data of program '${program}' is not a JSON object`);

/**
 * Every builtin program, with `overrides` (name → JSON text, or a function that reads it on first
 * lookup) in place of the builtin of the same name or next to them; an empty text leaves that
 * program out. Own enumerable properties, so `Object.hasOwn` and `Object.keys` see every
 * program; each is a getter until first read.
 */
export function lazyGrammars(overrides: Readonly<Record<string, string | (() => string)>> = {}, onBad: BadText = notAnObject): Grammars {
  const read = (self: object, name: string): ProgramGrammar => {
    const own = Object.hasOwn(overrides, name) ? overrides[name] : undefined;
    const text = (own === undefined ? BUILTIN_TEXTS[name] : typeof own === 'function' ? own() : own) as string;
    let g: unknown;
    try {
      g = JSON.parse(text);
    } catch {
      throw onBad(name);
    }
    if (typeof g !== 'object' || g === null || Array.isArray(g)) throw onBad(name);
    Object.defineProperty(self, name, { value: g, enumerable: true, configurable: false, writable: false });
    return g as ProgramGrammar;
  };
  // Every builtin program at once (one object literal in the hook bundle: builtin-texts.ts);
  // a builtin's getter reads the override of the same name when there is one.
  const out = builtinGetters(read) as Record<string, ProgramGrammar>;
  for (const name in overrides) {
    if (overrides[name] === '') delete out[name];
    else if (!Object.hasOwn(BUILTIN_TEXTS, name)) defineLazy(out, name, read);
  }
  return out;
}

let builtins: Grammars | undefined;

/** The builtin programs alone (shared: nothing writes to it). */
export function builtinGrammars(): Grammars {
  return (builtins ??= lazyGrammars());
}
