/**
 * The builtin programs, as objects: what the pack compiler starts from and what tests read.
 * The hook path never imports this module (it would build every program's data on each start):
 * it reads the same data as JSON texts, one program at a time (builtin-texts.ts, lazy.ts).
 */
import { FILE_PROGRAMS } from './files.ts';
import { gh } from './gh.ts';
import { git } from './git.ts';
import { RUNNERS } from './runners.ts';
import type { Grammars } from './types.ts';

export const BUILTIN_GRAMMARS: Grammars = { ...FILE_PROGRAMS, ...RUNNERS, git, gh };
