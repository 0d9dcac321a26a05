import { describe, it, expect } from 'vitest';
import { detectStyle, rewritesContent, serialize, withoutLayout } from './json-text.ts';

const value = { version: 1, hooks: { stop: [{ command: 'x', timeout: 5 }] }, empty: [], none: {} };

describe('style round trip', () => {
  const styles: [string, string][] = [
    ['2 spaces + newline', `${JSON.stringify(value, null, 2)}\n`],
    ['4 spaces + newline', `${JSON.stringify(value, null, 4)}\n`],
    ['tabs + newline', `${JSON.stringify(value, null, '\t')}\n`],
    ['2 spaces, no final newline', JSON.stringify(value, null, 2)],
    ['CRLF', `${JSON.stringify(value, null, 2).replace(/\n/g, '\r\n')}\r\n`],
    ['compact', JSON.stringify(value)],
    ['compact + newline', `${JSON.stringify(value)}\n`],
  ];
  it.each(styles)('%s comes back byte-for-byte', (_name, text) => {
    const style = detectStyle(text, false);
    expect(serialize(JSON.parse(text), style)).toBe(text);
  });

  it('keeps a byte-order mark', () => {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    expect(serialize(value, detectStyle(text, true))).toBe(`\uFEFF${text}`);
  });
});

describe('rewritesContent', () => {
  it.each([
    ['{"a": 1}', false],
    ['{\n  "a": [1, 2],\n  "b": "x y"\n}', false],
    ['{"a": 1.0}', true],
    ['{"a": 1e3}', true],
    ['{"a": "\\u00e9"}', true],
    ['{"a": 1, "a": 2}', true],
    ['{"a": 12345678901234567890}', true],
  ])('%s → %s', (text, expected) => {
    expect(rewritesContent(text, JSON.parse(text))).toBe(expected);
  });

  it('keeps whitespace inside strings', () => {
    expect(withoutLayout('{ "a b" : "c\\" d" }')).toBe('{"a b":"c\\" d"}');
  });
});
