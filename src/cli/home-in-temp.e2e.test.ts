/**
 * A home directory inside the temp directory (some CI images and sandboxes): home wins
 * (shared spec, protection packs), so `rm -rf ~/projects` is denied as a delete in home.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckler, bundle } from './e2e.testing.ts';

let tmp = '';
let home = '';
beforeAll(() => {
  bundle();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-home-in-temp-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, 'projects'), { recursive: true });
}, 120_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const check = (command: string): { decision: string; rule: string | null } => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: tmp, BUCKLER_CONFIG_HOME: path.join(home, '.config', 'buckler'), BUCKLER_STATE_HOME: path.join(home, '.state'), BUCKLER_DATA_HOME: path.join(home, '.data') };
  const r = buckler(['check', '--json', '--', command], { cwd: tmp, env, timeout: 20_000 });
  const out = JSON.parse(r.stdout) as { decision: string; rule: string | null };
  return { decision: out.decision, rule: out.rule };
};

describe('HOME under TMPDIR', () => {
  it('rm -rf ~/projects is denied as a delete in home', () => {
    const c = check('rm -rf ~/projects');
    expect(c.decision).toBe('deny');
    expect(c.rule).toMatch(/^agent-fs\//);
  });
  it('the look-alike: a directory in TMPDIR outside the home is still temp (allowed)', () => {
    expect(check(`rm -rf ${tmp}/build-cache`).decision).toBe('allow');
  });
});
