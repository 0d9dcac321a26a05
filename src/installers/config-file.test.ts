import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, jsonDepth, parseConfigBytes } from './config-file.ts';

describe('jsonDepth', () => {
  it.each<[string, number]>([
    ['1', 0],
    ['{}', 1],
    ['{"a":[1,{"b":[]}]}', 4],
    ['["[[[[", "{{{"]', 1],
    ['["a\\"[[[", "\\\\"]', 1],
    ['[[],[],[[]]]', 3],
  ])('%s -> %i', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });

  it('stops early past the limit', () => {
    expect(jsonDepth('['.repeat(1e6), 10)).toBe(11);
  });
});

describe('parseConfigBytes and depth', () => {
  it(`accepts ${MAX_DEPTH} levels and refuses one more, naming the file`, () => {
    const nest = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(() => parseConfigBytes('/c.json', nest(MAX_DEPTH))).not.toThrow();
    expect(() => parseConfigBytes('/c.json', nest(MAX_DEPTH + 1))).toThrow(
      expect.objectContaining({ code: 'malformed', file: '/c.json', message: expect.stringContaining('/c.json: nests more than 256 levels deep') }),
    );
  });
});
