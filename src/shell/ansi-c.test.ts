import { describe, expect, it } from 'vitest';
import { decodeAnsiC } from './ansi-c.ts';

describe("decodeAnsiC ($'…')", () => {
  it.each<[string, string]>([
    ['plain', 'plain'],
    ['a\\nb\\tc', 'a\nb\tc'],
    ['\\a\\b\\e\\E\\f\\r\\v', '\x07\b\x1b\x1b\f\r\v'],
    ["\\\\ \\' \\\" \\?", '\\ \' " ?'],
    ['\\x67it', 'git'],
    ['\\x6', '\x06'],
    ['\\x', '\\x'],
    ['\\147\\151\\164', 'git'],
    ['\\0', ''],
    ['git\\0push', 'git'],
    ['git\\x00push', 'git'],
    ['\\u0067\\U00000069t', 'git'],
    ['\\u00e9', 'é'],
    ['\\U0001F600', '😀'],
    ['\\uD800', '\ufffd'],
    ['\\cA\\c?\\ca', '\x01\x7f\x01'],
    ['\\c\\\\x', '\x1cx'],
    ['\\q', '\\q'],
    ['end\\', 'end\\'],
  ])('%j → %j', (body, value) => {
    expect(decodeAnsiC(body)).toBe(value);
  });
});
