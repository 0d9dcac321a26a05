/**
 * The driver's side of allow-once (docs/allow-once.md): after `evaluate` said deny or ask
 * before an action, a live entry for each blocking command turns the decision into allow (one
 * use consumed); otherwise the person-facing message says what to run to allow it. Imported by
 * the hook only for a deny or an ask. `grantsOff`: the locked-down install's system config has
 * `[system] allow = false`.
 */
import fs from 'node:fs';
import type { Decision, PolicyInput, PolicyOutput } from '../core/contract.ts';
import { allowCommandText, blockingCommands, consume, storeFile } from './allow-once.ts';
import { actsElsewhere } from './allow-where.ts';
import type { CliIO } from './io.ts';
import { processPathContext, processPaths, processUid, systemMode } from './process-paths.ts';
import { matchSystemGrants } from './system-grants.ts';
import { projectRoot } from './project.ts';

export interface AllowOnceUse {
  /** The entries used. */
  ids: string[];
  /** What the policy had decided. */
  was: Decision;
  project: string;
}

export function inputProject(input: PolicyInput, env: CliIO['env']): string {
  const cwd = input.shell?.cwd ?? input.context?.cwd ?? process.cwd();
  return projectRoot(cwd, processPathContext(env).home, input.session?.workspace_roots ?? input.context?.project_roots ?? []);
}

export function applyAllowOnce(
  input: PolicyInput,
  output: PolicyOutput,
  env: CliIO['env'],
  warn: (text: string) => void,
  grantsOff = false,
): { output: PolicyOutput; allowOnce?: AllowOnceUse; hint?: PersonHint } {
  const argvs = blockingCommands(output, input);
  if (argvs === null) return { output };
  // The locked-down install's system config switched allow off (`[system] allow = false`):
  // grants made before are not used, and no administrator command is offered.
  if (grantsOff && systemMode()) return { output };
  const project = inputProject(input, env);
  try {
    const file = storeFile(processPaths(env).stateHome);
    // The usual case, no store: nothing to match, and where the command acts is not worked out
    // (a deny's cost on the hook path; docs/performance.md).
    // A grant applies where the command acts: not after a `cd` into another project, nor with
    // `-C`, `--git-dir`, `--work-tree` or `GIT_DIR` naming another (allow-where.ts).
    const elsewhere = !fs.existsSync(file) || actsElsewhere(input, argvs, project, processPathContext(env).home);
    // The locked-down install: root's store, read only, bounded by time (system-grants.ts).
    const used = elsewhere ? null : systemMode() ? matchSystemGrants(file, input, project, argvs, Date.now()) : consume(file, processUid(), input, project, argvs, Date.now());
    if (used !== null) {
      return {
        output: { ...output, decision: 'allow', user_message: null, agent_message: null, additional_context: null },
        allowOnce: { ids: used.ids, was: output.decision, project },
      };
    }
  } catch (e) {
    warn(`warning: allow-once entries not read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const hint = systemMode()
    ? `To let ${argvs.length === 1 ? 'it' : 'these'} run for a short time, an administrator runs:\n  sudo ${allowCommandText(project, argvs)}`
    : `To let ${argvs.length === 1 ? 'it' : 'these'} run once, run in your own terminal:\n  ${allowCommandText(project, argvs)}`;
  // The hint is for the person only: where the rule wrote no message for the agent, the agent
  // keeps reading the person's message as it was (adapters fall back to it), without the hint.
  const filled = (s: string | null): s is string => s !== null && s.trim() !== '';
  const agent = filled(output.agent_message) ? output.agent_message : filled(output.user_message) ? output.user_message : null;
  const bare: PolicyOutput = { ...output, agent_message: agent };
  return { output: { ...bare, user_message: filled(output.user_message) ? `${output.user_message}\n${hint}` : hint }, hint: { text: hint, bare } };
}

/**
 * The `buckler allow …` hint, for a harness whose person's message reaches the model too
 * (Adapter.personOnly): `bare` is the output without it (the reply), `text` the hint alone.
 */
export interface PersonHint {
  text: string;
  bare: PolicyOutput;
}
