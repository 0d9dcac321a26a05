/**
 * dist/buckler.cjs (src/cli/loader.ts) runs the hook bundle through a V8 code cache: written by
 * a hook run, not by other commands; a corrupt cache is rejected by V8 and rewritten; a missing
 * bundle fails closed with one line and exit 2. Runs on a private copy of dist/ and packs/.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './build.testing.ts';
import { buckler, bundle } from './e2e.testing.ts';

let root = '';
let entry: string;
let cache: string;

beforeAll(() => {
  bundle();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-loader-'));
  fs.mkdirSync(path.join(root, 'dist'));
  for (const f of fs.readdirSync(path.join(ROOT, 'dist'))) {
    if (f.endsWith('.cjs')) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(root, 'dist', f));
  }
  fs.cpSync(path.join(ROOT, 'packs'), path.join(root, 'packs'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  entry = path.join(root, 'dist', 'buckler.cjs');
  // Named after the bundle's content, so a rebuild of the same length never meets an old cache.
  const digest = createHash('sha256').update(fs.readFileSync(path.join(root, 'dist', 'main.cjs'))).digest('hex').slice(0, 16);
  cache = path.join(root, 'dist', `.main-${digest}.v8cache`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const env = () => ({ PATH: process.env['PATH'] ?? '', HOME: root, BUCKLER_CONFIG_HOME: path.join(root, 'c'), BUCKLER_STATE_HOME: path.join(root, 's') });
const run = (args: string[], input = '') => buckler(args, { bundle: entry, stdin: input, env: env() });
const event = JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'git push --force origin main', cwd: root });

describe('the loader and its V8 code cache', () => {
  it('other commands run but do not write the cache', () => {
    expect(run(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(run(['check', 'git status']).status).toBe(0);
    expect(fs.existsSync(cache)).toBe(false);
  });

  it('only a hook decided with the packs cache warm writes the cache: not one that compiled the packs, nor a refused event', () => {
    fs.rmSync(path.join(root, 's'), { recursive: true, force: true }); // no compiled-pack cache
    const cold = run(['--driver', 'cursor'], event);
    expect(JSON.parse(cold.stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.existsSync(cache)).toBe(false);
    expect(JSON.parse(run(['--driver', 'cursor'], '{not json').stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.existsSync(cache)).toBe(false);
  });

  it('the hook uses the packs cache that `check` compiled: its first run is already typical', () => {
    fs.rmSync(path.join(root, 's'), { recursive: true, force: true });
    expect(run(['check', 'git status']).status).toBe(0); // compiles the packs, writes their cache
    expect(JSON.parse(run(['--driver', 'cursor'], event).stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.existsSync(cache)).toBe(true);
    fs.rmSync(cache);
  });

  it('a typical hook run answers and writes the cache; the next one uses it unchanged', () => {
    const first = run(['--driver', 'cursor'], event);
    expect(JSON.parse(first.stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.statSync(cache).size).toBeGreaterThan(0);
    const before = fs.readFileSync(cache);
    const second = run(['--driver', 'cursor'], event);
    expect(second.stdout).toBe(first.stdout);
    expect(fs.readFileSync(cache).equals(before)).toBe(true);
    expect(fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.v8cache'))).toEqual([path.basename(cache)]);
  });

  it('the cache grows to hold each part of the hook path a hook went through, once; then it stays', () => {
    fs.rmSync(cache, { force: true });
    const parts = (): number => fs.readFileSync(cache).readUInt32LE(1);
    const allow = JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'ls -la', cwd: root });
    const read = JSON.stringify({ hook_event_name: 'beforeReadFile', file_path: path.join(root, 'a.txt'), content: 'x', cwd: root });
    const repo = path.join(root, 'repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git', 'config'), '[alias]\n\tpf = push --force\n');
    const alias = JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'git pf origin main', cwd: repo });
    const steps: [string, string, string][] = [
      ['shell allow', allow, 'allow'],
      ['shell deny', event, 'deny'],
      ['file read', read, 'allow'],
      ['git alias', alias, 'deny'],
    ];
    let before = Buffer.alloc(0);
    for (const [what, payload, decision] of steps) {
      const r = run(['--driver', 'cursor'], payload);
      expect(r.status, what).toBe(0);
      expect((JSON.parse(r.stdout) as { permission?: string }).permission ?? 'allow', what).toBe(decision);
      const now = fs.readFileSync(cache);
      expect(now[0], what).toBe(0x63); // 'c'
      const had = before.length > 0 ? before.readUInt32LE(1) : 0;
      expect(parts() & had, what).toBe(had); // never loses a part
      expect(parts(), what).not.toBe(had); // a new part was added
      expect(now.length, what).toBeGreaterThan(before.length); // with the code that part ran
      before = now;
    }
    // Every part is in it now: repeating any of these hooks leaves the cache as it is.
    for (const [what, payload] of steps) {
      run(['--driver', 'cursor'], payload);
      expect(fs.readFileSync(cache).equals(before), what).toBe(true);
    }
  });

  it('a corrupt cache is rejected and rewritten; the answer is the same', () => {
    fs.writeFileSync(cache, Buffer.from('not a V8 code cache'));
    const r = run(['--driver', 'cursor'], event);
    expect(JSON.parse(r.stdout)).toMatchObject({ permission: 'deny' });
    expect(r.stderr).toBe('');
    expect(fs.readFileSync(cache).toString('utf8')).not.toBe('not a V8 code cache');
  });

  it('an unwritable cache location is not an error', () => {
    fs.rmSync(cache, { force: true });
    fs.mkdirSync(cache); // a directory where the cache file should go: the rename fails
    const r = run(['--driver', 'cursor'], event);
    expect(JSON.parse(r.stdout)).toMatchObject({ permission: 'deny' });
    expect(r.status).toBe(0);
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('a missing bundle fails closed: one line on stderr, exit 2, nothing on stdout', () => {
    fs.renameSync(path.join(root, 'dist', 'main.cjs'), path.join(root, 'dist', 'main.cjs.away'));
    try {
      const r = run(['--driver', 'cursor'], event);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^buckler: cannot start /);
    } finally {
      fs.renameSync(path.join(root, 'dist', 'main.cjs.away'), path.join(root, 'dist', 'main.cjs'));
    }
  });
});
