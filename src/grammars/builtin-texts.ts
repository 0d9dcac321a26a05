/**
 * Each builtin program's data as JSON text, and an id of the whole set.
 *
 * As written here, the texts are computed from the objects (builtin.ts) when first imported:
 * that is what tests and the command bundles run. The hook bundle (dist/main.cjs) gets this
 * module replaced at build time by the same texts as string literals (scripts/build.mjs, plugin
 * `builtin-texts`), so a hook neither runs the data modules nor builds a hundred programs'
 * objects: a program's text is parsed when a command of it is first read (lazy.ts). Measured:
 * building the objects cost a warm hook about 0.75 ms, and carrying them in the compiled-pack
 * cache made that file 82 KB instead of 28 KB, to be read, verified and parsed on every hook
 * (docs/performance.md).
 */
import { BUILTIN_GRAMMARS } from './builtin.ts';
import { defineLazy } from './define-lazy.ts';

export const BUILTIN_TEXTS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(BUILTIN_GRAMMARS).map(([name, g]) => [name, JSON.stringify(g)]));

/**
 * Identifies the set of builtin texts (FNV-1a over names and texts): a compiled-pack cache
 * records which builtins it was compiled against, since it stores only the programs that packs
 * added or changed.
 */
export const BUILTIN_TEXTS_ID: string = textsId(BUILTIN_TEXTS);

export function textsId(texts: Readonly<Record<string, string>>): string {
  let h = 0x811c9dc5;
  for (const [name, text] of Object.entries(texts)) {
    for (const s of [name, '\0', text, '\0']) {
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    }
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * An object with one own, enumerable, configurable getter per builtin program, in the order of
 * BUILTIN_TEXTS; each calls `read(this, name)` (lazy.ts). The hook bundle's version of this
 * module makes it as one object literal, which V8 creates in one step; made here property by
 * property, as the tests and the command bundles run it, it takes about 0.1 ms more.
 */
export function builtinGetters(read: (self: object, name: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(BUILTIN_TEXTS)) defineLazy(out, name, read);
  return out;
}
