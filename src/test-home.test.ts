// The test sandbox (vitest.config.ts) and the real-home guard (test-home.setup.testing.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processPathContext, processPaths } from './cli/process-paths.ts';
import { DIRECTORY_VARIABLES, harnessManagedFile } from './paths.ts';
import { changes, guardedPaths, HARNESS_VARIABLES, ROOT_VARIABLES, sandboxEnv, snapshot } from './test-home.testing.ts';

const SANDBOX = process.env.BUCKLER_TEST_SANDBOX ?? '';
const inside = (p: string): boolean => p === SANDBOX || p.startsWith(`${SANDBOX}${path.sep}`);

describe('every test runs in the sandbox', () => {
  it('has one', () => {
    expect(SANDBOX).not.toBe('');
    expect(fs.statSync(SANDBOX).isDirectory()).toBe(true);
  });

  it('HOME, every directory variable of src/paths.ts and the harness variables point inside it', () => {
    for (const name of ['HOME', 'USERPROFILE', 'XDG_CACHE_HOME', ...DIRECTORY_VARIABLES, ...Object.keys(HARNESS_VARIABLES), ...ROOT_VARIABLES]) {
      expect(inside(process.env[name] ?? ''), `${name}=${process.env[name]}`).toBe(true);
    }
    expect(inside(os.homedir())).toBe(true);
  });

  it('so do all of Buckler\'s paths, even for code handed an empty environment', () => {
    for (const env of [process.env, {}]) {
      const p = processPaths(env);
      for (const [key, value] of Object.entries(p)) expect(inside(value), `${key}=${value}`).toBe(true);
    }
    const managed = harnessManagedFile('claude-code', processPathContext(process.env));
    expect(inside(managed ?? ''), `managed settings ${managed}`).toBe(true);
  });

  it('every environment variable src/paths.ts reads a directory from is in the sandbox', () => {
    const source = fs.readFileSync(path.join(import.meta.dirname, 'paths.ts'), 'utf8');
    const read = new Set([...source.matchAll(/\b(?:set|dir)\(\s*[^,()]*,\s*'([A-Z][A-Z0-9_]*)'\s*\)/g)].map((m) => m[1] as string));
    expect(read.size).toBeGreaterThan(5);
    const covered = new Set(Object.keys(sandboxEnv('/s')));
    expect([...read].filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe('the real-home guard', () => {
  let fake: string;
  afterEach(() => fs.rmSync(fake, { recursive: true, force: true }));

  it('sees what Buckler writes in a home, and nothing else there', () => {
    fake = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-guard-')));
    fs.mkdirSync(path.join(fake, '.cursor'));
    fs.writeFileSync(path.join(fake, '.cursor', 'hooks.json'), '{}');
    const watch = guardedPaths({ env: { HOME: fake, BUCKLER_MANAGED_ROOT: path.join(fake, 'system') }, platform: 'linux', home: fake });
    const before = snapshot(watch);
    expect(changes(before, snapshot(watch))).toEqual([]);

    fs.mkdirSync(path.join(fake, '.local', 'state', 'buckler'), { recursive: true });
    fs.writeFileSync(path.join(fake, '.local', 'state', 'buckler', 'audit.jsonl'), '{}\n');
    fs.writeFileSync(path.join(fake, '.cursor', 'hooks.json.buckler-backup'), '{}');
    fs.writeFileSync(path.join(fake, '.cursor', 'hooks.json'), '{"version":1}');
    fs.writeFileSync(path.join(fake, '.cursor', 'unrelated.json'), '{}');
    fs.mkdirSync(path.join(fake, '.claude'));
    fs.writeFileSync(path.join(fake, '.claude', 'settings.json'), '{}');
    const managedDir = path.join(fake, 'system', 'etc', 'claude-code');
    fs.mkdirSync(managedDir, { recursive: true });
    fs.writeFileSync(path.join(managedDir, 'managed-settings.json'), '{}');
    const found = changes(before, snapshot(watch)).join('\n');
    expect(found).toContain(`created ${path.join(fake, '.local', 'state', 'buckler')} (dir)`);
    expect(found).toContain(`created ${path.join(fake, '.local', 'state', 'buckler', 'audit.jsonl')}`);
    expect(found).toContain(`created ${path.join(fake, '.cursor', 'hooks.json.buckler-backup')}`);
    expect(found).toContain(`changed ${path.join(fake, '.cursor', 'hooks.json')}`);
    expect(found).toContain(`created ${path.join(fake, '.claude', 'settings.json')}`);
    expect(found).toContain(`created ${path.join(managedDir, 'managed-settings.json')}`);
    expect(found).not.toContain('unrelated.json');
  });
});
