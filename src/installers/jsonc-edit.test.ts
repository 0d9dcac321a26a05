import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { editJsonText } from './jsonc-edit.ts';
import { parseJsonc, stripComments, JsoncError, jsoncTree } from './jsonc.ts';
import { DEFAULT_STYLE, detectStyle, serialize } from './json-text.ts';

const SETTINGS = `{
  // The model I use every day
  "model": { "name": "gemini-2.5-pro" }, /* keep */

  "hooks": {
    "enabled": true, // hooks on
    "BeforeTool": [
      // my formatter
      { "matcher": "write_file", "hooks": [{ "type": "command", "command": "npx prettier --write" }] }
    ]
  }
  // trailing note
}
`;

describe('parseJsonc', () => {
  it.each([
    ['{"a": 1} // c', { a: 1 }],
    ['/* head */ {"a": "//not a comment", "b": "/* nor this */"}', { a: '//not a comment', b: '/* nor this */' }],
    ['{"a": [1, /* two */ 2]}', { a: [1, 2] }],
    ['{"a": "\\"//"}', { a: '"//' }],
    ['{"a": 1, "a": 2}', { a: 2 }],
  ])('%s', (text, value) => {
    expect(parseJsonc(text)).toEqual(value);
  });

  it.each([
    ['{"a": 1,}', /trailing comma before \}/],
    ['{"a": [1, 2,]}', /trailing comma before \]/],
    ['{"a": 1 /* open', /never closed/],
    ["{'a': 1}", /property name in double quotes/],
    ['{"a": 1} x', /unexpected text after the end/],
    ['{"a": 01}', /JSON/],
  ])('refuses %s (the harnesses refuse it too)', (text, why) => {
    expect(() => parseJsonc(text)).toThrow(JsoncError);
    expect(() => parseJsonc(text)).toThrow(why);
  });

  it('blanks comments without moving anything', () => {
    const stripped = stripComments(SETTINGS);
    expect(stripped).toHaveLength(SETTINGS.length);
    expect(stripped.split('\n')).toHaveLength(SETTINGS.split('\n').length);
    expect(JSON.parse(stripped)).toEqual(parseJsonc(SETTINGS));
  });
});

describe('editJsonText', () => {
  const style = detectStyle(SETTINGS, false);
  const value = parseJsonc(SETTINGS) as { hooks: { BeforeTool: unknown[] } };
  const buckler = { matcher: '^run_shell_command$', hooks: [{ type: 'command', name: 'buckler', command: 'node b.cjs', timeout: 10000 }] };

  it('adds an entry and keeps every comment and line around it', () => {
    const next = { ...value, hooks: { ...value.hooks, BeforeTool: [...value.hooks.BeforeTool, buckler], AfterTool: [buckler] } };
    const out = editJsonText(SETTINGS, next, style);
    expect(parseJsonc(out)).toEqual(next);
    for (const line of SETTINGS.split('\n')) expect(out).toContain(line.replace(/\]$/, ''));
    expect(out).toContain('      // my formatter\n      { "matcher": "write_file"');
    // And removing it again gives the original bytes.
    expect(editJsonText(out, value, style)).toBe(SETTINGS);
  });

  it('replaces one value in place', () => {
    const next = { ...value, model: { name: 'gemini-3' } };
    expect(editJsonText(SETTINGS, next, style)).toBe(SETTINGS.replace('"gemini-2.5-pro"', '"gemini-3"'));
  });

  it('removes a key with its comma, leaving the comment after the one before it', () => {
    const { model: _m, ...rest } = value as unknown as Record<string, unknown>;
    const out = editJsonText(SETTINGS, rest, style);
    expect(parseJsonc(out)).toEqual(rest);
    expect(out).toContain('// The model I use every day');
    expect(out).toContain('// trailing note');
  });

  it('adds to an empty object and to a file on one line', () => {
    expect(editJsonText('{}\n', { a: [1] }, DEFAULT_STYLE)).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(editJsonText('{}\n', { a: [1] }, detectStyle('{}\n', false))).toBe('{"a":[1]}\n');
    expect(editJsonText('{"a": 1}', { a: 1, b: 2 }, DEFAULT_STYLE)).toBe('{"a": 1, "b": 2}');
    expect(editJsonText('{"a":1}', { a: 1, b: 2 }, detectStyle('{"a":1}', false))).toBe('{"a":1,"b":2}');
    expect(editJsonText('{ // only a comment\n}', { a: 1 }, DEFAULT_STYLE)).toBe('{ // only a comment\n  "a": 1\n}');
  });

  it('removing the only entry after a line comment keeps the closing bracket off the comment', () => {
    expect(editJsonText('{\n  // c\n  "a": 1}', {}, DEFAULT_STYLE)).toBe('{\n  // c\n}');
    expect(editJsonText('{\n  // c\n  "a": 1\n}', {}, DEFAULT_STYLE)).toBe('{\n  // c\n}');
    expect(editJsonText('{ /* c */ "a": 1}', {}, DEFAULT_STYLE)).toBe('{ /* c */}');
  });

  it('keeps a comment that ends the last line with that line', () => {
    const text = '{\n  "a": 1 // about a\n}\n';
    expect(editJsonText(text, { a: 1, b: 2 }, detectStyle(text, false))).toBe('{\n  "a": 1, // about a\n  "b": 2\n}\n');
  });

  it('keeps CRLF and tabs', () => {
    const text = '{\r\n\t"a": 1 // c\r\n}\r\n';
    const out = editJsonText(text, { a: 1, b: { c: true } }, detectStyle(text, false));
    expect(out).toBe('{\r\n\t"a": 1, // c\r\n\t"b": {\r\n\t\t"c": true\r\n\t}\r\n}\r\n');
  });

  it('writes an object with repeated keys anew (as the harness reads it)', () => {
    expect(parseJsonc(editJsonText('{"a": {"x": 1, "x": 2}}', { a: { x: 3 } }, DEFAULT_STYLE))).toEqual({ a: { x: 3 } });
  });

  // Random values, random edits: the result always reads as the new value, a plain JSON text
  // edited to a value and back is byte-for-byte the original, and comments survive.
  const json = fc.jsonValue({ maxDepth: 3 });
  const objects = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'hooks', '__proto__', 'd e'), json, { maxKeys: 5 });
  it('reads as the new value; there and back is the identity', () => {
    fc.assert(
      fc.property(objects, objects, fc.constantFrom('  ', '    ', '\t', ''), fc.boolean(), (a, b, indent, crlf) => {
        const s = { ...DEFAULT_STYLE, indent, eol: crlf ? ('\r\n' as const) : ('\n' as const) };
        const text = serialize(a, s);
        const there = editJsonText(text, b, s);
        expect(JSON.stringify(parseJsonc(there))).toBe(JSON.stringify(b));
        const back = editJsonText(there, a, s);
        expect(JSON.stringify(parseJsonc(back))).toBe(JSON.stringify(a));
      }),
      { numRuns: 300 },
    );
  });

  it('an added entry removed again restores the bytes, comments and all', () => {
    fc.assert(
      fc.property(objects, fc.array(json, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), (a, list, extra) => {
        const base = { ...a, list };
        const text = `// head\n${serialize(base, DEFAULT_STYLE).replace(/\n}/, '\n  // end\n}')}`;
        const grown = { ...base, list: [...list, extra], zz: extra };
        const there = editJsonText(text, grown, DEFAULT_STYLE);
        expect(there.startsWith('// head\n')).toBe(true);
        expect(there).toContain('  // end\n}');
        expect(editJsonText(there, base, DEFAULT_STYLE)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('gives positions that cover each value', () => {
    const tree = jsoncTree(SETTINGS);
    const hooks = tree.props?.find((p) => p.key === 'hooks');
    expect(SETTINGS.slice(hooks?.start, hooks?.end).startsWith('"hooks": {')).toBe(true);
  });
});
