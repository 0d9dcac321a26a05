import { describe, expect, it } from 'vitest';
import { literalArg } from './word-value.ts';
import { MAX_XARGS_ITEMS, xargsCommands, xargsItems } from './xargs-input.ts';

const text = (t: string, dynamic = false) => ({ kind: 'text' as const, text: t, dynamic, label: '| %' });

describe('xargsItems (checked against GNU xargs 4.9)', () => {
  it.each<[string, boolean, string[] | null]>([
    ['push -f\n', false, ['push', '-f']],
    ["push 'a b' -f\n", false, ['push', 'a b', '-f']],
    ['a\\ b "c d"', false, ['a b', 'c d']],
    ['  git push -f\n\ngit status  \n', true, ['git push -f', 'git status  ']],
    ["git 'a b'  \"c\" d\\ e\n", true, ['git a b  c d e']],
    ["unterminated 'quote\n", false, null],
  ])('%j (lines: %s)', (input, lines, expected) => {
    expect(xargsItems(text(input), lines)).toEqual(expected);
  });

  // `-0`: items end at NUL bytes and are taken as they are (GNU xargs 4.9: `printf 'a b\0c\n"d"\0' | xargs -0` gives `a b`, `c⏎"d"`).
  it.each<[string, string[]]>([
    ['a b\0c\n"d"\0', ['a b', 'c\n"d"']],
    ['x y\0z', ['x y', 'z']],
    ["git push -f; echo 'x'", ["git push -f; echo 'x'"]],
    ['', []],
  ])('%j (nul)', (input, expected) => {
    expect(xargsItems(text(input), false, true)).toEqual(expected);
    expect(xargsItems(text(input), true, true)).toEqual(expected);
  });

  it('reads no items from /dev/null', () => {
    expect(xargsItems({ kind: 'file', path: literalArg('/dev/null'), label: '% <' }, false)).toEqual([]);
    expect(xargsItems({ kind: 'file', path: literalArg('./list'), label: '% <' }, false)).toBeNull();
  });

  it('needs literal input and few items', () => {
    expect(xargsItems(text('a\0'.repeat(MAX_XARGS_ITEMS + 1)), false, true)).toBeNull();
    expect(xargsItems(text('a'), false)).toEqual(['a']);
    expect(xargsItems(text('$x', true), false)).toBeNull();
    expect(xargsItems({ kind: 'unknown', label: '| %' }, false)).toBeNull();
    expect(xargsItems(null, false)).toBeNull();
    expect(xargsItems(text('a '.repeat(MAX_XARGS_ITEMS + 1)), false)).toBeNull();
  });
});

describe('xargsCommands', () => {
  const argv = ['sh', '-c', 'x {} {}'].map((v) => literalArg(v));
  it('substitutes every occurrence per item, or appends the items', () => {
    expect(xargsCommands(argv, '{}', ['a', 'b'])?.map((c) => c.map((w) => w.value))).toEqual([
      ['sh', '-c', 'x a a'],
      ['sh', '-c', 'x b b'],
    ]);
    expect(xargsCommands([literalArg('git')], null, ['push', '-f'])?.map((c) => c.map((w) => w.value))).toEqual([['git', 'push', '-f']]);
  });
  it('leaves too much substituted text run-time', () => {
    expect(xargsCommands(argv, '{}', ['x'.repeat(40_000)])).toBeNull();
  });
});
