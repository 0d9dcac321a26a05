/**
 * `buckler [--driver NAME]`: the hook driver. The harness's native event on stdin, its native
 * reply on stdout (one write, at most one JSON object), exit 0.
 *
 * Fail closed: whatever goes wrong before an action (empty or invalid stdin, a payload it
 * cannot read, an unknown driver name, an unsupported contract version, no event within the
 * deadline, an internal error) is answered with a valid deny in the harness's shape that says
 * what went wrong; after an action, with the harness's "no opinion". Only if even that answer
 * cannot be built does the process exit 2 with the reason on stderr (both Cursor and Claude Code
 * treat exit 2 as "block"). Nothing but one JSON object (or nothing) is ever printed: a real
 * Claude Code reads other output as plain text and lets the tool run.
 *
 * Broken packs are not a failure of the hook: a pack file that cannot be read or parsed, or a
 * rule that does not validate, is skipped with a warning on stderr (`buckler validate` lists
 * them), and the hook decides with the rules that did load. The builtin packs ship checked.
 *
 * Deadline: the whole hook has one (BUCKLER_HOOK_DEADLINE_MS, default 5000 ms, below the
 * 10-second timeout the installers write and far below the harnesses' defaults), so Buckler
 * answers before a harness's timeout could let the action through. Stdin is read until a whole
 * JSON object has arrived (a harness may leave stdin open) or end of input, whichever comes first.
 *
 * The stages, each in src/cli/hook/ with the data it hands on: `read-event` (arguments, stdin,
 * deadline) → `decide` (adapt, action context, policy, evaluate, allow-once, reply; a function
 * of the event's bytes, the environment and the working directory) → `failure-reply` (the
 * adapter's answer when something failed) → `audit`. This module wires them for the process.
 *
 * This module is the hook path: keep it lean (no YAML, nothing loaded that a hook does not use).
 */
import type { NativeReply } from '../adapters/adapter.ts';
import type { PolicyInput } from '../core/contract.ts';
import { evaluate, judgedPaths, type EvaluateOptions } from '../core/evaluate.ts';
import type { Judged } from '../core/messages.ts';
import { loadRuntimePolicy } from '../packs/runtime.ts';
import { gitAliasReader } from './git-config.ts';
import { auditHook } from './hook/audit.ts';
import { CODE, codeBits, type CodeTrace } from './hook/code-bits.ts';
import { Deadline, hookDeadlineMs } from './hook/deadline.ts';
import { decide, failureEnv } from './hook/decide.ts';
import { failureResult } from './hook/failure-reply.ts';
import { readEvent } from './hook/read-event.ts';
import type { DriverDeps, HookEnv, HookResult } from './hook/result.ts';
import type { CliIO } from './io.ts';
import { pathResolver } from './path-resolver.ts';
import { policyOptions, processPaths, processUid } from './process-paths.ts';
import { scriptReader } from './script-reader.ts';
import { targetReader } from './target-reader.ts';
import { noteDownloads } from './download-store.ts';

export { ADAPTER_BIT, CODE, codeBits } from './hook/code-bits.ts';
export { DEFAULT_HOOK_DEADLINE_MS, hookDeadlineMs } from './hook/deadline.ts';
export { droppedNotice } from './hook/decide.ts';
export { isCompleteEvent } from './hook/read-event.ts';
export type { DriverDeps, HookResult } from './hook/result.ts';

/**
 * The process hook's own loading and evaluating, for one call: `trace` collects the parts of
 * the hook path its readers went through (for the code cache), `env` is what they read.
 */
function processDeps(trace: CodeTrace, env: HookEnv): DriverDeps {
  // What the last evaluation judged: the audit of a deny lists its paths from it (decidedPaths)
  // instead of deciding the line once more.
  let decided: readonly Judged[] | undefined;
  return {
    loadPolicy: (e, project) => loadRuntimePolicy(processPaths(e), project === undefined ? policyOptions(e) : { ...policyOptions(e), project }),
    // A script the command runs (`bash ./deploy.sh`) is read and analysed too, as in `check`:
    // otherwise an agent could write a forbidden command into a file and run the file.
    // The same for git aliases in the repository's and the user's config (read only when a
    // command uses a word that may be one): the agent can write the repository's config.
    // Files a line downloads or decodes are recorded, so running them in a later call is judged
    // as on one line (download-store.ts; issue 21, route 9).
    evaluate: (input, policy, options) => {
      const opts: EvaluateOptions = { ...readers(input, trace, env), ...options, onDecided: (j) => (decided = j) };
      const out = evaluate(input, policy, opts);
      noteDownloads(input, out, () => (options?.paths === true ? out : evaluate(input, policy, { ...opts, paths: true })), () => processPaths(env).stateHome);
      return out;
    },
    decidedPaths: () => (decided === undefined ? undefined : judgedPaths(decided)),
  };
}

/** What the core may read around the command: scripts it runs, git aliases where it runs. */
function readers(input: PolicyInput, trace: CodeTrace, env: HookEnv): EvaluateOptions {
  const cwd = input.shell?.cwd ?? process.cwd();
  const script = scriptReader(cwd);
  const aliases = gitAliasReader(cwd, env);
  return {
    // The kubeconfig's context and terraform's workspace, read only for a rule about production targets.
    readTarget: targetReader(cwd, env),
    // Each path is judged at its name and where it leads on disk (links), bounded per event.
    resolvePath: pathResolver(input.context?.locations, input.context?.home),
    readScript: (file) => {
      trace.bits |= CODE.script;
      return script(file);
    },
    readAliases: (program, where) => {
      if (program === 'git') trace.bits |= CODE.aliases;
      return aliases(program, where);
    },
  };
}

/** Decide one hook call: read the event, decide, audit. Never throws for bad input; `io` is used only for env, stdin, stderr. */
export async function handleHook(argv: string[], io: Pick<CliIO, 'env' | 'withheldEnv' | 'readStdin' | 'readStdinUntil' | 'err'>, deps?: DriverDeps): Promise<HookResult> {
  const warn = (text: string): void => {
    try {
      io.err(`buckler: ${text}\n`);
    } catch {
      /* stderr is gone: the reply still goes out */
    }
  };
  const trace: CodeTrace = { bits: 0 };
  const services = deps ?? processDeps(trace, io.env);
  const deadline = new Deadline(hookDeadlineMs(io.env));
  const read = await readEvent(argv, io, deadline);
  const result =
    read.failure !== undefined || read.bytes === undefined
      ? failureResult(read.failure, read.adapter, { text: read.bytes?.toString('utf8'), event: read.event }, await failureEnv(io.env, io.withheldEnv, undefined), warn)
      : await decide(
          { adapter: read.adapter, ...(read.event !== undefined && { event: read.event }), bytes: read.bytes, env: io.env, cwd: process.cwd(), ...(io.withheldEnv !== undefined && { withheld: io.withheldEnv }) },
          { deps: services, deadline, warn },
        );
  deadline.clear();
  result.trace = trace;
  if (deadline.timedOut) result.abandoned = true;
  await auditHook(result, { io, deps: services, policyTimedOut: deadline.timedOut && deadline.stage === 'policy', warn });
  return result;
}

/** Exactly what goes to stdout: nothing, or one JSON object and a newline. */
export function replyText(reply: NativeReply): string {
  return reply.stdout === null ? '' : `${JSON.stringify(reply.stdout)}\n`;
}

export interface DriverRun {
  exitCode: number;
  /**
   * Which parts of the hook path this run compiled and ran (`CODE`, one bit each), for the
   * loader's V8 code cache (src/cli/loader.ts); 0 when the run is not one to keep: the pack
   * compiler of a first hook after an install, or a failure.
   */
  code: number;
  /** Work was left pending at the deadline: exit now rather than wait for it. */
  abandoned: boolean;
}

export async function runDriver(argv: string[], io: CliIO): Promise<DriverRun> {
  if (io.stdinIsTTY) io.err('buckler: hook mode reads one harness event (JSON) from stdin; see buckler --help\n');
  const result = await handleHook(argv, io);
  const text = replyText(result.reply);
  if (text !== '') io.out(text);
  return { exitCode: result.reply.exitCode, code: codeBits(result), abandoned: result.abandoned === true };
}
