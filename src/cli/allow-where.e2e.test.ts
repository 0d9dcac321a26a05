/**
 * Issue 21, route 5, through the built hook: a grant made in project A lets a command through
 * only where that command acts in A, not after `cd ../other`, with `git -C`, `--git-dir`,
 * `--work-tree` or `GIT_DIR` naming another repository (Cursor and Claude Code payloads).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, hookDecision, sandboxProject, shellEvent } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-allow-where-'));
  const home = env['HOME'] as string;
  fs.mkdirSync(path.join(home, 'other', '.git'), { recursive: true });
  fs.mkdirSync(path.join(project, 'sub'), { recursive: true });
  const r = buckler(['allow', '--project', project, '--uses', '50', '--', 'git', 'push', '--force', 'origin', 'main'], { env, cwd: project });
  expect(r.status, r.stderr).toBe(0);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a grant applies where the command acts', () => {
  it.each<[string, string]>([
    ['cd ../other && git push --force origin main', 'deny'],
    ['cd ~/other; git push --force origin main', 'deny'],
    ['cd "$X" && git push --force origin main', 'deny'],
    ['GIT_DIR=../other/.git git push --force origin main', 'deny'],
    ['export GIT_DIR=../other/.git; git push --force origin main', 'deny'],
    ['git -C ../other push --force origin main', 'deny'],
    ['git --git-dir=../other/.git push --force origin main', 'deny'],
    ['git --work-tree ../other push --force origin main', 'deny'],
    ['bash -c "cd ../other && git push --force origin main"', 'deny'],
    // Look-alikes: the grant's own project, also from a folder in it.
    ['git push --force origin main', 'allow'],
    ['cd sub && git push --force origin main', 'allow'],
  ])('%s → %s', (command, want) => {
    for (const driver of ['cursor', 'claude-code'] as const) {
      expect([driver, hookDecision(driver, shellEvent(driver, command, project), { env, cwd: project })]).toEqual([driver, want]);
    }
  });
});
