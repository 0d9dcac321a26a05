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

  it('only a typical hook writes the cache: not one that compiled the packs, a refused event or one without a command', () => {
    fs.rmSync(path.join(root, 's'), { recursive: true, force: true }); // no compiled-pack cache
    const cold = run(['--driver', 'cursor'], event);
    expect(JSON.parse(cold.stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.existsSync(cache)).toBe(false);
    expect(JSON.parse(run(['--driver', 'cursor'], '{not json').stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.existsSync(cache)).toBe(false);
    const read = JSON.stringify({ hook_event_name: 'preToolUse', tool_name: 'Read', tool_input: { path: 'x' }, cwd: root });
    expect(run(['--driver', 'cursor'], read).status).toBe(0);
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

  it('a cache made after an allow is replaced once by one made after a block, which then stays', () => {
    fs.rmSync(cache, { force: true });
    const allow = JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'ls -la', cwd: root });
    expect(run(['--driver', 'cursor'], allow).status).toBe(0);
    const afterAllow = fs.readFileSync(cache);
    expect(afterAllow[0]).toBe(0x61); // 'a'
    expect(run(['--driver', 'cursor'], allow).status).toBe(0);
    expect(fs.readFileSync(cache).equals(afterAllow)).toBe(true); // another allow changes nothing
    expect(JSON.parse(run(['--driver', 'cursor'], event).stdout)).toMatchObject({ permission: 'deny' });
    const afterBlock = fs.readFileSync(cache);
    expect(afterBlock[0]).toBe(0x62); // 'b'
    expect(afterBlock.length).toBeGreaterThan(afterAllow.length); // it holds what the deny ran too
    expect(run(['--driver', 'cursor'], allow).status).toBe(0);
    expect(JSON.parse(run(['--driver', 'cursor'], event).stdout)).toMatchObject({ permission: 'deny' });
    expect(fs.readFileSync(cache).equals(afterBlock)).toBe(true);
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
