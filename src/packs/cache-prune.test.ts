/**
 * Bounding the per-project compiled-pack cache files (runtime.ts `pruneProjectCaches`): old
 * ones go, at most MAX_PROJECT_CACHES stay (newest first), and nothing else is ever touched:
 * not the shared cache files, not a symbolic link or directory with a cache file's name (nor
 * what a link points to), not other files, not the file just written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFileName } from './cache.ts';
import { isProjectCacheName, MAX_PROJECT_CACHES, PROJECT_CACHE_MAX_AGE_MS, pruneProjectCaches } from './runtime.ts';

let dir: string;
let outside: string;
const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 24 * 3600 * 1000;
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-prune-'));
  dir = path.join(root, 'cache');
  outside = path.join(root, 'outside');
  fs.mkdirSync(dir);
  fs.mkdirSync(outside);
});
afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

const hex = (i: number) => i.toString(16).padStart(8, '0');
/** A file in the cache directory, written `age` ms before NOW. */
function file(name: string, age: number): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, 'x');
  const t = (NOW - age) / 1000;
  fs.utimesSync(f, t, t);
  return f;
}
const left = () => fs.readdirSync(dir).sort();

describe('pruneProjectCaches', () => {
  it('removes per-project cache files not written for 30 days, keeps the rest', () => {
    file(`policy-config-p${hex(1)}.json`, PROJECT_CACHE_MAX_AGE_MS + DAY);
    file(`policy-strict-noexamples-p${hex(2)}.json`, PROJECT_CACHE_MAX_AGE_MS + DAY);
    file(`policy-config-p${hex(3)}.json`, DAY);
    const kept = file(`policy-baseline-p${hex(4)}.json`, PROJECT_CACHE_MAX_AGE_MS + 2 * DAY); // the one just written
    const removed = pruneProjectCaches(dir, kept, uid, NOW);
    expect(removed.sort()).toEqual([`policy-config-p${hex(1)}.json`, `policy-strict-noexamples-p${hex(2)}.json`]);
    expect(left()).toEqual([`policy-baseline-p${hex(4)}.json`, `policy-config-p${hex(3)}.json`]);
  });

  it('keeps at most MAX_PROJECT_CACHES, the newest, counting the one just written', () => {
    const n = MAX_PROJECT_CACHES + 5;
    for (let i = 0; i < n; i++) file(`policy-config-p${hex(i)}.json`, (i + 1) * 60_000); // i = 0 is the newest
    const kept = file(`policy-config-p${hex(999)}.json`, 0);
    const removed = pruneProjectCaches(dir, kept, uid, NOW);
    expect(removed).toHaveLength(n - (MAX_PROJECT_CACHES - 1));
    const rest = left();
    expect(rest).toHaveLength(MAX_PROJECT_CACHES);
    expect(rest).toContain(`policy-config-p${hex(999)}.json`);
    expect(rest).toContain(`policy-config-p${hex(0)}.json`);
    expect(rest).toContain(`policy-config-p${hex(MAX_PROJECT_CACHES - 2)}.json`);
    expect(rest).not.toContain(`policy-config-p${hex(MAX_PROJECT_CACHES - 1)}.json`);
  });

  it('never touches what is not a per-project cache file, nor follows a link', () => {
    const old = PROJECT_CACHE_MAX_AGE_MS * 3;
    const others = ['policy-config.json', 'policy-strict-noexamples.json', 'notes.txt', `policy-config-p${hex(5)}.json.bak`, `policy-config-p12345.json`, `.policy-config-p${hex(6)}.json.buckler-abc.tmp`];
    for (const o of others) file(o, old);
    // A symbolic link with a cache file's name, pointing at a file outside: neither is removed.
    const target = path.join(outside, 'precious');
    fs.writeFileSync(target, 'keep me');
    fs.symlinkSync(target, path.join(dir, `policy-config-p${hex(7)}.json`));
    // A directory with a cache file's name.
    fs.mkdirSync(path.join(dir, `policy-config-p${hex(8)}.json`));
    const kept = file(`policy-config-p${hex(9)}.json`, 0);
    expect(pruneProjectCaches(dir, kept, uid, NOW + old)).toEqual([]);
    expect(left()).toEqual([...others, `policy-config-p${hex(7)}.json`, `policy-config-p${hex(8)}.json`, `policy-config-p${hex(9)}.json`].sort());
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me');
  });

  it('leaves another user’s files alone', () => {
    if (uid === undefined) return;
    file(`policy-config-p${hex(1)}.json`, PROJECT_CACHE_MAX_AGE_MS * 2);
    expect(pruneProjectCaches(dir, path.join(dir, 'policy-config.json'), uid + 1, NOW)).toEqual([]);
    expect(left()).toEqual([`policy-config-p${hex(1)}.json`]);
  });

  it('a missing directory is not an error', () => {
    expect(pruneProjectCaches(path.join(dir, 'nope'), path.join(dir, 'nope', 'x'), uid, NOW)).toEqual([]);
  });
});

describe('isProjectCacheName', () => {
  const EXPR = /^policy-[a-z]+(?:-noexamples)?-p[0-9a-f]{8}\.json$/;
  it('names every per-project file cacheFileName makes, and no shared one', () => {
    for (const tier of [null, 'baseline', 'strict']) {
      for (const examples of [true, false]) {
        expect(isProjectCacheName(cacheFileName({ tier, examples }, '/w/app'))).toBe(true);
        expect(isProjectCacheName(cacheFileName({ tier, examples }))).toBe(false);
      }
    }
  });
  it.each([
    'policy-config-p0000abcd.json',
    'policy-strict-noexamples-p0123456f.json',
    'policy--p0000abcd.json',
    'policy-noexamples-p0000abcd.json',
    'policy-config-p0000ABCD.json',
    'policy-config-p0000abc.json',
    'policy-config-p0000abcde.json',
    'policy-config-x0000abcd.json',
    'policy-Config-p0000abcd.json',
    'policy-con fig-p0000abcd.json',
    'policy-config-p0000abcd.json.tmp',
    '.policy-config-p0000abcd.json',
    'policy-config.json',
    'policy-p0000abcd.json',
    '-p0000abcd.json',
    'policy-a-p00000000.json',
  ])('%s: as the regular expression says', (name) => {
    expect(isProjectCacheName(name)).toBe(EXPR.test(name));
  });
  it('agrees with the regular expression on random names', () => {
    const alphabet = ['policy-', 'config', 'strict', '-noexamples', '-p', '0', 'a', 'f', 'g', 'A', '.json', '-', 'x'];
    let seed = 7;
    const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let i = 0; i < 5000; i++) {
      let name = rnd(4) === 0 ? '' : 'policy-';
      const parts = 1 + rnd(8);
      for (let j = 0; j < parts; j++) name += alphabet[rnd(alphabet.length)];
      if (rnd(3) > 0) name += `-p${rnd(0x100000000).toString(16).padStart(8, '0')}`;
      if (rnd(4) > 0) name += '.json';
      expect(isProjectCacheName(name), name).toBe(EXPR.test(name));
    }
  });
});
