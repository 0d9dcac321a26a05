/**
 * analyzeLine's `assignments`: every variable a line may assign, with each value it may get
 * (a superset: conditional and later assignments count too; null for a run-time value).
 */
import { describe, expect, it } from 'vitest';
import { analyzeLine } from './index.ts';

const assigned = (line: string): Record<string, readonly (string | null)[]> => Object.fromEntries(analyzeLine(line).assignments ?? []);

describe('analyzeLine: assignments', () => {
  it.each([
    ['A=1 git x', { A: ['1'] }],
    // a prefix assignment is not yet a known variable for the next one: unknown (the safe side)
    ["A='a b' B=\"$A\" git x", { A: ['a b'], B: [null] }],
    ['A=1; A=2; git x', { A: ['1', '2'] }],
    ['export A=1 B=2; git x', { A: ['1'], B: ['2'] }],
    ['env -i A=1 git x', { A: ['1'] }],
    ['sudo A=1 git x', { A: ['1'] }],
    ['A=$(date) git x', { A: [null] }],
    ['A=$V git x', { A: [null] }],
    ["V='push -f'; A=$V git x", { V: ['push -f'], A: ['push -f'] }],
    ['false && A=1', { A: ['1'] }],
    // the argument `A=1 git x` looks like an assignment too: a superset
    ["bash -c 'A=1 git x'", { A: ['1 git x', '1'] }],
    ['a[1]=x; arr=(1 2)', {}],
    ['git x', {}],
    ['make CFLAGS=-O2', { CFLAGS: ['-O2'] }],
    ['A=1; read A', { A: ['1', null] }],
    ['for A in x y; do git x; done', { A: [null] }],
  ])('%s', (line, want) => {
    expect(assigned(line)).toEqual(want);
  });

  it('keeps at most 16 values of a variable, then one unknown (linear work on any input)', () => {
    const line = Array.from({ length: 5000 }, (_, i) => `A=${i}`).join('; ');
    const values = analyzeLine(line).assignments?.get('A') ?? [];
    expect(values).toHaveLength(17);
    expect(values[16]).toBeNull();
  });

  it('gives the same commands as analyzeCommandLine', () => {
    expect(analyzeLine('A=1 git push; ls').commands.map((c) => c.argv)).toEqual([['git', 'push'], ['ls']]);
  });
});
