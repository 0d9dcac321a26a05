import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globRegExp, globTest } from './paths.ts';

// The fast paths of globTest against the regular expression they stand for.
const patterns = [
  '/home/u/.aws/credentials', '.cursor/hooks.json', '**/.cursor/hooks.json', '.env', '/dev/**', '/home/u/.ssh/**',
  '.git/**', '**/.git/**', '/etc/profile.d/*', '.env.*', '*.pem', '/a/{b,c}/d', '/', 'x', '.git', '/dev/shm/**',
  '.github/hooks/*.json', '/a/*b*c', '*', '/*', 'a*', '*a*a*',
];
const paths = [
  '/home/u/.aws/credentials', '/home/u/.aws/credentials2', '/x/.cursor/hooks.json', '/.cursor/hooks.json', '/x.cursor/hooks.json',
  '/dev/sda', '/dev', '/dev/', '/devx/a', '/home/u/.ssh/id_rsa', '/home/u/.ssh', '/r/.git/config', '/r/.git', '/r/x.git/config',
  '/.env', '/p/.env', '/p/x.env', '/p/.env.local', '/a/b/d', '/a/c/d', '/', '/x', '/y/x', '/dev/shm/x',
];

describe('globTest agrees with globRegExp', () => {
  it.each(patterns.flatMap((p) => paths.map((q) => [p, q] as const)))('%s ~ %s', (p, q) => {
    expect(globTest(p, q)).toBe(globRegExp(p).test(q));
  });
  it('on generated patterns and paths', () => {
    const comp = fc.constantFrom('a', 'b', '.git', '.env', 'x.y', '**', '*', '.env.*', '*.y', 'a*a', '*a*', '**a');
    const pat = fc.tuple(fc.boolean(), fc.array(comp, { minLength: 1, maxLength: 4 })).map(([abs, cs]) => (abs ? '/' : '') + cs.join('/'));
    const path = fc.array(fc.constantFrom('a', 'b', '.git', '.env', 'x.y', 'c', '.env.local', 'aa', 'aba', 'a.y'), { minLength: 0, maxLength: 5 }).map((cs) => `/${cs.join('/')}`);
    fc.assert(fc.property(pat, path, (p, q) => globTest(p, q) === globRegExp(p).test(q)), { numRuns: 20000 });
  });
});
