/** Calls of the functions and aliases a line defines (calls.ts): each call walked with its arguments, repeats dropped. */
import { describe, expect, it } from 'vitest';
import type { FunctionDef } from './ast.ts';
import { NO_STDIN } from './context.ts';
import { argWords, firstCommand, parts, topCtx } from './parts.testing.ts';
import { fmt } from './show.testing.ts';
import type { ShellCommand } from './types.ts';

describe('functions', () => {
  it.each<[def: string, call: string, expected: string[]]>([
    // Where it is defined, its arguments are unknown (`$@`); the call sees them.
    ['f() { git push "$@"; }', 'f -f', ['git push $@', 'git push -f']],
    ['f() { git "$1"; }', 'f status', ['git $1', 'git status']],
    // Calling itself: not followed again; a call adding nothing new adds nothing.
    ['f() { f; git push; }', 'f', ['f', 'git push']],
    ['f() { git push; }', 'g', ['git push']],
  ])('%s then %s', (def, call, expected) => {
    const { walker, calls } = parts();
    const ctx = topCtx();
    calls.defineFunction(firstCommand(def) as FunctionDef, ctx);
    const args = argWords(call);
    if (calls.defines(args[0]!.value)) calls.call(args[0]!.value, args, [], NO_STDIN, ctx);
    expect(walker.out.map(fmt)).toEqual(expected);
  });

  it('the same call with the same arguments is walked once', () => {
    const { walker, calls } = parts();
    const ctx = topCtx();
    calls.defineFunction(firstCommand('f() { git push "$@"; }') as FunctionDef, ctx);
    for (let i = 0; i < 3; i++) calls.call('f', argWords('f -f'), [], NO_STDIN, ctx);
    expect(walker.out.map(fmt)).toEqual(['git push $@', 'git push -f']);
  });

  it('what the body assigns may hold after the definition', () => {
    const { calls } = parts();
    const ctx = topCtx();
    calls.defineFunction(firstCommand('f() { v=-f; }') as FunctionDef, ctx);
    // One of the earlier value (none) and `-f`: unknown here, `-f` among its alternatives.
    expect(ctx.vars.get('v')).toBeNull();
    expect(ctx.vars.alternatives('v')).toContain('-f');
  });
});

describe('aliases', () => {
  it.each<[alias: string, call: string, expected: string[]]>([
    ['git push', 'p -f', ['[alias p] git push -f']],
    ['git push "$@"', 'p', ['[alias p] git push']],
    ['p', 'p', []],
  ])('alias p=%j then %j', (text, call, expected) => {
    const { walker, calls } = parts();
    calls.defineAlias('p', text, 0);
    expect(calls.defines('p')).toBe(true);
    calls.call('p', argWords(call), [], NO_STDIN, topCtx());
    expect(walker.out.map(fmt).filter((l) => l !== '[alias p] p')).toEqual(expected);
  });

  it('defines nothing until told', () => {
    const { calls } = parts();
    expect(calls.defines('p')).toBe(false);
  });
});

describe('dropRepeats: what a call found again is not reported twice', () => {
  const c = (line: string): ShellCommand => ({ argv: line.split(' '), dynamic: [], opaque: false, via: [] });
  it.each<[before: string[], after: string[], expected: string[]]>([
    [['a', 'b'], ['b', 'c'], ['a', 'b', 'c']],
    [[], ['a', 'a', 'b'], ['a', 'b']],
    [['a'], ['a'], ['a']],
    [['a'], [], ['a']],
  ])('%j then %j', (before, after, expected) => {
    const { walker, calls } = parts();
    walker.out.push(...before.map(c));
    calls.dropRepeats(walker.out.length);
    walker.out.push(...after.map(c));
    calls.dropRepeats(before.length);
    expect(walker.out.map((x) => x.argv.join(' '))).toEqual(expected);
  });

  it('starts over when out was cut back in between', () => {
    const { walker, calls } = parts();
    walker.out.push(c('a'), c('b'));
    calls.dropRepeats(2);
    walker.out.length = 1;
    walker.out.push(c('x'), c('b'));
    calls.dropRepeats(1);
    expect(walker.out.map((x) => x.argv.join(' '))).toEqual(['a', 'x', 'b']);
  });
});
