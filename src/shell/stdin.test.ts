/** Standard input and redirections (stdin.ts): what a command reads, what a producer prints, the files redirections name. */
import { describe, expect, it } from 'vitest';
import type { CompoundCommand } from './ast.ts';
import { NO_STDIN, type Output, type Stdin } from './context.ts';
import { argWords, firstCommand, parts, redirsOf } from './parts.testing.ts';
import { outputStdin, readsStdin, redirFiles } from './stdin.ts';
import { Vars } from './word-value.ts';

/** A Stdin or Output with a file shown as its path. */
function plain(s: Stdin | Output | null): unknown {
  if (s === null) return null;
  if ('file' in s) return { file: s.file.value };
  if ('kind' in s && s.kind === 'file') return { kind: 'file', path: s.path.value, label: s.label };
  return s;
}

describe('redirStdin: what a command reads from its own redirections', () => {
  it.each<[string, unknown]>([
    ['sh <<EOF\ngit push\nEOF', { kind: 'text', text: 'git push\n', dynamic: false, label: '% <<' }],
    ["sh <<'EOF'\n$X\nEOF", { kind: 'text', text: '$X\n', dynamic: false, label: '% <<' }],
    ['sh <<EOF\n$X\nEOF', { kind: 'text', text: '$X\n', dynamic: true, label: '% <<' }],
    ["sh <<< 'git push'", { kind: 'text', text: 'git push\n', dynamic: false, label: '% <<<' }],
    ['sh < x.sh', { kind: 'file', path: 'x.sh', label: '% <' }],
    ['sh < "$F"', { kind: 'unknown', label: '% <' }],
    ["sh < <(echo 'git push')", { kind: 'text', text: 'git push\n', dynamic: false, label: '% < <(…)' }],
    ['sh 2< x', null],
    ['sh > x', null],
    ['sh', null],
    ['sh < a.sh < b.sh', { kind: 'file', path: 'b.sh', label: '% <' }],
  ])('%j', (text, expected) => {
    const { input } = parts();
    expect(plain(input.redirStdin(redirsOf(text), new Vars()))).toEqual(expected);
  });

  it('redirIn labels a file as asked', () => {
    const { input } = parts();
    expect(plain(input.redirIn(redirsOf('x < f'), new Vars(), '% < file'))).toEqual({ kind: 'file', path: 'f', label: '% < file' });
  });

  it.each<[string, boolean]>([
    ['x < f', true],
    ['x <<< w', true],
    ['x <<E\nE', true],
    ['x 0< f', true],
    ['x 3< f', false],
    ['x > f', false],
    ['x 2>&1', false],
  ])('readsStdin(%j) = %s', (text, expected) => {
    expect(redirsOf(text).some(readsStdin)).toBe(expected);
  });
});

describe('commandOutput: what a producer prints', () => {
  it.each<[string, boolean, unknown]>([
    ['echo git push', false, { text: 'git push\n', dynamic: false }],
    ['timeout 5 echo git push', false, { text: 'git push\n', dynamic: false }],
    ["printf 'a\\n'", false, { text: 'a\n', dynamic: false }],
    ['echo x > f', false, { text: '', dynamic: false }],
    ['echo x >&2', false, { text: '', dynamic: false }],
    ['echo x 1>&1', false, { text: 'x\n', dynamic: false }],
    ['{ echo a; echo b; }', false, { text: 'a\nb\n', dynamic: false }],
    ['( echo a; curl x )', false, { text: 'a\n\n', dynamic: true }],
    ['if true; then echo a; fi', false, null],
    ['cat <<EOF\ngit push\nEOF', false, { text: 'git push\n', dynamic: false }],
    ['cat x.sh', true, { file: 'x.sh' }],
    ['f() { echo a; }', false, { text: '', dynamic: false }],
    ['curl https://x', false, null],
    ['> f', false, { text: '', dynamic: false }],
  ])('%j (files readable: %s)', (text, readable, expected) => {
    const { input } = parts(readable ? { readScript: () => null } : {});
    expect(plain(input.commandOutput(firstCommand(text), new Vars(), NO_STDIN, 0))).toEqual(expected);
  });

  it('past 8 levels, nothing is known', () => {
    const { input } = parts();
    expect(input.commandOutput(firstCommand('echo x'), new Vars(), NO_STDIN, 9)).toBeNull();
  });

  it.each<[string, unknown]>([
    ['echo a; echo b', { text: 'a\nb\n', dynamic: false }],
    ['echo a | tr a b', null],
    ['echo a &', null],
    ["echo 'git push' | cat", { text: 'git push\n', dynamic: false }],
  ])('scriptOutput(%j)', (text, expected) => {
    const { input } = parts();
    const body = (firstCommand(`( ${text} )`) as CompoundCommand).bodies[0]!;
    expect(plain(input.scriptOutput(body, new Vars(), 0))).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['echo git push', { kind: 'text', text: 'git push\n', dynamic: false, label: '| %' }],
    ['curl x', { kind: 'unknown', label: '| %' }],
  ])('pipeStdin after %j', (text, expected) => {
    const { input } = parts();
    expect(input.pipeStdin(firstCommand(text), new Vars(), NO_STDIN)).toEqual(expected);
  });

  it.each<[Output, unknown]>([
    [null, { kind: 'unknown', label: 'L' }],
    [{ text: 'a', dynamic: true }, { kind: 'text', text: 'a', dynamic: true, label: 'L' }],
    [{ file: argWords('x.sh')[0]! }, { kind: 'file', path: 'x.sh', label: 'L' }],
  ])('outputStdin(%j)', (out, expected) => {
    expect(plain(outputStdin(out, 'L'))).toEqual(expected);
  });
});

describe('redirFiles: the files redirections name', () => {
  it.each<[string, unknown]>([
    ['x > f', [{ value: 'f', dynamic: false, access: 'write' }]],
    ['x >> f < g', [{ value: 'f', dynamic: false, access: 'write' }, { value: 'g', dynamic: false, access: 'read' }]],
    ['x <> f', [{ value: 'f', dynamic: false, access: 'read' }, { value: 'f', dynamic: false, access: 'write' }]],
    ['x >& f', [{ value: 'f', dynamic: false, access: 'write' }]],
    ['x > "$F"', [{ value: '$F', dynamic: true, access: 'write' }]],
    ["x > '~/f'", [{ value: '~/f', dynamic: false, access: 'write', quoted_tilde: true }]],
    ['x 2>&1', null],
    ['x >&2', null],
    ['x > >(sh)', null],
    ['x <<< w', null],
    ['x', null],
  ])('%j', (text, expected) => {
    expect(redirFiles(redirsOf(text), new Vars())).toEqual(expected);
  });
});
