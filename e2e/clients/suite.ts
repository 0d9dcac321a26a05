/**
 * The one real-client suite every harness runs: each scenario in a fresh sandbox, Buckler wired
 * by its own installer, the real CLI driven by the fake model, side effects checked. A control
 * run without Buckler shows that the same scripted force push really moves the remote, so a
 * passing deny case means Buckler stopped it, not that the client never ran the command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ToolCall, startFakeModel } from './fake-model.ts';
import { PROTECTION, type Step, type World, hooksText, prepareWorld, startScriptServer } from './protection.ts';
import { type HarnessRun, ensureClient } from './harness.ts';
import { run } from './run.ts';
import { type Sandbox, makeSandbox } from './sandbox.ts';
import { SCENARIOS, type Scenario, personCommits, snapshot } from './scenarios.ts';

const CONTROL: Scenario = {
  name: 'control: without Buckler the scripted force push moves the remote',
  commands: ['git push --force origin main'],
  before: personCommits,
  check(sb, _model, state) {
    expect(sb.remoteHead()).not.toBe(state.remoteBefore);
  },
};

export function clientSuite(h: HarnessRun, title: string): void {
  let bin = '';
  let sb: Sandbox | undefined;
  beforeAll(() => {
    bin = ensureClient(h.client);
  });
  afterEach(() => {
    sb?.cleanup();
    sb = undefined;
  });

  async function play(sc: Scenario, wire: boolean): Promise<void> {
    sb = makeSandbox();
    const model = await startFakeModel(h.dialect, sc.commands.map((c) => h.shell(c)));
    try {
      h.prepare(sb, model.url);
      if (wire) {
        const wired = sb.buckler('hooks', 'merge', '--harness', h.harness);
        expect(wired.status, wired.stdout + wired.stderr).toBe(0);
        expect(fs.readFileSync(h.hooksFile(sb), 'utf8')).toContain(`--driver ${h.harness}`);
      }
      sc.before?.(sb);
      const state = snapshot(sb);
      const [file, args] = h.argv(bin);
      const r = await run(file, args, { cwd: sb.project, env: { ...sb.env, ...h.env(sb, model.url) }, timeoutMs: 120_000 });
      expect(r.timedOut, `timed out:\n${r.stdout}\n${r.stderr}`).toBe(false);
      // Every scripted call was made and its result reached the model.
      expect(model.toolResults(), r.stdout + r.stderr).toHaveLength(sc.commands.length);
      sc.check(sb, model, state);
    } finally {
      await model.close();
    }
  }

  describe(`${title} (real client): protection, one client run`, () => {
    let world: World | undefined;
    let failure = '';
    let psb: Sandbox | undefined;
    const steps: { step: Step }[] = [];
    beforeAll(async () => {
      bin = ensureClient(h.client);
      psb = makeSandbox();
      const sb = psb;
      const scripts = await startScriptServer(sb);
      // Filled once Buckler is wired (a call may quote the hook settings); the model reads the
      // script at each request.
      const calls: ToolCall[] = [];
      const model = await startFakeModel(h.dialect, calls);
      try {
        h.prepare(sb, model.url);
        const wired = sb.buckler('hooks', 'merge', '--harness', h.harness);
        expect(wired.status, wired.stdout + wired.stderr).toBe(0);
        prepareWorld(sb);
        for (const { step } of steps) {
          const call = step.call(h, sb, scripts.url);
          if (call === undefined) throw new Error(`${h.harness}: no call for ${step.name}`);
          calls.push(call);
        }
        const hooksBefore = hooksText(h, sb);
        const remoteBefore = sb.remoteHead();
        const env = { ...sb.env, ...h.env(sb, model.url), DIR: path.join(sb.dir, 'victim') };
        const [file, args] = h.argv(bin);
        const r = await run(file, args, { cwd: sb.project, env, timeoutMs: 240_000 });
        if (r.timedOut) failure = `timed out:\n${r.stdout}\n${r.stderr}`;
        const results = model.toolResults();
        if (results.length !== calls.length) failure ||= `${results.length} of ${calls.length} tool results reached the model:\n${r.stdout}\n${r.stderr}`;
        const hooksAfter = fs.existsSync(h.hooksFile(sb)) ? hooksText(h, sb) : '(deleted)';
        world = { sb, model, hooksBefore, hooksAfter, remoteBefore, results };
      } finally {
        await model.close();
        await scripts.close();
      }
    }, 300_000);
    afterAll(() => psb?.cleanup());

    let index = 0;
    for (const step of PROTECTION) {
      const missing = (step.uses === 'read' && h.read === undefined) || (step.uses === 'write' && h.write === undefined);
      const why = h.unsupported?.[step.name] ?? (missing ? `the harness has no file-${step.uses} tool` : undefined);
      if (why !== undefined) {
        it.skip(`${step.name} (${why})`, () => {});
        continue;
      }
      steps.push({ step });
      const at = index++;
      it(step.name, () => {
        expect(failure, failure).toBe('');
        const w = world as World;
        step.check(w, w.results[at] ?? '');
      });
    }
  });

  describe(`${title} (real client)`, () => {
    it(CONTROL.name, () => play(CONTROL, false));
    for (const sc of SCENARIOS) {
      const why = h.unsupported?.[sc.name];
      if (why !== undefined) it.skip(`${sc.name} (${why})`, () => {});
      else it(sc.name, () => play(sc, true));
    }
  });
}
