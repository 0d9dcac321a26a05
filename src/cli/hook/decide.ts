/**
 * The hook's deciding stage: the event's bytes → the adapter's PolicyInput → where the action
 * happens → the policy (with the project's rules) → the decision → allow-once → the native
 * reply. Everything it reads comes in the request (the bytes, the environment, the working
 * directory) or through `DriverDeps`, so any entry point can call it, not only the process
 * hook. Never throws: a failure is answered by the adapter's failure reply (failure-reply.ts).
 */
import type { Adapter } from '../../adapters/adapter.ts';
import { isPreTrigger, PolicyError, type PolicyInput, type PolicyOutput } from '../../core/contract.ts';
import { BYPASS_VARS } from '../../core/policy.ts';
import { recordsEveryDecision } from '../../audit/defaults.ts';
import type { LoadedPolicy } from '../../packs/runtime.ts';
import { isSystemLocationVariable, systemEnv } from '../../paths.ts';
import { DamagedCacheError } from '../../packs/cache.ts';
import { actionContext } from '../action-context.ts';
import type { AllowOnceUse, PersonHint } from '../allow-apply.ts';
import { rulesProject } from '../project.ts';
import type { Deadline } from './deadline.ts';
import { failureResult, type Progress } from './failure-reply.ts';
import { readPayload, withEvent } from './payload.ts';
import type { DriverDeps, HookEnv, HookResult } from './result.ts';

/** One event to decide and what surrounds it, all passed in. */
export interface DecideRequest {
  /** The harness whose event this is. */
  adapter: Adapter;
  /** `--event`: the event, for payloads that do not name it. */
  event?: string;
  /** The event as it arrived on stdin. */
  bytes: Buffer;
  /** The hook process's environment (never the agent's command line). */
  env: HookEnv;
  /** The hook process's working directory: where an event that names none happens. */
  cwd: string;
  /**
   * The locked-down install: the variables set aside from `env` (main.ts, systemEnv) until the
   * system config says which count (`[system] allow_bypass`, `allow_location_variables`).
   */
  withheld?: HookEnv;
}

/** What a decision calls: loading and evaluating, the deadline, and a warning channel. */
export interface DecideServices {
  deps: DriverDeps;
  deadline: Pick<Deadline, 'race'>;
  warn: (text: string) => void;
}

/** Only the variables the rules refer to, and the operator bypass: nothing else leaves the process. */
export function policyEnv(env: HookEnv, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...keys, ...BYPASS_VARS]) {
    const v = env[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/** What a person is told when rules were dropped at load: how many, the first, and what to run. */
export function droppedNotice(dropped: readonly string[]): string {
  const n = dropped.length;
  const more = n > 1 ? ` (and ${n - 1} more)` : '';
  return `Buckler: ${n === 1 ? 'a rule was' : `${n} rules were`} not loaded and guard nothing: ${dropped[0]}${more}. Run \`buckler validate\` to see and fix them.`;
}

/**
 * While config.toml is read the strict way (src/packs/config.ts), every block message ends with
 * why, so the person can fix the file: `config.toml line N: <problem>; using the strict reading`.
 */
export function withStrictReadingNote(output: PolicyOutput, note: string | undefined): PolicyOutput {
  if (note === undefined || (output.decision !== 'deny' && output.decision !== 'ask')) return output;
  const end = (m: string | null): string => (m === null || m === '' ? note : `${m}\n${note}`);
  return { ...output, user_message: end(output.user_message), agent_message: end(output.agent_message) };
}

/**
 * The locked-down install: the hook's environment with the set-aside variables the loaded
 * system config allows put back (`allows`: its `[system] allow_bypass`, `allow_location_variables`),
 * and whether a location variable came back (the person's config, rules.d and audit log may
 * have moved); undefined when nothing comes back. Costs nothing outside that mode.
 */
export function allowedEnv(env: HookEnv, withheld: HookEnv | undefined, allows: LoadedPolicy['config']['system_allows']): { env: HookEnv; moved: boolean } | undefined {
  if (withheld === undefined || allows === undefined) return undefined;
  const back = systemEnv(withheld, { bypass: allows.bypass, locationVariables: allows.location_variables });
  const names = Object.keys(back);
  if (names.length === 0) return undefined;
  return { env: { ...env, ...back }, moved: names.some(isSystemLocationVariable) };
}

/**
 * The environment a failure is answered with: the one the decision had got to, or, in the
 * locked-down install when a bypass variable was set aside before the policy loaded, the system
 * config read now (only then) to see whether it allows the bypass.
 */
export async function failureEnv(env: HookEnv, withheld: HookEnv | undefined, loaded: LoadedPolicy | undefined): Promise<HookEnv> {
  if (withheld === undefined || loaded !== undefined || !BYPASS_VARS.some((k) => withheld[k] === '1')) return env;
  try {
    const { readSystemSettings } = await import('../system-settings.ts');
    const s = readSystemSettings();
    return allowedEnv(env, withheld, { bypass: s.allowBypass, location_variables: false })?.env ?? env;
  } catch {
    return env;
  }
}

/** Decides one event; a failure anywhere is answered with the adapter's failure reply. */
export async function decide(req: DecideRequest, svc: DecideServices): Promise<HookResult> {
  const got: Progress & { raw?: { value: unknown }; env?: HookEnv } = {};
  try {
    return await decideEvent(req, svc, got);
  } catch (e) {
    const known = got.raw !== undefined ? { raw: got.raw.value } : { text: req.bytes.toString('utf8'), event: req.event };
    // An event refused with what the adapter had read (an unknown event carrying a tool call):
    // the audit record names it, and `buckler doctor` lists it.
    if (got.input === undefined && e instanceof PolicyError && e.input !== undefined) got.input = e.input;
    const env = got.env ?? (await failureEnv(req.env, req.withheld, got.loaded));
    const result = failureResult(e, req.adapter, known, env, svc.warn, got);
    if (got.env !== undefined) result.env = got.env;
    return result;
  }
}

/** The decision proper; records in `got` how far it got, for the failure reply. */
async function decideEvent(req: DecideRequest, svc: DecideServices, got: Progress & { raw?: { value: unknown }; env?: HookEnv }): Promise<HookResult> {
  const { adapter } = req;
  const raw = withEvent(readPayload(req.bytes), req.event, adapter);
  got.raw = { value: raw };
  const adapted = adapter.adaptInput(raw);
  got.input = adapted;
  // Where the action happens (home, project roots, temp directories, named locations): the core
  // resolves paths against it. From the hook process's environment and a few `stat` calls, never the agent's.
  const context = actionContext(adapted, { env: req.env, cwd: req.cwd });
  // The project's own rules (.buckler/rules.d) load with the rest: one `stat` when it has none.
  const project = rulesProject(context);
  if (project !== undefined) got.project = project;
  let env = req.env;
  const load = async (): Promise<LoadedPolicy> => {
    const pending = svc.deadline.race(svc.deps.loadPolicy(env, project));
    return pending instanceof Promise ? await pending : pending;
  };
  let loaded = await load();
  got.loaded = loaded;
  // The locked-down install: the variables its system config allows count from here on; a
  // location variable may move the person's layers, so the policy is loaded again with it.
  const allowed = allowedEnv(env, req.withheld, loaded.config.system_allows);
  if (allowed !== undefined) {
    env = allowed.env;
    got.env = env;
    if (allowed.moved) {
      loaded = await load();
      got.loaded = loaded;
    }
  }
  for (const w of loaded.warnings) svc.warn(w);
  let input: PolicyInput = { ...adapted, env: policyEnv(env, loaded.policy.env_keys), context };
  got.input = input;
  let evaluated: Awaited<ReturnType<typeof evaluateEvent>>;
  try {
    evaluated = await evaluateEvent(input, loaded, env, svc);
  } catch (e) {
    // A section of the compiled-pack cache found damaged when first used (packs/cache.ts): the
    // file is gone already; decide again with the policy compiled afresh.
    if (!(e instanceof DamagedCacheError) || loaded.cached !== true) throw e;
    svc.warn(`${e.message}; compiled afresh`);
    loaded = await load();
    got.loaded = loaded;
    for (const w of loaded.warnings) svc.warn(w);
    input = { ...adapted, env: policyEnv(env, loaded.policy.env_keys), context };
    got.input = input;
    evaluated = await evaluateEvent(input, loaded, env, svc);
  }
  const { allowOnce, hint } = evaluated;
  const output = withStrictReadingNote(evaluated.output, loaded.config.strict_reading);
  // The `buckler allow …` hint goes only where the person alone reads it (Adapter.personOnly):
  // else through the harness's person-only notice, else nowhere (`buckler log` shows it).
  const hidden = hint !== undefined && (output.decision === 'deny' || output.decision === 'ask') && !adapter.personOnly[output.decision];
  const reply = hidden ? adapter.adaptOutput(withStrictReadingNote(hint.bare, loaded.config.strict_reading), raw) : adapter.adaptOutput(output, raw);
  const result: HookResult = { adapter, reply: hidden && adapter.notice ? adapter.notice(reply, hint.text) : reply, output, input, loaded };
  if (project !== undefined) result.project = project;
  if (allowOnce) result.allowOnce = allowOnce;
  if (got.env !== undefined) result.env = got.env;
  // Rules dropped at load guard nothing: say so where the person sees it (never blocks).
  if (loaded.dropped && loaded.dropped.length > 0 && adapter.notice) result.reply = adapter.notice(result.reply, droppedNotice(loaded.dropped));
  return result;
}

/** The policy's decision, and an allow-once entry's, if one lets a deny or an ask through. */
async function evaluateEvent(input: PolicyInput, loaded: LoadedPolicy, env: HookEnv, svc: DecideServices): Promise<{ output: PolicyOutput; allowOnce?: AllowOnceUse; hint?: PersonHint }> {
  // Every decision is recorded (audit_log = true): its paths are listed now, for the record.
  const output = recordsEveryDecision(loaded.config.audit_log) ? svc.deps.evaluate(input, loaded.policy, { paths: true }) : svc.deps.evaluate(input, loaded.policy);
  // Allow-once entries can only matter for a deny or an ask before an action: only then is
  // the store read (the module is imported then too).
  if ((output.decision === 'deny' || output.decision === 'ask') && isPreTrigger(input.trigger) && output.error === undefined) {
    const { applyAllowOnce } = await import('../allow-apply.ts');
    return applyAllowOnce(input, output, env, svc.warn, loaded.config.system_allows?.allow === false);
  }
  return { output };
}
