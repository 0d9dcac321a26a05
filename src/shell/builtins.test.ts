/** The shell's own commands (builtins.ts): assignments, positional parameters, `cd`, what printing builtins print. */
import { describe, expect, it } from 'vitest';
import { Assigned, changeDir, cwdOf, decodeEchoEscapes, positionalOf, printed, setPositional, shiftPositional, simplePrintf, varEffects } from './builtins.ts';
import type { SimpleCommand } from './ast.ts';
import type { Stdin } from './context.ts';
import { argWords, firstCommand, parts, topCtx } from './parts.testing.ts';
import { Vars } from './word-value.ts';

describe('Assigned: every value a variable may get', () => {
  it.each<[string, Array<[string, string | null]>, Record<string, (string | null)[]>]>([
    ['one value', [['A', 'x']], { A: ['x'] }],
    ['repeats kept once', [['A', 'x'], ['A', 'x'], ['A', null], ['A', null]], { A: ['x', null] }],
    ['two variables', [['A', 'x'], ['B', 'y']], { A: ['x'], B: ['y'] }],
    ['past 16 values, one unknown stands for the rest', Array.from({ length: 20 }, (_, i): [string, string] => ['A', `v${i}`]), { A: [...Array.from({ length: 16 }, (_, i) => `v${i}`), null] }],
  ])('%s', (_what, adds, expected) => {
    const a = new Assigned();
    for (const [n, v] of adds) a.add(n, v);
    expect(Object.fromEntries(a.map ?? [])).toEqual(expected);
  });

  it('is null until something is assigned', () => {
    expect(new Assigned().map).toBeNull();
  });

  it.each<[string, Record<string, (string | null)[]> | null]>([
    ['env A=1 B=$X git push', { A: ['1'], B: [null] }],
    ['sudo GIT_DIR=/x git push', { GIT_DIR: ['/x'] }],
    ['echo 1=a =b a-b=c', null],
    ['A=1 git push', null],
  ])('NAME=value arguments of %j', (text, expected) => {
    const a = new Assigned();
    a.addArguments(argWords(text));
    expect(a.map === null ? null : Object.fromEntries(a.map)).toEqual(expected);
  });
});

describe('varEffects: what a builtin does to the variables', () => {
  it.each<[string, Record<string, string | null | undefined>]>([
    ['export A=git', { A: 'git' }],
    ['export A=$X', { A: null }],
    ['export A+=x', { A: null }],
    ['export A=(x y)', { A: null }],
    ['declare -x B=push', { B: 'push' }],
    ['read A B', { A: null, B: null }],
    ['printf -v A x', { A: null }],
    ['echo A=x', { A: undefined }],
  ])('%j', (text, expected) => {
    const { walker } = parts();
    const vars = new Vars();
    const cmd = firstCommand(text) as SimpleCommand;
    varEffects(walker, new Assigned(), argWords(text, vars), cmd.words, topCtx(vars));
    for (const [name, value] of Object.entries(expected)) expect(vars.get(name)).toBe(value);
  });

  it.each<[string, Array<string | null> | null]>([
    ['set -- a b', [null, 'a', 'b']],
    ['set -euo pipefail', null],
    ['shift', [null, 'y']],
  ])('positional parameters after %j (were $0 x y for shift)', (text, expected) => {
    const { walker } = parts();
    const vars = new Vars(null, text === 'shift' ? [null, 'x', 'y'] : null);
    const cmd = firstCommand(text) as SimpleCommand;
    varEffects(walker, new Assigned(), argWords(text, vars), cmd.words, topCtx(vars));
    expect(vars.positional()).toEqual(expected);
  });
});

describe('positional parameters', () => {
  it.each<[string, Array<string | null>]>([
    ['', [null]],
    ['bash a b', ['bash', 'a', 'b']],
    ['x $Y *.c', ['x', null, null]],
  ])('positionalOf(%j)', (text, expected) => {
    expect(positionalOf(text === '' ? [] : argWords(text))).toEqual(expected);
  });

  it.each<[string, Array<string | null> | null, Array<string | null> | null | undefined]>([
    ['set -- a b', ['s', 'x'], ['s', 'a', 'b']],
    ['set a b', ['s'], ['s', 'a', 'b']],
    ['set -e x', ['s'], ['s', 'x']],
    ['set -e', ['s', 'x'], undefined],
    ['set -o errexit', ['s', 'x'], undefined],
    ['set $X', ['s', 'x'], null],
  ])('setPositional(%j) from %j', (text, pos, expected) => {
    expect(setPositional(argWords(text), pos)).toEqual(expected);
  });

  it.each<[string, Array<string | null> | null, Array<string | null> | null]>([
    ['shift', ['s', 'a', 'b'], ['s', 'b']],
    ['shift 2', ['s', 'a', 'b', 'c'], ['s', 'c']],
    ['shift 5', ['s', 'a'], ['s', 'a']],
    ['shift $N', ['s', 'a'], null],
    ['shift', null, null],
  ])('shiftPositional(%j) from %j', (text, pos, expected) => {
    expect(shiftPositional(argWords(text), pos)).toEqual(expected);
  });
});

describe('cd: the directory later commands run in', () => {
  it.each<[lines: string[], cond: boolean, cwd: { value: string; dynamic: boolean } | null | undefined]>([
    [['cd /r'], false, { value: '/r', dynamic: false }],
    [['cd /r', 'cd sub'], false, { value: '/r/sub', dynamic: false }],
    [['cd sub'], false, { value: 'sub', dynamic: false }],
    [['cd'], false, { value: '~', dynamic: false }],
    [['cd -P -- /x'], false, { value: '/x', dynamic: false }],
    [['cd "$HOME/x"'], false, { value: '$HOME/x', dynamic: true }],
    [['cd $D'], false, null],
    [['cd -'], false, null],
    [['popd'], false, null],
    [['pushd +1'], false, null],
    [['cd /r'], true, null],
  ])('%j (conditional: %s)', (lines, cond, expected) => {
    const vars = new Vars();
    for (const l of lines) {
      const args = argWords(l, vars);
      changeDir(args[0]?.value ?? '', args, vars, cond);
    }
    expect(cwdOf(vars)).toEqual(expected);
  });
});

describe('what printing builtins print', () => {
  const none = (): Stdin | null => null;
  it.each<[string, boolean, { text: string; dynamic: boolean } | { file: string } | null | undefined]>([
    ['echo git push', false, { text: 'git push\n', dynamic: false }],
    ['echo -n git push', false, { text: 'git push', dynamic: false }],
    ['echo -e "a\\nb"', false, { text: 'a\nb\n', dynamic: false }],
    ['echo $X', false, { text: '$X\n', dynamic: true }],
    ["printf '%s\\n' a b", false, { text: 'a\nb\n', dynamic: false }],
    ['printf -v V x', false, { text: '', dynamic: false }],
    ["printf '%d' 1", false, null],
    ['printf', false, undefined],
    ['cat x.sh', true, { file: 'x.sh' }],
    ['cat x.sh', false, null],
    ['cat a b', true, null],
    ['cat', true, null],
    ['true', false, { text: '', dynamic: false }],
    [': x', false, { text: '', dynamic: false }],
    ['curl https://x', false, undefined],
  ])('%j (files readable: %s)', (text, readable, expected) => {
    const args = argWords(text);
    const out = printed(args[0]?.value ?? '', args, readable, none);
    expect(out !== null && out !== undefined && 'file' in out ? { file: out.file.value } : out).toEqual(expected);
  });

  it.each<[string, Stdin | null, { text: string; dynamic: boolean } | null]>([
    ['cat', { kind: 'text', text: 'git push\n', dynamic: false, label: '| %' }, { text: 'git push\n', dynamic: false }],
    ['tee log', { kind: 'text', text: 'x', dynamic: true, label: '| %' }, { text: 'x', dynamic: true }],
    ['cat -', { kind: 'unknown', label: '| %' }, null],
  ])('%j passes its input on', (text, input, expected) => {
    const args = argWords(text);
    expect(printed(args[0]?.value ?? '', args, false, () => input)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['a\\tb', 'a\tb'],
    ['a\\cb', 'a'],
    ['\\0101', 'A'],
    ['\\x41', 'A'],
    ['\\q', '\\q'],
  ])('decodeEchoEscapes(%j)', (s, expected) => {
    expect(decodeEchoEscapes(s)).toBe(expected);
  });

  it.each<[string, string[], string | null]>([
    ['%s-%s\\n', ['a', 'b', 'c'], 'a-b\nc-\n'],
    ['100%%', [], '100%'],
    ['%b', ['a\\nb'], 'a\nb'],
    ['%s', ['a\\nb'], 'a\\nb'],
    ['%5s', ['a'], null],
  ])('simplePrintf(%j, %j)', (fmt, args, expected) => {
    expect(simplePrintf(fmt, args)).toBe(expected);
  });
});
