/**
 * The hook's failure stage: whatever went wrong before a decision (bad arguments, an unreadable
 * event, a policy that did not load in time, an internal error) is answered by the adapter's
 * failure reply: a deny that says why before an action (fail closed, unless the operator bypass
 * is set), the harness's "no opinion" after one. The reason also goes to stderr.
 */
import type { Adapter, CheckFailure, UncheckedEvent } from '../../adapters/adapter.ts';
import { PolicyError, type PolicyInput } from '../../core/contract.ts';
import { BYPASS_VARS } from '../../core/policy.ts';
import type { LoadedPolicy } from '../../packs/runtime.ts';
import { DriverFailure } from './driver-failure.ts';
import type { HookEnv, HookResult } from './result.ts';

/** What a decision had got to when it failed (all absent: it failed before reading the event). */
export interface Progress {
  input?: PolicyInput;
  loaded?: LoadedPolicy;
  project?: string;
}

/** The failure's code and the sentence the person reads. */
export function explainFailure(e: unknown): CheckFailure {
  if (e instanceof DriverFailure || e instanceof PolicyError) return { code: e.code, reason: e.message };
  const msg = e instanceof Error ? e.message : String(e);
  return { code: 'internal_error', reason: `internal error: ${msg.split('\n')[0]?.slice(0, 300) ?? ''}` };
}

/** Whether the operator bypass is set in the hook's environment. */
export function operatorBypass(env: HookEnv): boolean {
  return BYPASS_VARS.some((k) => env[k] === '1');
}

/** The result of a hook call that failed with `e`, answered in `adapter`'s shape. */
export function failureResult(e: unknown, adapter: Adapter, known: UncheckedEvent, env: HookEnv, warn: (text: string) => void, got: Progress = {}): HookResult {
  const failure = explainFailure(e);
  const { reply, output, before } = adapter.failureReply(failure, known, operatorBypass(env));
  warn(`${failure.reason}${before ? (output.bypass ? ' (allowed: operator bypass is set)' : ' (blocked)') : ''}`);
  const result: HookResult = { adapter, reply, output };
  if (got.input) result.input = got.input;
  if (got.loaded) result.loaded = got.loaded;
  if (got.project !== undefined) result.project = got.project;
  return result;
}
