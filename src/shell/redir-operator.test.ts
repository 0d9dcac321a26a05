import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redirOperator } from './parser.ts';

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
