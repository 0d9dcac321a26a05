/**
 * Builtin program data and the one reader. Packs may add or extend programs with `programs:`.
 */
import { FILE_PROGRAMS } from './files.ts';
import { gh } from './gh.ts';
import { git } from './git.ts';
import { RUNNERS } from './runners.ts';
import type { Grammars } from './types.ts';

export const BUILTIN_GRAMMARS: Grammars = { ...FILE_PROGRAMS, ...RUNNERS, git, gh };

export { dashedCommand, joinWords, mayRun, programData, readArgv, readWords, type ReadMode } from './reader.ts';
export { splitAliasWords } from './split.ts';
export { mergeGrammar } from './merge.ts';
export type { Access, CommandGrammar, FileUse, FilesSpec, Grammars, ProgramGrammar, ReadArgs, Reading, Run, RunsSpec, Word } from './types.ts';
