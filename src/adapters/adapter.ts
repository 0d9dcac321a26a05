/**
 * The contract every harness adapter implements. Adapters translate, they never decide:
 * native event → PolicyInput, PolicyOutput → native reply. All functions are pure; the
 * driver (src/cli/driver.ts) does the reading, loading, evaluating and writing.
 *
 * How to add a harness: docs/adapters/README.md. The shared conformance suite
 * (conformance.case.test.ts) runs against every adapter in registry.ts.
 */
import type { PolicyInput, PolicyOutput } from '../core/contract.ts';

/** A native reply: the JSON object to print on stdout (null = print nothing) and the exit code. */
export interface NativeReply {
  stdout: Record<string, unknown> | null;
  exitCode: number;
}

/**
 * What is known of an event Buckler could not check: the parsed payload (`raw`), or, when it
 * did not parse, its text (absent: nothing was read) and the event name `--event` gave.
 */
export type UncheckedEvent = { readonly raw: unknown } | { readonly text: string | undefined; readonly event: string | undefined };

/** Why an event could not be checked: a short code and a sentence for the person. */
export interface CheckFailure {
  code: string;
  reason: string;
}

/** An adapter's answer to an event it could not check. */
export interface FailureReply {
  reply: NativeReply;
  /** The PolicyOutput the reply says (for the audit record). */
  output: PolicyOutput;
  /** The event is one before an action (or could not be told): the failure blocks unless bypassed. */
  before: boolean;
}

/** Where an adapter's protocol facts come from (shown in its doc page, checked by the suite). */
export interface ProtocolSource {
  /** The artefact the facts were read from, e.g. `@cursor/sdk`. */
  artefact: string;
  version: string;
  /** Publication date of that version, YYYY-MM-DD. */
  date: string;
}

export interface Adapter {
  /** Kebab-case harness name shared by folder, registry key, CLI argument and doc page. */
  readonly name: string;
  /** Human name for messages and docs (`Cursor`, `Claude Code`). */
  readonly title: string;
  readonly protocol: ProtocolSource;
  /** Every native event name this harness can send (gated or not). */
  readonly events: readonly string[];
  /** The top-level payload key that names the event (`hook_event_name`). */
  readonly eventField: string;
  /**
   * Native payload (already JSON-parsed) → PolicyInput without `env` (the driver adds the
   * operator environment). Throws PolicyError on a payload that is not what its event carries.
   */
  adaptInput(raw: unknown): PolicyInput;
  /**
   * PolicyOutput → the harness's native reply for that payload's event. Must accept any
   * `raw`, including one it could not read (then it answers in the shape of the event it
   * gates before an action). Never blocks after an action.
   */
  adaptOutput(output: PolicyOutput, raw: unknown): NativeReply;
  /**
   * Whether the payload is for an event before an action, i.e. whether a failure to check
   * it must block. True for anything it cannot tell (fail closed).
   */
  isBeforeAction(raw: unknown): boolean;
  /**
   * Whether a reply stops (or holds for the person's approval) the action: the protocol's
   * reading of a reply, used by tests and checked by the conformance suite against the
   * reference fixtures.
   */
  isBlocking(reply: NativeReply): boolean;
  /**
   * The native reply for an event Buckler could not check (`failure` says why; `known` is what
   * was read of it): before an action a deny that says what went wrong (fail closed), an allow
   * when `bypass` (the operator bypass is set); after an action the harness's "no opinion".
   * Pure, and never throws for any `known`.
   */
  failureReply(failure: CheckFailure, known: UncheckedEvent, bypass: boolean): FailureReply;
  /**
   * A native event before a shell command runs, shaped as the harness sends it, for `command`
   * run in `cwd`. `buckler doctor` pipes it into the wired hook command as a live self-test;
   * the conformance suite checks that `adaptInput` reads it back as that command.
   */
  selfTestEvent(command: string, cwd: string): Record<string, unknown>;
  /**
   * Adds `text` for the person to a reply, through a channel of the harness that shows it to
   * them and never changes what the reply decides (Claude Code's and Gemini CLI's
   * `systemMessage`). Absent: the harness has no such channel. Used for what a person must
   * fix, such as rules dropped at load. Must keep the reply one JSON object (or none).
   */
  notice?(reply: NativeReply, text: string): NativeReply;
  /**
   * Whether the person's message of a deny or an ask before an action (PolicyOutput.user_message)
   * reaches the person only, never the model, in every mode the harness runs in. Where it does
   * not (OpenCode's thrown error, Copilot CLI's ask reason, Claude Code's ask reason in `-p`), the
   * `buckler allow …` hint is not put there: it goes to `notice` when the harness has one, else
   * the person finds it with `buckler log`.
   */
  readonly personOnly: { readonly deny: boolean; readonly ask: boolean };
}

/** `notice` for harnesses whose replies take a top-level `systemMessage` shown to the person. */
export function systemMessageNotice(reply: NativeReply, text: string): NativeReply {
  if (reply.exitCode !== 0) return reply;
  const stdout = { ...(reply.stdout ?? {}) };
  const before = stdout['systemMessage'];
  stdout['systemMessage'] = typeof before === 'string' && before !== '' ? `${before}\n\n${text}` : text;
  return { ...reply, stdout };
}
