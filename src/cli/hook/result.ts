/**
 * What the hook's stages hand each other and the driver: the services a decision calls
 * (`DriverDeps`, replaced by tests and by a caller that is not the process hook) and one
 * decided call (`HookResult`). Types only.
 */
import type { Adapter, NativeReply } from '../../adapters/adapter.ts';
import type { CommandPath, PolicyInput, PolicyOutput } from '../../core/contract.ts';
import type { LoadedPolicy } from '../../packs/runtime.ts';
import type { AllowOnceUse } from '../allow-apply.ts';

/**
 * The bits of `CODE` (code-bits.ts) one hook call's readers set while it was decided (a script
 * read, a git alias lookup): made per call and carried by its result, never shared between calls.
 */
export interface CodeTrace {
  bits: number;
}

/** The environment a decision reads: the hook process's own (never the agent's command line). */
export type HookEnv = Readonly<Record<string, string | undefined>>;

/** What the driver calls outside itself (tests pass their own). */
export interface DriverDeps {
  /** `project`: the project root whose `.buckler/rules.d` loads too (docs/project-rules.md). */
  loadPolicy: (env: HookEnv, project?: string) => LoadedPolicy | Promise<LoadedPolicy>;
  /** `paths`: list each command's paths in `commands` (for the audit record). */
  evaluate: (input: PolicyInput, policy: LoadedPolicy['policy'], options?: { paths?: boolean }) => PolicyOutput;
  /**
   * The paths of the commands the last `evaluate` of this call judged, as `evaluate` with
   * `paths` lists them; undefined when there is none to take them from (the audit then decides
   * once more).
   */
  decidedPaths?: () => CommandPath[] | undefined;
}

/** One hook call, decided. */
export interface HookResult {
  adapter: Adapter;
  reply: NativeReply;
  output: PolicyOutput;
  /** Absent when the payload could not be read. */
  input?: PolicyInput;
  /** Absent when the policy was not (or could not be) loaded. */
  loaded?: LoadedPolicy;
  /** The project root whose rules were loaded with the policy (absent: none). */
  project?: string;
  /** The deadline passed: something (a stdin read) may still be pending; the process must exit. */
  abandoned?: true;
  /** A deny or ask the person had allowed with `buckler allow` (docs/allow-once.md). */
  allowOnce?: AllowOnceUse;
  /** An audit record was written. */
  audited?: true;
  /**
   * The environment the call was decided with, when it is not the hook process's as main.ts
   * filtered it (the locked-down install's system config allowed some set-aside variables back):
   * the audit stage writes where it says.
   */
  env?: HookEnv;
  /** The parts of the hook path the call's readers went through (absent: not traced). */
  trace?: CodeTrace;
}
