/**
 * The scenarios every real-client test runs, harness-neutral: what the fake model asks for, and
 * how the test checks by side effect that Buckler's decision held in the real client.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { FakeModel } from './fake-model.ts';
import type { Sandbox } from './sandbox.ts';

export interface Scenario {
  name: string;
  /** Shell commands the model asks to run, in order. */
  commands: string[];
  /** Prepares the sandbox as the person would (never through the agent). */
  before?(sb: Sandbox): void;
  /** Checks the side effects, and what reached the model. */
  check(sb: Sandbox, model: FakeModel, state: Record<string, unknown>): void;
}

export const personCommits = (sb: Sandbox): void => {
  fs.writeFileSync(path.join(sb.project, 'notes.txt'), 'work in progress\n');
  sb.git('add', 'notes.txt');
  sb.git('commit', '-q', '-m', 'person: local work');
};

export const SCENARIOS: Scenario[] = [
  {
    name: 'a force push is denied: the remote is unchanged and the model is told why',
    commands: ['git push --force origin main'],
    before: personCommits,
    check(sb, model, state) {
      expect(sb.remoteHead()).toBe(state.remoteBefore);
      expect(model.transcript()).toContain('agent-git/no-force-push');
    },
  },
  {
    name: 'a force push through a nested shell and a +refspec is denied',
    commands: [`bash -c "git push origin +main"`],
    before: personCommits,
    check(sb, model, state) {
      expect(sb.remoteHead()).toBe(state.remoteBefore);
      expect(model.transcript()).toContain('agent-git/');
    },
  },
  {
    name: 'a commit is denied: the commit count is unchanged',
    commands: ['git commit --allow-empty -m "agent commit"'],
    check(sb, model, state) {
      expect(sb.commitCount()).toBe(state.countBefore);
      expect(model.transcript()).toContain('agent-git/');
    },
  },
  {
    name: 'a harmless command runs',
    commands: ['echo ran > proof.txt && git log --oneline --grep=commit'],
    check(sb, model) {
      expect(fs.readFileSync(path.join(sb.project, 'proof.txt'), 'utf8')).toBe('ran\n');
      expect(model.transcript()).not.toContain('Blocked');
    },
  },
  {
    name: 'a plain push is allowed: the remote moves',
    commands: ['git push origin main'],
    before: personCommits,
    check(sb, _model, state) {
      expect(sb.remoteHead()).not.toBe(state.remoteBefore);
      expect(sb.remoteHead()).toBe(sb.git('rev-parse', 'HEAD'));
    },
  },
  {
    name: 'a nudge reaches the model and the command still runs',
    commands: ['echo more >> README.md && git add README.md'],
    check(sb, model) {
      expect(sb.git('diff', '--cached', '--name-only')).toBe('README.md');
      expect(model.transcript()).toContain('committing is left to a person');
    },
  },
  {
    // Issue 23: a stand-in kubectl on PATH records every run; strict tier (config.toml, as the
    // person sets it) denies deleting cluster resources. The harmless call runs, the delete never does.
    name: 'kubectl delete ns is denied (strict): the stand-in kubectl runs for get, never for delete',
    commands: ['kubectl get pods', 'kubectl delete ns payments'],
    before(sb) {
      const bin = path.join(sb.dir, 'stand-in-bin');
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, 'kubectl'), `#!/bin/sh\necho "$*" >> '${path.join(sb.dir, 'kubectl-runs.txt')}'\n`, { mode: 0o755 });
      sb.env.PATH = `${bin}:${sb.env.PATH}`;
      const config = path.join(sb.home, '.config', 'buckler');
      fs.mkdirSync(config, { recursive: true });
      fs.writeFileSync(path.join(config, 'config.toml'), 'tier = "strict"\n');
    },
    check(sb, model) {
      expect(fs.readFileSync(path.join(sb.dir, 'kubectl-runs.txt'), 'utf8')).toBe('get pods\n');
      expect(model.transcript()).toContain('agent-k8s/');
    },
  },
];

/** What the checks compare against, taken after `before` and before the client runs. */
export function snapshot(sb: Sandbox): Record<string, unknown> {
  return { remoteBefore: sb.remoteHead(), countBefore: sb.commitCount() };
}
