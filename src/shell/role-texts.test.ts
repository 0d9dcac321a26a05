import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import type { ProgramGrammar } from '../grammars/types.ts';
import { analyzeLine } from './index.ts';

const psql: ProgramGrammar = { value_options: ['-c', '-f', '-h'], roles: { '-c': 'sql', '-f': 'sql_file' }, role_files: { sql_file: 'sql' }, stdin_role: 'sql' };
const programs = { ...BUILTIN_GRAMMARS, psql };
const files: Record<string, string | null> = { 'drop.sql': 'DROP TABLE t;', 'big.sql': null };
const readScript = (p: string): string | null | undefined => files[p];

function texts(line: string, withReader = true): unknown {
  const cmds = analyzeLine(line, withReader ? { programs, readScript } : { programs }).commands;
  return cmds.find((c) => c.argv[0] === 'psql')?.texts;
}

describe('ShellCommand.texts: what a command reads as a word of a role', () => {
  it.each<[string, unknown]>([
    ['psql < drop.sql', [{ role: 'sql', text: 'DROP TABLE t;' }]],
    ['cat drop.sql | psql', [{ role: 'sql', text: 'DROP TABLE t;' }]],
    ["psql <<'EOF'\nDROP TABLE x;\nEOF", [{ role: 'sql', text: 'DROP TABLE x;\n' }]],
    ['psql <<< "DROP TABLE x"', [{ role: 'sql', text: 'DROP TABLE x\n' }]],
    ["echo 'DROP TABLE y' | psql", [{ role: 'sql', text: 'DROP TABLE y\n' }]],
    ['psql -f drop.sql', [{ role: 'sql', text: 'DROP TABLE t;' }]],
    ['psql -f - < drop.sql', [{ role: 'sql', text: 'DROP TABLE t;' }]],
    // Cannot be read: missing, refused, known only at run time, written earlier on the line, produced by a program.
    ['psql -f missing.sql', [{ role: 'sql', text: null }]],
    ['psql -f big.sql', [{ role: 'sql', text: null }]],
    ['psql -f "$F"', [{ role: 'sql', text: null }]],
    ['psql < "$F"', [{ role: 'sql', text: null }]],
    ["echo 'DROP TABLE t' > drop.sql; psql -f drop.sql", [{ role: 'sql', text: null }]],
    ['cp other.sql drop.sql && psql < drop.sql', [{ role: 'sql', text: null }]],
    ['pg_dump a | psql', [{ role: 'sql', text: null }]],
    ['psql <<EOF\n$(cat x)\nEOF', [{ role: 'sql', text: null }]],
    // Nothing on standard input, no file: none.
    ["psql -c 'SELECT 1'", undefined],
    ['psql', undefined],
  ])('%s', (line, want) => {
    expect(texts(line)).toEqual(want);
  });
  it('without a file reader, a file is unread', () => {
    expect(texts('psql -f drop.sql', false)).toEqual([{ role: 'sql', text: null }]);
  });
  it('a program whose data has no stdin_role carries none', () => {
    const cmds = analyzeLine('grep x < drop.sql', { programs, readScript }).commands;
    expect(cmds[0]?.texts).toBeUndefined();
  });
});
