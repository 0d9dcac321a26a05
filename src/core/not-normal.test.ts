import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notNormal } from './path-scope.ts';

const RE = /\/\/|\/\.\.?(?:\/|$)/;

describe('notNormal matches the expression it replaces', () => {
  it.each(['/', '//', '/a//b', '/a/./b', '/a/../b', '/a/.', '/a/..', '/a/...', '/a/.b', '/.', '/..', '/a/b/', 'a/./b', '', '/a/..b/c', '/a/.../'])('%j', (p) => {
    expect(notNormal(p)).toBe(RE.test(p));
  });
  it('on any text of slashes, dots and letters', () => {
    const path = fc.array(fc.constantFrom('/', '.', 'a', 'b'), { maxLength: 10 }).map((a) => a.join(''));
    fc.assert(fc.property(path, (p) => notNormal(p) === RE.test(p)), { numRuns: 5000 });
  });
});
