/**
 * Builtin program data and the one reader. Packs may add or extend programs with `programs:`.
 */
export { BUILTIN_GRAMMARS } from './builtin.ts';
export { builtinGrammars, lazyGrammars } from './lazy.ts';

export { dashedCommand, joinWords, mayRun, programData, readArgv, readWords, type ReadMode } from './reader.ts';
export { splitAliasWords } from './split.ts';
export { extendGrammar, mergeGrammar } from './merge.ts';
export type { Access, CommandGrammar, FileUse, FilesSpec, Grammars, ProgramGrammar, ReadArgs, Reading, Run, RunsSpec, Word } from './types.ts';
