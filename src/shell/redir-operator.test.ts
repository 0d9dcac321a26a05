import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCdOptions, isRooted } from './analyze.ts';
import { digitsThenArrow, redirOperator } from './parser.ts';

const RE = /^(<<<|<<-|<<|<&|<>|<|>>|>&|>\||>)/;
const chars = fc.constantFrom('<', '>', '&', '|', '-', 'a', ' ', '1', '(');

describe('redirOperator matches the expression it replaces', () => {
  it.each(['<<<', '<<-', '<<', '<&', '<>', '<', '>>', '>&', '>|', '>', '<<<x', '>>>', '&>', 'a', '', '|>'])('%j', (s) => {
    expect(redirOperator(s)).toBe(RE.exec(s)?.[1]);
  });
  it('on any short text of the characters that matter', () => {
    fc.assert(fc.property(fc.array(chars, { maxLength: 4 }).map((a) => a.join('')), (s) => redirOperator(s) === RE.exec(s)?.[1]), { numRuns: 3000 });
  });
});

describe('digitsThenArrow, isRooted and isCdOptions match the expressions they replace', () => {
  const text = (cs: string[]) => fc.array(fc.constantFrom(...cs), { maxLength: 8 }).map((a) => a.join(''));
  it('digitsThenArrow', () => {
    const RE = /^[0-9]+[<>]/;
    fc.assert(fc.property(text(['1', '2', '<', '>', 'a', ' ']), fc.nat(3), (s, pos) => digitsThenArrow(s, pos) === RE.test(s.slice(pos, pos + 24))), { numRuns: 5000 });
    expect(digitsThenArrow(`${'1'.repeat(23)}>`, 0)).toBe(RE.test(`${'1'.repeat(23)}>`.slice(0, 24)));
    expect(digitsThenArrow(`${'1'.repeat(24)}>`, 0)).toBe(false);
  });
  it('isRooted', () => {
    const RE = /^(?:\/|~(?:\/|$)|\$\{?(?:HOME|TMPDIR)\}?(?:\/|$))/;
    for (const v of ['/', '/x', '~', '~/x', '~x', '$HOME', '${HOME}', '$HOME/x', '${HOME}/x', '$HOMEX', '${HOME', '$HOME}', '$TMPDIR', '${TMPDIR}/a', 'x', '', '$', '${}'])
      expect(isRooted(v), v).toBe(RE.test(v));
    fc.assert(fc.property(text(['/', '~', '$', '{', '}', 'HOME', 'TMPDIR', 'x']), (v) => isRooted(v) === RE.test(v)), { numRuns: 5000 });
  });
  it('isCdOptions', () => {
    const RE = /^-[LPe@]+$/;
    fc.assert(fc.property(text(['-', 'L', 'P', 'e', '@', 'x']), (v) => isCdOptions(v) === RE.test(v)), { numRuns: 5000 });
  });
});
