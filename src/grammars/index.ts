/** Builtin program grammars and the argv reader. Packs may add grammars with `programs:`. */
import { gh } from './gh.ts';
import { git } from './git.ts';
import type { Grammars } from './types.ts';

export const BUILTIN_GRAMMARS: Grammars = { git, gh };

export { readArgv } from './reader.ts';
export { splitAliasWords } from './split.ts';
export type { CommandGrammar, Grammars, ProgramGrammar, ReadArgs } from './types.ts';
