/**
 * Text a command reads that is a word of one of its roles (program data `stdin_role`,
 * `role_files`): `psql < drop.sql`, `psql <<'EOF' … EOF`, `mysql <<< "DROP TABLE x"`,
 * `cat x.sql | psql`, `psql -f FILE`. Handed on as ShellCommand.texts, for rules that read the
 * role (the `sql` match field). Only programs whose data asks for it pay anything.
 */
import { readWords } from '../grammars/reader.ts';
import type { ProgramGrammar } from '../grammars/types.ts';
import type { StdinThunk } from './context.ts';
import type { RoleText, ScriptRead } from './types.ts';
import type { ArgWord } from './word-value.ts';

export interface RoleTextReaders {
  /** Reads a file as written on the line (null: cannot be read; undefined: no reader, or missing). */
  read: ((path: string) => ScriptRead) | undefined;
  /**
   * The commands of the line before this one that wrote or named the file (what is on disk may
   * then not be what the command reads).
   */
  writers: (path: string) => readonly { argv: readonly string[] }[];
}

/** The role texts of a command of `g`, or undefined when it has none. */
export function roleTexts(g: ProgramGrammar, prog: string, args: readonly ArgWord[], stdin: StdinThunk, readers: RoleTextReaders): RoleText[] | undefined {
  const out: RoleText[] = [];
  const r = readWords(args, g, prog, 'args');
  // Standard input when the line gives it one (a client given `-c` too may ignore it: read anyway).
  let fromStdin = g.stdin_role !== undefined;
  for (const [fileRole, role] of Object.entries(g.role_files ?? {})) {
    for (const value of r.roles.get(fileRole) ?? []) {
      // `psql -f -`: standard input.
      if (value === '-') {
        fromStdin = false;
        const s = stdinText(stdin, readers);
        if (s !== undefined) out.push({ role, text: s });
        continue;
      }
      const dynamic = args.some((a) => a.dynamic && a.value.endsWith(value));
      out.push({ role, text: dynamic ? null : fileText(value, readers) });
    }
  }
  if (fromStdin) {
    const s = stdinText(stdin, readers);
    if (s !== undefined) out.push({ role: g.stdin_role!, text: s });
  }
  return out.length === 0 ? undefined : out;
}

/** What the command reads on standard input: its text, null when it cannot be read, undefined when it reads none. */
function stdinText(stdin: StdinThunk, readers: RoleTextReaders): string | null | undefined {
  const s = stdin();
  if (s === null) return undefined;
  if (s.kind === 'text') return s.dynamic ? null : s.text;
  // `cat x.sql | psql`: the file cat prints (cat itself names it, and is no writer of it).
  if (s.kind === 'file') return s.path.dynamic || s.path.glob ? null : fileText(s.path.value, readers, s.from ?? []);
  return null;
}

function fileText(path: string, readers: RoleTextReaders, printedBy: readonly { argv: readonly string[] }[] = []): string | null {
  const printers = new Set(printedBy.map((c) => c.argv.join('\0')));
  if (readers.writers(path).some((c) => !printers.has(c.argv.join('\0'))) || readers.read === undefined) return null;
  const got = readers.read(path);
  if (typeof got === 'string') return got;
  if (got !== null && got !== undefined && typeof got === 'object') return got.text;
  return null;
}
