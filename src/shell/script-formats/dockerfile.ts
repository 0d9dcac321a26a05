/**
 * Dockerfiles: the `RUN` instructions, as shell text with where each line stands. A pure
 * reader: text in, pieces out. Shell form (`RUN make && make install`, continued lines, here-
 * documents) is shell text as /bin/sh is given it; exec form (`RUN ["bash", "-c", "…"]`) is its
 * argv, quoted into a command line. `RUN --mount=… --network=…` options are not the command.
 * After a `SHELL` instruction naming another interpreter (PowerShell, cmd), shell-form RUN
 * lines are not shell text and are left out; so is everything of a file whose escape
 * character is the backtick (a Windows image).
 */
import type { ScriptPiece } from './piece.ts';
import { SHELL_INTERPRETERS } from './shell-script.ts';

const INSTRUCTION = /^(\s*)([A-Za-z]+)(\s+|$)/;
const HEREDOC = /<<(-?)\s*(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/g;

/** Shell-quotes one word (single quotes unless it needs none). */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`;
}

export function dockerRuns(text: string): ScriptPiece[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  let escape = '\\';
  // Parser directives: `# escape=`` before anything else.
  for (const l of lines) {
    const d = /^#\s*escape\s*=\s*(\S)\s*$/i.exec(l);
    if (d) {
      escape = d[1] as string;
      continue;
    }
    if (!/^#\s*\w+\s*=/.test(l)) break;
  }
  if (escape !== '\\') return [];
  const out: ScriptPiece[] = [];
  let shellOk = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^\s*(#|$)/.test(line)) continue;
    const m = INSTRUCTION.exec(line);
    if (!m) continue;
    const kw = (m[2] as string).toUpperCase();
    // The instruction's text: continued lines (a trailing backslash), comment lines inside dropped.
    const parts: Array<{ text: string; line: number; column: number }> = [{ text: line.slice(m[0].length), line: i + 1, column: m[0].length + 1 }];
    while (/\\\s*$/.test((parts[parts.length - 1] as { text: string }).text) && i + 1 < lines.length) {
      i++;
      const next = lines[i] as string;
      if (/^\s*#/.test(next)) continue;
      parts.push({ text: next, line: i + 1, column: 1 });
      if (next.trim() === '') break;
    }
    if (kw === 'SHELL') {
      const argv = jsonArgv(parts.map((p) => p.text.replace(/\\\s*$/, '')).join(' '));
      const prog = argv?.[0];
      shellOk = prog !== undefined && SHELL_INTERPRETERS.includes(prog.slice(prog.lastIndexOf('/') + 1));
      continue;
    }
    if (kw !== 'RUN') continue;
    // Options (`--mount=type=cache,target=/root/.cache`) before the command.
    const first = parts[0] as { text: string; line: number; column: number };
    const opts = /^(?:--[A-Za-z-]+(?:=\S*)?\s+)*/.exec(first.text)?.[0] ?? '';
    first.text = first.text.slice(opts.length);
    first.column += opts.length;
    const joined = parts.map((p) => p.text.replace(/\\\s*$/, '')).join(' ').trim();
    const argv = joined.startsWith('[') ? jsonArgv(joined) : null;
    if (argv !== null) {
      if (argv.length > 0) out.push({ label: 'RUN (exec form)', text: argv.map(shellWord).join(' '), at: [[first.line, first.column]] });
      continue;
    }
    if (!shellOk) continue;
    // Here-documents: their bodies follow the instruction, up to each delimiter line.
    const docs = [...parts.map((p) => p.text).join('\n').matchAll(HEREDOC)];
    const body: Array<{ text: string; line: number; column: number }> = [];
    for (const d of docs) {
      const strip = d[1] === '-';
      while (i + 1 < lines.length) {
        i++;
        const l = lines[i] as string;
        body.push({ text: l, line: i + 1, column: 1 });
        if ((strip ? l.replace(/^\t+/, '') : l) === d[3]) break;
      }
    }
    // `RUN <<EOF` alone: the body is the script.
    const alone = docs.length === 1 && /^<<-?\s*(["']?)[A-Za-z_][A-Za-z0-9_]*\1\s*$/.test(joined);
    const pieces = alone ? body.slice(0, -1) : [...parts, ...body];
    if (pieces.length === 0) continue;
    out.push({ label: 'RUN', text: pieces.map((p) => p.text).join('\n'), at: pieces.map((p) => [p.line, p.column] as const) });
  }
  return out;
}

/** A JSON array of strings (exec form), or null. */
function jsonArgv(text: string): string[] | null {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  } catch {
    return null;
  }
}
