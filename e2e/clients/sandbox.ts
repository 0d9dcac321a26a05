/**
 * A scratch world for one real-client scenario: a HOME, a git repository with a bare remote,
 * Buckler wired into the harness by its own installer (`buckler hooks merge`), and a clean
 * environment that names only that HOME. Nothing here reads or writes the real home directory.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './clients.ts';

export const BUNDLE = path.join(ROOT, 'dist', 'buckler.cjs');

export interface Sandbox {
  dir: string;
  home: string;
  /** The working copy the agent works in (`git init`ed, one commit, pushed to `remote`). */
  project: string;
  /** The bare repository `origin` points at. */
  remote: string;
  /** A clean environment: PATH, HOME and the locale, nothing from the test runner. */
  env: Record<string, string>;
  git(...args: string[]): string;
  remoteHead(): string;
  commitCount(): number;
  /** Runs the built `buckler` in this sandbox. */
  buckler(...args: string[]): { status: number | null; stdout: string; stderr: string };
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-client-'));
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  const remote = path.join(dir, 'remote.git');
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  const env: Record<string, string> = {
    PATH: [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    GIT_AUTHOR_NAME: 'Person',
    GIT_AUTHOR_EMAIL: 'person@example.invalid',
    GIT_COMMITTER_NAME: 'Person',
    GIT_COMMITTER_EMAIL: 'person@example.invalid',
  };
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: project, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote], { env });
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(project, 'README.md'), '# scratch\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'first');
  git('remote', 'add', 'origin', remote);
  git('push', '-q', 'origin', 'main');
  const sandbox: Sandbox = {
    dir, home, project, remote, env, git,
    remoteHead: () =>
      execFileSync('git', ['--git-dir', remote, 'rev-parse', 'main'], { env, encoding: 'utf8' }).trim(),
    commitCount: () => Number(git('rev-list', '--count', 'HEAD')),
    buckler: (...args) => {
      const r = spawnSync(process.execPath, [BUNDLE, ...args], { cwd: project, env, encoding: 'utf8' });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  return sandbox;
}
