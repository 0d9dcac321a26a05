/**
 * The git scenarios every real-client test runs, harness-neutral: what the fake model asks for,
 * and how the test checks by side effect that Buckler's decision held in the real client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Step } from './protection.ts';
import type { Sandbox } from './sandbox.ts';

export const personCommits = (sb: Sandbox): void => {
  fs.writeFileSync(path.join(sb.project, 'notes.txt'), 'work in progress\n');
  sb.git('add', 'notes.txt');
  sb.git('commit', '-q', '-m', 'person: local work');
};

/**
 * The git steps, in the one client run of each harness (suite.ts), each checked by its own side
 * effect. The world (prepareGit): the person's commit A on `main`, one ahead of the remote, and
 * a branch `rewrite` whose commit B is not a descendant of the remote's `main`; the bare remote
 * logs every ref update pushed to it. A force push that got through would have put B on the
 * remote's `main` (and the later plain push of A would then have been refused as not a fast
 * forward), so each check holds whatever the order of the steps.
 */
export const GIT_STEPS: Step[] = [
  {
    name: 'a force push is denied: the remote never gets the rewritten history and the model is told why',
    call: (h) => h.shell('git push --force origin rewrite:main'),
    check(w, result) {
      expect(pushedShas(w.sb)).not.toContain(w.rewritten);
      expect(result).toContain('agent-git/no-force-push');
    },
  },
  {
    name: 'a force push through a nested shell and a +refspec is denied',
    call: (h) => h.shell('bash -c "git push origin +rewrite:main"'),
    check(w, result) {
      expect(pushedShas(w.sb)).not.toContain(w.rewritten);
      expect(result).toContain('agent-git/');
    },
  },
  {
    name: 'a commit is denied: the commit count is unchanged',
    call: (h) => h.shell('git commit --allow-empty -m "agent commit"'),
    check(w, result) {
      expect(w.sb.commitCount()).toBe(w.countBefore);
      expect(result).toContain('agent-git/');
    },
  },
  {
    name: 'a harmless command runs',
    call: (h) => h.shell('echo ran > proof.txt && git log --oneline --grep=commit'),
    check(w, result) {
      expect(fs.readFileSync(path.join(w.sb.project, 'proof.txt'), 'utf8')).toBe('ran\n');
      expect(result).not.toContain('Blocked');
    },
  },
  {
    name: 'a plain push is allowed: the remote moves',
    call: (h) => h.shell('git push origin main'),
    check(w) {
      expect(w.sb.remoteHead()).toBe(w.sb.git('rev-parse', 'main'));
      expect(pushedShas(w.sb)).toContain(w.sb.git('rev-parse', 'main'));
    },
  },
  {
    name: 'a nudge reaches the model and the command still runs',
    call: (h) => h.shell('echo more >> README.md && git add README.md'),
    check(w) {
      expect(w.sb.git('diff', '--cached', '--name-only')).toBe('README.md');
      // A harness may hand the nudge to the model beside the tool result rather than in it.
      expect(w.model.transcript()).toContain('committing is left to a person');
    },
  },
  {
    // A stand-in kubectl (prepareWorld) records every run; the line puts it first on PATH.
    name: 'a harmless kubectl get runs (the stand-in kubectl records it)',
    call: (h, sb) => h.shell(`PATH=${standInBin(sb)}:$PATH kubectl get pods`),
    check(w) {
      expect(kubectlRuns(w.sb)).toContain('get pods');
    },
  },
  {
    name: 'kubectl delete ns is blocked (ask, which no person can answer here): the stand-in never runs it',
    call: (h, sb) => h.shell(`PATH=${standInBin(sb)}:$PATH kubectl delete ns payments`),
    check(w) {
      expect(kubectlRuns(w.sb)).not.toContain('delete');
    },
  },
];

/** Where prepareWorld puts the stand-in programs (they log their arguments, nothing else). */
export const standInBin = (sb: Sandbox): string => path.join(sb.dir, 'stand-in-bin');

/** Every argument list the stand-in kubectl was run with, one per line. */
export function kubectlRuns(sb: Sandbox): string {
  const log = path.join(sb.dir, 'kubectl-runs.txt');
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '';
}

/** The commits pushed to the bare remote as a ref's new value, in order (its pre-receive log). */
export function pushedShas(sb: Sandbox): string[] {
  const log = path.join(sb.dir, 'pushes.log');
  if (!fs.existsSync(log)) return [];
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[1] ?? '');
}

/** Prepares the git world for GIT_STEPS; returns the rewritten commit B. */
export function prepareGit(sb: Sandbox): string {
  const hook = path.join(sb.remote, 'hooks', 'pre-receive');
  fs.writeFileSync(hook, `#!/bin/sh\ncat >> '${path.join(sb.dir, 'pushes.log')}'\n`, { mode: 0o755 });
  sb.git('checkout', '-q', '-b', 'rewrite');
  sb.git('commit', '-q', '--amend', '-m', 'person: rewritten history');
  const rewritten = sb.git('rev-parse', 'HEAD');
  sb.git('checkout', '-q', 'main');
  personCommits(sb);
  return rewritten;
}
