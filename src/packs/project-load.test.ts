/**
 * Reading a project's rules directory (project-load.ts) and its share of the cache key
 * (project-rules.ts), in a temp directory: what is refused, what the digest covers, what the
 * trust store accepts. The hook-level behaviour is in src/cli/project-rules.e2e.test.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectDigest, readProjectRules, readTrustStore } from './project-load.ts';
import { MAX_PROJECT_FILES, projectListing } from './project-rules.ts';

let root: string;
let dir: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-project-load-')));
  dir = path.join(root, '.buckler', 'rules.d');
  fs.mkdirSync(dir, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const digest = (): string => projectDigest(readProjectRules(root));

describe('readProjectRules and projectDigest', () => {
  it('no .buckler: nothing, and the listing says so with one stat', () => {
    fs.rmSync(path.join(root, '.buckler'), { recursive: true });
    expect(readProjectRules(root)).toMatchObject({ exists: false, files: [] });
    expect(projectListing(root, path.join(root, 'trust.json')).files).toBeNull();
  });

  it('the digest changes with any edit, addition, removal or rename, and only then', () => {
    fs.writeFileSync(path.join(dir, 'a.yaml'), 'pack: a\n');
    const d0 = digest();
    expect(digest()).toBe(d0);
    fs.writeFileSync(path.join(dir, 'a.yaml'), 'pack: a \n');
    const d1 = digest();
    expect(d1).not.toBe(d0);
    fs.writeFileSync(path.join(dir, 'b.yml'), '');
    const d2 = digest();
    expect(d2).not.toBe(d1);
    fs.renameSync(path.join(dir, 'b.yml'), path.join(dir, 'c.yml'));
    expect(digest()).not.toBe(d2);
    fs.rmSync(path.join(dir, 'c.yml'));
    expect(digest()).toBe(d1);
    // Other files in the directory are not rules and do not count.
    fs.writeFileSync(path.join(dir, 'README.md'), 'x');
    expect(digest()).toBe(d1);
  });

  it('refuses a symlinked file, a FIFO, an oversized file and non-UTF-8 bytes, without hanging', () => {
    fs.writeFileSync(path.join(root, 'outside.yaml'), 'pack: o\n');
    fs.symlinkSync(path.join(root, 'outside.yaml'), path.join(dir, 'link.yaml'));
    fs.writeFileSync(path.join(dir, 'big.yaml'), 'x'.repeat(64 * 1024 + 1));
    fs.writeFileSync(path.join(dir, 'latin1.yaml'), Buffer.from([0x70, 0x3a, 0x20, 0xe9, 0x0a]));
    fs.writeFileSync(path.join(dir, 'ok.yaml'), 'x'.repeat(64 * 1024));
    const fifo = spawnSync('mkfifo', [path.join(dir, 'pipe.yaml')]).status === 0;
    const read = readProjectRules(root);
    const why = Object.fromEntries(read.files.map((f) => [f.name, f.refused ?? 'read']));
    expect(why['link.yaml']).toMatch(/symbolic link/);
    expect(why['big.yaml']).toMatch(/over the 64 KiB limit/);
    expect(why['latin1.yaml']).toMatch(/not valid UTF-8/);
    expect(why['ok.yaml']).toBe('read');
    if (fifo) expect(why['pipe.yaml']).toMatch(/not a regular file/);
  });

  it('refuses a symlinked rules.d or .buckler as a whole', () => {
    const elsewhere = path.join(root, 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(elsewhere, dir);
    expect(readProjectRules(root)).toMatchObject({ exists: true, refused: expect.stringMatching(/rules\.d is a symbolic link/) });
    fs.rmSync(path.join(root, '.buckler'), { recursive: true });
    fs.mkdirSync(path.join(elsewhere, 'rules.d'));
    fs.symlinkSync(elsewhere, path.join(root, '.buckler'));
    expect(readProjectRules(root)).toMatchObject({ exists: true, refused: expect.stringMatching(/\.buckler is a symbolic link/) });
  });

  it(`reads at most ${MAX_PROJECT_FILES} files; the rest are refused by name order`, () => {
    for (let i = 0; i < MAX_PROJECT_FILES + 2; i++) fs.writeFileSync(path.join(dir, `r${String(i).padStart(2, '0')}.yaml`), '');
    const read = readProjectRules(root);
    expect(read.files.filter((f) => f.refused === undefined)).toHaveLength(MAX_PROJECT_FILES);
    expect(read.files.slice(MAX_PROJECT_FILES).map((f) => f.refused)).toEqual([expect.stringMatching(/past the limit/), expect.stringMatching(/past the limit/)]);
  });
});

describe('readTrustStore', () => {
  const store = (): string => path.join(root, 'trust.json');
  it('absent: no project trusted, no problem', () => {
    expect(readTrustStore(store())).toEqual({ store: { version: 1, projects: {} } });
  });
  it('keeps well-formed entries for absolute roots only', () => {
    const e = { digest: 'sha256:x', files: ['a.yaml'], trusted_at: '2026-12-01T00:00:00Z' };
    fs.writeFileSync(store(), JSON.stringify({ version: 1, projects: { '/p': e, rel: e, '/q': { digest: 1 } } }));
    expect(readTrustStore(store()).store.projects).toEqual({ '/p': e });
  });
  it('a symlink, malformed JSON or another shape: nothing trusted, and says why', () => {
    fs.writeFileSync(path.join(root, 'real.json'), JSON.stringify({ version: 1, projects: { '/p': { digest: 'd', files: [], trusted_at: 't' } } }));
    fs.symlinkSync(path.join(root, 'real.json'), store());
    expect(readTrustStore(store())).toMatchObject({ store: { projects: {} }, problem: expect.stringMatching(/symbolic link/) });
    fs.rmSync(store());
    fs.writeFileSync(store(), '{');
    expect(readTrustStore(store())).toMatchObject({ store: { projects: {} }, problem: expect.stringMatching(/not valid JSON/) });
    fs.writeFileSync(store(), '{"version":2,"projects":{}}');
    expect(readTrustStore(store()).problem).toMatch(/expected shape/);
  });
});
