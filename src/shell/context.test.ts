/** The walk's shared context (context.ts): the one depth guard, memoised standard input, small helpers. */
import { describe, expect, it } from 'vitest';
import { type Stdin, basename, checkDepth, memo, utf8Length } from './context.ts';
import { ShellParseError } from './types.ts';

describe('checkDepth: the one depth guard', () => {
  it.each<[maxDepth: number, depth: number, throws: boolean]>([
    [8, 0, false],
    [8, 8, false],
    [8, 9, true],
    [0, 0, false],
    [0, 1, true],
  ])('maxDepth %d, depth %d → throws %s', (maxDepth, depth, throws) => {
    const run = (): void => checkDepth(maxDepth, depth, 17);
    if (!throws) return expect(run).not.toThrow();
    try {
      run();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ShellParseError);
      expect((e as ShellParseError).code).toBe('too_deep');
      expect((e as ShellParseError).message).toBe(`scripts nested deeper than ${maxDepth} levels`);
    }
  });
});

describe('memo', () => {
  it.each<[string, Stdin | null]>([
    ['a text', { kind: 'text', text: 'git push\n', dynamic: false, label: '| %' }],
    ['nothing (null is remembered too)', null],
  ])('computes %s once', (_what, value) => {
    let calls = 0;
    const thunk = memo(() => {
      calls++;
      return value;
    });
    expect(thunk()).toBe(value);
    expect(thunk()).toBe(value);
    expect(calls).toBe(1);
  });
});

describe('basename and utf8Length', () => {
  it.each<[string, string]>([
    ['git', 'git'],
    ['/usr/bin/git', 'git'],
    ['./x.sh', 'x.sh'],
    ['dir/', 'dir'],
    // (`/` alone names no program: empty.)
    ['/', ''],
  ])('basename(%j) = %j', (p, b) => {
    expect(basename(p)).toBe(b);
  });

  it.each<[string, number]>([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
  ])('utf8Length(%j) = %d', (s, n) => {
    expect(utf8Length(s)).toBe(n);
    expect(utf8Length(s)).toBe(Buffer.byteLength(s));
  });
});
