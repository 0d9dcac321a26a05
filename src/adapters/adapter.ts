/**
 * The contract every harness adapter implements. Adapters translate, they never decide:
 * native event → PolicyInput, PolicyOutput → native reply. Both functions are pure.
 */
import type { PolicyInput, PolicyOutput } from '../core/contract.ts';

/** What the driver knows beyond the native payload (read outside the adapter). */
export interface AdaptContext {
  /** Environment variables to carry into PolicyInput.env (bypass and policy-referenced ones). */
  env: Record<string, string>;
}

/** A native reply: the JSON object to print, or null to print nothing; and the exit code. */
export interface NativeReply {
  stdout: unknown | null;
  exitCode: number;
}

export interface Adapter {
  /** Kebab-case harness name shared by folder, CLI argument and doc page. */
  readonly name: string;
  /** Native payload (already JSON-parsed) → PolicyInput. Throws PolicyError on a bad payload. */
  adaptInput(raw: unknown, ctx: AdaptContext): PolicyInput;
  /** PolicyOutput → the harness's native reply for that event. */
  adaptOutput(output: PolicyOutput, raw: unknown): NativeReply;
  /**
   * The reply when something went wrong (unreadable stdin, bad payload, internal error).
   * `before` says whether the event happens before an action: then the reply must block
   * (fail closed) with `message`; after an action it must never block.
   */
  failureReply(raw: unknown, message: string, before: boolean): NativeReply;
  /** Whether a native payload is for an event before an action (best effort on bad input). */
  isBeforeAction(raw: unknown): boolean;
}
