import { describe, expect, it } from 'vitest';
import { type OptionSpec, scanOptions } from './getopt.ts';
import { literalArg } from './word-value.ts';

const words = (s: string) => s.split(' ').map((w) => literalArg(w));
const SPEC: OptionSpec = { short: 'ab:c::', long: { alpha: 'none', beta: 'required', gamma: 'optional', 'gamma-ray': 'none' } };

describe('scanOptions', () => {
  it.each<[string, string[], number]>([
    ['x -a cmd', ['a'], 2],
    ['x -ab V cmd', ['a', 'b=V'], 3],
    ['x -abV cmd', ['a', 'b=V'], 2],
    ['x -c cmd', ['c'], 2],
    ['x -cV cmd', ['c=V'], 2],
    ['x --alpha --beta V cmd', ['alpha', 'beta=V'], 4],
    ['x --beta=V cmd', ['beta=V'], 2],
    ['x --al cmd', ['alpha'], 2],
    ['x --gamma=1 cmd', ['gamma=1'], 2],
    ['x -- -a', [], 2],
    ['x - cmd', [], 1],
    ['x cmd -a', [], 1],
  ])('%j', (text, options, next) => {
    const r = scanOptions(words(text), 1, SPEC);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.options.map((o) => (o.value === null ? o.name : `${o.name}=${o.value}`))).toEqual(options);
    expect(r.next).toBe(next);
  });

  it.each<[string, RegExp]>([
    ['x -z cmd', /unknown option -z/],
    ['x --zeta cmd', /unknown option --zeta/],
    ['x --gam cmd', /unknown option --gam/],
    ['x --alpha=1 cmd', /takes no value/],
    ['x -b', /needs a value/],
    ['x --beta', /needs a value/],
  ])('%j fails: %s', (text, reason) => {
    const r = scanOptions(words(text), 1, SPEC);
    expect(r.ok ? '' : r.reason).toMatch(reason);
  });

  it('does not guess at a run-time option word', () => {
    const args = [literalArg('x'), { value: '-$F', dynamic: true, glob: false, start: 0 }, literalArg('cmd')];
    expect(scanOptions(args, 1, SPEC).ok).toBe(false);
  });

  it('stops after a listed option and permutes when asked', () => {
    const stop = scanOptions(words('x -a -b V -c'), 1, { ...SPEC, stopAfter: ['b'] });
    expect(stop.ok && stop.next).toBe(4);
    const perm = scanOptions(words('x op1 -a op2 -bV'), 1, { ...SPEC, permute: true });
    expect(perm.ok && perm.operands).toEqual([1, 3]);
    expect(perm.ok && perm.options.map((o) => o.name)).toEqual(['a', 'b']);
  });
});
