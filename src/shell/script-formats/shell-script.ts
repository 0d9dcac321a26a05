/**
 * Shell script files: which files a shell runs as a script (`*.sh`, `*.bash`, or a `#!` line
 * naming a POSIX shell or bash), as data. A pure reader: the caller reads the file; the text is
 * shell text as it stands. Git hooks (`.githooks/`, `.husky/`) are shell scripts unless their
 * `#!` line names another interpreter.
 */

/** File name endings that mark a shell script. */
export const SHELL_SCRIPT_ENDINGS: readonly string[] = ['.sh', '.bash'];

/** Interpreters a `#!` line may name for the file to be a shell script (`#!/usr/bin/env bash`). */
export const SHELL_INTERPRETERS: readonly string[] = ['sh', 'bash', 'dash', 'ash'];

/** Folders whose files git (or husky) runs as hooks. */
export const HOOK_FOLDERS: readonly string[] = ['.githooks', '.husky'];

/**
 * The interpreter a `#!` line names (the program after `/usr/bin/env` and its options), or
 * null when the text has no `#!` line.
 */
export function shebangInterpreter(text: string): string | null {
  if (!text.startsWith('#!')) return null;
  const end = text.indexOf('\n');
  const words = text.slice(2, end < 0 ? undefined : end).trim().split(/\s+/).filter((w) => w !== '');
  let i = 0;
  const base = (w: string): string => w.slice(w.lastIndexOf('/') + 1);
  if (words[0] !== undefined && base(words[0]) === 'env') {
    i = 1;
    while (i < words.length && (words[i] as string).startsWith('-')) i++;
    // `env VAR=value prog`
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string)) i++;
  }
  const prog = words[i];
  return prog === undefined ? '' : base(prog);
}

/** Whether a file named `name` holding `text` is a shell script (its `#!` line wins over its name). */
export function isShellScript(name: string, text: string): boolean {
  const interp = shebangInterpreter(text);
  if (interp !== null) return SHELL_INTERPRETERS.includes(interp);
  return SHELL_SCRIPT_ENDINGS.some((e) => name.endsWith(e));
}

/** Whether a git hook file holding `text` runs in a shell: a `#!` line naming one, or none (husky). */
export function isShellHook(text: string): boolean {
  const interp = shebangInterpreter(text);
  return interp === null || SHELL_INTERPRETERS.includes(interp);
}
