/**
 * End to end: git aliases through the built bundle (`check`, and the cursor and claude-code
 * drivers), in a temporary repository and home whose config git itself wrote. The agent
 * controls the repository's config, so an alias there is the attack: `git pf` with
 * `alias.pf = push --force` is denied like `git push --force`. Next to each, look-alikes that
 * stay allowed.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, decisionOf, hookDecision, shellEvent } from './e2e.testing.ts';

let root: string;
let home: string;
let repo: string;
let plain: string;
let padded: string;

const gitEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'] ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1' });
const git = (cwd: string, ...args: string[]): void => {
  execFileSync('git', args, { cwd, env: gitEnv(), stdio: 'pipe' });
};

beforeAll(() => {
  bundle();
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-alias-e2e-'));
  home = path.join(root, 'home');
  repo = path.join(root, 'repo');
  plain = path.join(root, 'plain');
  padded = path.join(root, 'padded');
  for (const d of [home, repo, plain, padded, path.join(home, 'config', 'rules.d'), path.join(repo, 'src')]) fs.mkdirSync(d, { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'config', 'alias.pf', 'push --force');
  git(repo, 'config', 'alias.sh', '!git push --force');
  git(repo, 'config', 'alias.st', 'status');
  git(repo, 'config', 'alias.lg', 'log --oneline');
  git(repo, 'config', 'include.path', 'more.cfg');
  fs.writeFileSync(path.join(repo, '.git', 'more.cfg'), '[alias]\n\tcm = "commit" -a # hidden in an include\n');
  git(home, 'config', '--global', 'alias.gp', 'push -f');
  fs.mkdirSync(path.join(root, 'evil'));
  fs.writeFileSync(path.join(root, 'evil', '.gitconfig'), '[alias]\n\tev = push --force\n');
  fs.writeFileSync(path.join(root, 'evil', 'inc.cfg'), '[alias]\n\tinc = push --force\n');
  git(padded, 'init', '-q');
  git(padded, 'config', 'alias.pf', 'push --force');
  fs.appendFileSync(path.join(padded, '.git', 'config'), `# ${'x'.repeat(70 * 1024)}\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const env = (): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'] ?? '',
  HOME: home,
  BUCKLER_CONFIG_HOME: path.join(home, 'config'),
  BUCKLER_STATE_HOME: path.join(home, 'state'),
});

type Verdict = 'allow' | 'deny' | 'ask';

function viaCheck(command: string, cwd: string): Verdict {
  const decision = decisionOf(['check', '--json', '--', command], { cwd, env: env() });
  return decision === 'nudge' ? 'allow' : (decision as Verdict);
}

const via = (driver: 'claude-code' | 'cursor') => (command: string, cwd: string): Verdict => hookDecision(driver, shellEvent(driver, command, cwd), { cwd, env: env() }) as Verdict;
const viaCursor = via('cursor');
const viaClaude = via('claude-code');

/** [where, command, verdict] */
const ROWS: ['repo' | 'sub' | 'plain' | 'padded', string, Verdict][] = [
  ['repo', 'git pf', 'deny'],
  ['repo', 'git pf origin main', 'deny'],
  ['sub', 'git pf', 'deny'],
  ['repo', 'git sh', 'deny'],
  ['repo', 'git cm -m wip', 'deny'],
  ['repo', 'git gp', 'deny'],
  ['plain', 'git gp origin main', 'deny'],
  ['repo', "git config alias.x 'push -f'; git x", 'deny'],
  ['repo', 'git config alias.x push && git x -f', 'deny'],
  ['repo', "git config --global alias.p 'push --force'", 'deny'],
  ['repo', "git -c alias.x='push -f' x", 'deny'],
  ['repo', "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='push -f' git x", 'deny'],
  ['padded', 'git pf', 'ask'],
  // the configuration of another repository, or one the line points git at
  ['plain', 'git -C ../repo pf', 'deny'],
  ['plain', 'cd ../repo && git pf', 'deny'],
  ['plain', 'GIT_DIR=../repo/.git git pf', 'deny'],
  ['plain', 'git --git-dir=../repo/.git pf', 'deny'],
  ['plain', 'HOME=../evil git ev', 'deny'],
  ['plain', 'GIT_CONFIG_GLOBAL=../evil/.gitconfig git ev', 'deny'],
  ['plain', 'cd "$(mktemp -d)" && git pf', 'ask'],
  ['plain', 'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=~/../evil/inc.cfg git inc', 'deny'],
  ['repo', 'git config include.path ../../evil/inc.cfg && git inc', 'deny'],
  // look-alikes
  ['repo', 'git st', 'allow'],
  ['repo', 'git lg -3', 'allow'],
  ['repo', 'git status', 'allow'],
  ['plain', 'git pf', 'allow'],
  ['repo', 'git config --get alias.pf', 'allow'],
  ['repo', 'git config alias.st status; git st', 'allow'],
  ['repo', "echo 'git pf' > notes.txt", 'allow'],
  ['padded', 'git status', 'allow'],
  ['plain', 'git -C ../repo st', 'allow'],
  ['plain', 'HOME=../evil git status', 'allow'],
];

const dir = (w: string): string => (w === 'repo' ? repo : w === 'sub' ? path.join(repo, 'src') : w === 'plain' ? plain : padded);

describe('git aliases through the built bundle', () => {
  it.each(ROWS)('%s: %s → %s', (where, command, want) => {
    const cwd = dir(where);
    expect(viaCheck(command, cwd), 'check').toBe(want);
    expect(viaCursor(command, cwd), 'cursor').toBe(want);
    expect(viaClaude(command, cwd), 'claude-code').toBe(want);
  });
});
