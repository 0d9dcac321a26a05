/** The lexer's character-class table, written out for start-up speed, against its rules. */
import { describe, expect, it } from 'vitest';
import { CLASS, META_C, NAME_C, NAME_START_C, SPECIAL_C, isMetaCode, isNameCode, isNameStartCode } from './lexer.ts';

function fromRules(): number[] {
  const table = new Array<number>(128).fill(0);
  for (const c of ' \t\n;&|()<>') table[c.charCodeAt(0)] = META_C | SPECIAL_C;
  for (const c of '\\\'"$`') table[c.charCodeAt(0)] = SPECIAL_C;
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[0-9]/.test(ch)) table[c] = NAME_C;
    if (/[A-Za-z_]/.test(ch)) table[c] = NAME_START_C | NAME_C;
  }
  return table;
}

describe('character classes', () => {
  it('the written-out table is the one its rules give', () => {
    expect(Array.from(CLASS)).toEqual(fromRules());
  });
  it('reads outside ASCII and past the end as nothing special (the end of text ends a word)', () => {
    expect(isMetaCode(NaN)).toBe(true);
    expect(isMetaCode('é'.charCodeAt(0))).toBe(false);
    expect(isNameCode(0x41f)).toBe(false);
    expect(isNameStartCode('_'.charCodeAt(0))).toBe(true);
    expect(isNameStartCode('7'.charCodeAt(0))).toBe(false);
  });
});
