/**
 * The one real-client suite every harness runs. A control run without Buckler shows that the
 * scripted force push really rewrites the remote, so a passing deny means Buckler stopped it,
 * not that the client never ran the command. Then ONE client process, Buckler wired by its own
 * installer, runs every step (the git steps of scenarios.ts, then the protection steps of
 * protection.ts) in one conversation with the fake model; each step is checked by its own side
 * effect and by the tool result the model got for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ToolCall, startFakeModel } from './fake-model.ts';
import { type HarnessRun, ensureClient } from './harness.ts';
import { PROTECTION, type Step, type World, hooksText, prepareWorld, startScriptServer } from './protection.ts';
import { run } from './run.ts';
import { type Sandbox, makeSandbox } from './sandbox.ts';
import { GIT_STEPS, prepareGit, pushedShas } from './scenarios.ts';

const STEPS: Step[] = [...GIT_STEPS, ...PROTECTION];
const RUN_MS = 300_000;
const CONTROL_MS = 120_000;

export function clientSuite(h: HarnessRun, title: string): void {
  const runMs = h.timeoutMs ?? RUN_MS;
  const controlMs = h.timeoutMs ?? CONTROL_MS;
  let bin = '';
  beforeAll(() => {
    bin = ensureClient(h.client);
  });

  describe(`${title} (real client): control without Buckler`, () => {
    it('the scripted force push rewrites the remote', { timeout: controlMs + 60_000 }, async () => {
      const sb = makeSandbox();
      const model = await startFakeModel(h.dialect, [h.shell('git push --force origin rewrite:main')]);
      try {
        h.prepare(sb, model.url);
        const rewritten = prepareGit(sb);
        const [file, args] = h.argv(bin);
        const r = await run(file, args, { cwd: sb.project, env: { ...sb.env, ...h.env(sb, model.url) }, timeoutMs: controlMs });
        expect(r.timedOut, `timed out:\n${r.stdout}\n${r.stderr}`).toBe(false);
        expect(model.toolResults(), r.stdout + r.stderr).toHaveLength(1);
        expect(pushedShas(sb)).toContain(rewritten);
        expect(sb.remoteHead()).toBe(rewritten);
      } finally {
        await model.close();
        sb.cleanup();
      }
    });
  });

  describe(`${title} (real client): every step in one client run`, () => {
    let world: World | undefined;
    let failure = '';
    let sb: Sandbox | undefined;
    const steps: Step[] = [];
    beforeAll(async () => {
      bin = ensureClient(h.client);
      sb = makeSandbox();
      const scripts = await startScriptServer(sb);
      // Filled once Buckler is wired (a call may quote the hook settings); the model reads the
      // script at each request.
      const calls: ToolCall[] = [];
      const model = await startFakeModel(h.dialect, calls);
      try {
        h.prepare(sb, model.url);
        const wired = sb.buckler('hooks', 'merge', '--harness', h.harness);
        expect(wired.status, wired.stdout + wired.stderr).toBe(0);
        expect(hooksText(h, sb)).toContain(`--driver ${h.harness}`);
        const rewritten = prepareGit(sb);
        prepareWorld(sb);
        for (const step of steps) {
          const call = step.call(h, sb, scripts.url);
          if (call === undefined) throw new Error(`${h.harness}: no call for ${step.name}`);
          calls.push(call);
        }
        const hooksBefore = hooksText(h, sb);
        const countBefore = sb.commitCount();
        const env = { ...sb.env, ...h.env(sb, model.url), DIR: path.join(sb.dir, 'victim') };
        const [file, args] = h.argv(bin);
        const r = await run(file, args, { cwd: sb.project, env, timeoutMs: runMs });
        if (r.timedOut) failure = `timed out:\n${r.stdout}\n${r.stderr}`;
        const results = model.toolResults();
        // Every scripted call was made and its result reached the model.
        if (results.length !== calls.length) failure ||= `${results.length} of ${calls.length} tool results reached the model:\n${r.stdout}\n${r.stderr}`;
        const hooksAfter = fs.existsSync(h.hooksFile(sb)) ? hooksText(h, sb) : '(deleted)';
        world = { sb, model, hooksBefore, hooksAfter, rewritten, countBefore, results };
      } finally {
        await model.close();
        await scripts.close();
      }
    }, runMs + 60_000);
    afterAll(() => sb?.cleanup());

    let index = 0;
    for (const step of STEPS) {
      const missing = (step.uses === 'read' && h.read === undefined) || (step.uses === 'write' && h.write === undefined);
      const why = h.unsupported?.[step.name] ?? (missing ? `the harness has no file-${step.uses} tool` : undefined);
      if (why !== undefined) {
        it.skip(`${step.name} (${why})`, () => {});
        continue;
      }
      steps.push(step);
      const at = index++;
      it(step.name, () => {
        expect(failure, failure).toBe('');
        const w = world as World;
        step.check(w, w.results[at] ?? '');
      });
    }
  });
}
