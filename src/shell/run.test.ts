/** Running by program data (run.ts): wrappers unwrapped, nested scripts, script files, the depth guard. */
import { describe, expect, it } from 'vitest';
import { NO_STDIN, type Stdin, mkCtx } from './context.ts';
import { argWords, parts, topCtx } from './parts.testing.ts';
import { looksBinary, toCommand } from './run.ts';
import { fmt } from './show.testing.ts';
import { ShellParseError, type ShellCommand } from './types.ts';
import { Vars, literalArg } from './word-value.ts';

const show = (out: readonly ShellCommand[]): string[] => out.map((c) => fmt(c) + (c.unseen === undefined ? '' : ` ⟪${c.unseen}⟫`));

describe('unwrap: a command and what it runs', () => {
  it.each<[string, string[]]>([
    ['git push', ['git push']],
    ['sudo -u ci git push', ['[sudo] git push']],
    ['nice timeout 5 git push', ['[nice > timeout] git push']],
    ["bash -c 'git push -f'", ["[bash -c] git push -f"]],
    ['$X push', ['?$X push ⟪runtime⟫']],
    ['git-push -f', ['git push -f']],
    ["find . -exec rm {} ';'", ['[find -exec] rm {}', "find . -exec rm {} ;"]],
    ["python3 -c 'import os; os.system(\"git push\")'", ['[python3 -c] git push', 'python3 -c ⟨import os; os.system("git push")⟩']],
    ['unknownprog a b', ['unknownprog a b']],
  ])('%j', (text, expected) => {
    const { walker, runner } = parts();
    runner.unwrap(argWords(text), [], NO_STDIN, topCtx());
    expect(show(walker.out)).toEqual(expected);
  });

  it.each<[string, Stdin, string[]]>([
    ['sh', { kind: 'text', text: 'git push\n', dynamic: false, label: '| %' }, ['[| sh] git push', 'sh']],
    ['sh', { kind: 'unknown', label: '| %' }, ['[| sh] ?sh ⟪runtime⟫', 'sh']],
    ['xargs git', { kind: 'text', text: 'push\n', dynamic: false, label: '| %' }, ['[xargs] git push']],
    ['python3', { kind: 'text', text: 'import os\nos.system("git push")\n', dynamic: false, label: '| %' }, ['[| python3] git push', 'python3']],
  ])('%j reading %j', (text, stdin, expected) => {
    const { walker, runner } = parts();
    runner.unwrap(argWords(text), [], () => stdin, topCtx());
    expect(show(walker.out)).toEqual(expected);
  });

  it('marks the words a walker fills in (`find DIR -exec CMD {} ;`)', () => {
    const { walker, runner } = parts();
    runner.unwrap(argWords("find src -exec rm {} ';'"), [], NO_STDIN, topCtx());
    expect(walker.out[0]?.walk).toEqual({ indices: [1], under: [{ value: 'src', dynamic: false }] });
  });
});

describe('innermost: the command a chain of wrappers runs', () => {
  it.each<[string, string]>([
    ['nice timeout 5 echo x', 'echo x'],
    ['echo x', 'echo x'],
    ['sudo $X', '$X'],
    ["bash -c 'echo x'", "bash -c echo x"],
  ])('%j → %j', (text, expected) => {
    const { runner } = parts();
    expect(runner.innermost(argWords(text)).map((w) => w.value).join(' ')).toBe(expected);
  });
});

describe('nested scripts and the one depth guard', () => {
  it.each<[depth: number, throws: boolean]>([
    [0, false],
    [7, false],
    [8, true],
  ])('a nested script from depth %d (maxDepth 8): too_deep %s', (depth, throws) => {
    const { walker, runner } = parts();
    const run = (): void => runner.nestedScript(literalArg('git push'), 'bash -c', [], mkCtx([], depth, new Vars(), false, NO_STDIN));
    if (!throws) {
      run();
      expect(show(walker.out)).toEqual(['[bash -c] git push']);
      return;
    }
    expect(run).toThrow(ShellParseError);
    expect(run).toThrow('scripts nested deeper than 8 levels');
  });

  it('a script file at the depth limit is too_deep too (same guard, same message)', () => {
    const { runner } = parts({ readScript: () => 'git push\n' });
    const run = (): void => runner.file(literalArg('x.sh'), 'bash x.sh', false, [], mkCtx([], 8, new Vars(), false, NO_STDIN));
    expect(run).toThrow('scripts nested deeper than 8 levels');
  });

  it.each<[string, string | null, boolean, string[]]>([
    ['a readable script', 'git push\n', false, ['[bash x.sh] git push']],
    ['an unreadable one', null, false, ['[bash x.sh] ?x.sh ⟪unreadable⟫']],
    ['run directly without a shell shebang', '#!/usr/bin/python3\nimport os\n', true, []],
    ['run directly, no #! at all', 'git push\n', true, ['[bash x.sh] git push']],
    ['run directly, looks binary', '\x7fELF\0\ngit push\n', true, []],
    ['a syntax error', 'if then\n', false, ['[bash x.sh] ?x.sh']],
  ])('file: %s', (_what, text, requireShebang, expected) => {
    const { walker, runner } = parts({ readScript: () => text });
    runner.file(literalArg('x.sh'), 'bash x.sh', requireShebang, [], topCtx());
    expect(show(walker.out)).toEqual(expected);
  });

  it('file: past maxScripts, a script is not read', () => {
    let reads = 0;
    const { walker, runner } = parts({ maxScripts: 1, readScript: () => (reads++, 'git status\n') });
    runner.file(literalArg('a.sh'), 'bash a.sh', false, [], topCtx());
    runner.file(literalArg('b.sh'), 'bash b.sh', false, [], topCtx());
    expect(reads).toBe(1);
    expect(show(walker.out)).toEqual(['[bash a.sh] git status', '[bash b.sh] ?b.sh ⟪unreadable⟫']);
  });
});

describe('helpers', () => {
  it.each<[string, boolean]>([
    ['#!/bin/sh\n', false],
    ['\x7fELF\0…', true],
    ['text\n\0 after the first line', false],
    ['x'.repeat(80) + '\0', false],
  ])('looksBinary(%j) = %s', (text, expected) => {
    expect(looksBinary(text)).toBe(expected);
  });

  it.each<[string, Partial<ShellCommand>]>([
    ['git push', { argv: ['git', 'push'], dynamic: [] }],
    ['git $X', { argv: ['git', '$X'], dynamic: [1] }],
    ["ls '~'/x", { argv: ['ls', '~/x'], dynamic: [], quoted_tilde: [1] }],
  ])('toCommand(%j)', (text, expected) => {
    expect(toCommand('git', argWords(text), ['v'], false)).toMatchObject({ ...expected, argv: ['git', ...(expected.argv ?? []).slice(1)], opaque: false, via: ['v'] });
  });
});
