/**
 * `buckler [--driver NAME]`: the hook driver. The harness's native event on stdin, its native
 * reply on stdout (one write, at most one JSON object), exit 0.
 *
 * Fail closed: whatever goes wrong before an action (empty or invalid stdin, a payload it
 * cannot read, an unknown driver name, a broken pack, an internal error) is answered with a
 * valid deny in the harness's shape that says what went wrong; after an action, with the
 * harness's "no opinion". Only if even that answer cannot be built does the process exit 2
 * with the reason on stderr (both Cursor and Claude Code treat exit 2 as "block").
 *
 * This module is the hook path: keep it lean (no YAML, nothing loaded that a hook does not use).
 */
import { isUtf8 } from 'node:buffer';
import type { Adapter, NativeReply } from '../adapters/adapter.ts';
import { eventNameFromText } from '../adapters/payload.ts';
import { adapterForPayload, DEFAULT_DRIVER, getAdapter, HARNESS_NAMES } from '../adapters/registry.ts';
import { failureOutput } from '../adapters/reply.ts';
import { PolicyError, type PolicyInput, type PolicyOutput } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { BYPASS_VARS } from '../core/policy.ts';
import { loadRuntimePolicy, type LoadedPolicy } from '../packs/runtime.ts';
import { actionContext } from './action-context.ts';
import type { CliIO } from './io.ts';
import { processPaths } from './process-paths.ts';
import { scriptReader } from './script-reader.ts';

/** What the driver calls outside itself (tests pass their own). */
export interface DriverDeps {
  loadPolicy: (env: CliIO['env']) => LoadedPolicy | Promise<LoadedPolicy>;
  evaluate: (input: PolicyInput, policy: LoadedPolicy['policy']) => PolicyOutput;
}

const REAL: DriverDeps = {
  loadPolicy: (env) => loadRuntimePolicy(processPaths(env)),
  // A script the command runs (`bash ./deploy.sh`) is read and analysed too, as in `check`:
  // otherwise an agent could write a forbidden command into a file and run the file.
  evaluate: (input, policy) => evaluate(input, policy, { readScript: scriptReader(input.shell?.cwd ?? process.cwd()) }),
};

/** One hook call, decided. */
export interface HookResult {
  adapter: Adapter;
  reply: NativeReply;
  output: PolicyOutput;
  /** Absent when the payload could not be read. */
  input?: PolicyInput;
  /** Absent when the policy was not (or could not be) loaded. */
  loaded?: LoadedPolicy;
}

/** A failure the driver itself detects (as opposed to one thrown by what it calls). */
class DriverFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function driverName(argv: string[], env: CliIO['env']): string {
  const [first, second, ...rest] = argv;
  let name: string | undefined;
  let extra: string[] = [];
  if (first === undefined) name = undefined;
  else if (first === '--driver') {
    if (second === undefined || second === '') throw new DriverFailure('bad_args', '--driver needs a harness name');
    name = second;
    extra = rest;
  } else if (first.startsWith('--driver=')) {
    name = first.slice('--driver='.length);
    extra = second === undefined ? [] : [second, ...rest];
  } else extra = argv;
  if (extra.length > 0) throw new DriverFailure('bad_args', `unexpected argument '${extra[0]}' in hook mode`);
  const chosen = name ?? env.BUCKLER_DRIVER ?? DEFAULT_DRIVER;
  return chosen === '' ? DEFAULT_DRIVER : chosen;
}

function readPayload(bytes: Buffer): unknown {
  // Decoding replaces bad bytes with U+FFFD; only then is the strict check needed (a fatal
  // TextDecoder costs each hook about 0.3 ms to create and run).
  const decoded = bytes.toString('utf8');
  if (decoded.includes('\uFFFD') && !isUtf8(bytes)) throw new DriverFailure('bad_json', 'stdin is not valid UTF-8');
  // A leading byte-order mark is dropped, as TextDecoder does.
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  if (text.trim() === '') throw new DriverFailure('bad_json', 'stdin was empty (no hook event)');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const why = e instanceof Error ? e.message.slice(0, 160) : 'parse error';
    throw new DriverFailure('bad_json', `stdin is not valid JSON (${why})`);
  }
}

/** Only the variables the rules refer to, and the operator bypass: nothing else leaves the process. */
function policyEnv(env: CliIO['env'], keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...keys, ...BYPASS_VARS]) {
    const v = env[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

function operatorBypass(env: CliIO['env']): boolean {
  return BYPASS_VARS.some((k) => env[k] === '1');
}

function explain(e: unknown): { code: string; reason: string } {
  if (e instanceof DriverFailure || e instanceof PolicyError) return { code: e.code, reason: e.message };
  const msg = e instanceof Error ? e.message : String(e);
  return { code: 'internal_error', reason: `internal error: ${msg.split('\n')[0]?.slice(0, 300) ?? ''}` };
}

/** Decide one hook call. Never throws for bad input; `io` is used only for env, stdin, stderr. */
export async function handleHook(argv: string[], io: Pick<CliIO, 'env' | 'readStdin' | 'err'>, deps: DriverDeps = REAL): Promise<HookResult> {
  const warn = (text: string): void => {
    try {
      io.err(`buckler: ${text}\n`);
    } catch {
      /* stderr is gone: the reply still goes out */
    }
  };
  let adapter = getAdapter(DEFAULT_DRIVER) as Adapter;
  let bytes: Buffer | undefined;
  let raw: unknown;
  let parsed = false;
  let input: PolicyInput | undefined;
  let loaded: LoadedPolicy | undefined;
  let result: HookResult;
  try {
    let failure: DriverFailure | undefined;
    let name = DEFAULT_DRIVER;
    try {
      name = driverName(argv, io.env);
    } catch (e) {
      failure = e as DriverFailure;
    }
    const named = getAdapter(name);
    if (named) adapter = named;
    else if (!failure) {
      failure = new DriverFailure('unknown_driver', `unknown driver '${name}' (known: ${HARNESS_NAMES.join(', ')})`);
    }
    bytes = io.readStdin();
    if (failure) {
      // Answer in the shape of the harness whose event this is, if the payload says.
      adapter = adapterForPayload(bytes.toString('utf8')) ?? adapter;
      throw failure;
    }
    raw = readPayload(bytes);
    parsed = true;
    input = adapter.adaptInput(raw);
    loaded = await deps.loadPolicy(io.env);
    for (const w of loaded.warnings) warn(w);
    // Where the action happens (home, project roots, temp directories): the core resolves paths
    // against it. From the hook process's environment and a few `stat` calls, never the agent's.
    input = { ...input, env: policyEnv(io.env, loaded.policy.env_keys), context: actionContext(input, { env: io.env, cwd: process.cwd() }) };
    const output = deps.evaluate(input, loaded.policy);
    result = { adapter, reply: adapter.adaptOutput(output, raw), output, input, loaded };
  } catch (e) {
    const { code, reason } = explain(e);
    // Not parsed: the event name, if one can be read unambiguously, still says before/after.
    let replyTo = raw;
    if (!parsed) {
      const event = bytes === undefined ? undefined : eventNameFromText(bytes.toString('utf8'), adapter.eventField);
      replyTo = event === undefined ? undefined : { [adapter.eventField]: event };
    }
    const before = adapter.isBeforeAction(replyTo);
    const bypass = before && operatorBypass(io.env);
    warn(`${reason}${before ? (bypass ? ' (allowed: operator bypass is set)' : ' (blocked)') : ''}`);
    const output = { ...failureOutput(reason, before && !bypass, code), bypass };
    result = { adapter, reply: adapter.adaptOutput(output, replyTo), output };
    if (input) result.input = input;
    if (loaded) result.loaded = loaded;
  }
  // ── AUDIT (owner: audit helper) ───────────────────────────────────────────────────────
  // One record per hook call when config.toml says audit_log = true. When the call failed
  // before the policy loaded (an unreadable event), the config is read once more just for
  // this: fail-closed denies are what an operator most wants to find in the log. Never
  // changes `result.reply`; a failure to write is one warning on stderr.
  let auditOn = result.loaded?.config.audit_log;
  if (auditOn === undefined) {
    try {
      auditOn = (await deps.loadPolicy(io.env)).config.audit_log;
    } catch {
      auditOn = false;
    }
  }
  // Imported only then: the audit code (redaction tables included) stays off a default hook's path.
  if (auditOn) {
    try {
      const { recordDecision } = await import('./audit.ts');
      recordDecision(io, { input: result.input ?? null, output: result.output, harness: result.adapter.name });
    } catch (e) {
      warn(`warning: audit record not written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  // ── end AUDIT ────────────────────────────────────────────────────────────────────────────
  return result;
}

/** Exactly what goes to stdout: nothing, or one JSON object and a newline. */
export function replyText(reply: NativeReply): string {
  return reply.stdout === null ? '' : `${JSON.stringify(reply.stdout)}\n`;
}

export interface DriverRun {
  exitCode: number;
  /**
   * A shell command was decided with the compiled-pack cache warm and nothing failed: the run
   * later hooks repeat, so the one whose compiled functions the loader keeps (src/cli/loader.ts).
   * Events without a command (a file read, a tool result) would leave the shell analyser out.
   */
  typical: boolean;
}

export async function runDriver(argv: string[], io: CliIO): Promise<DriverRun> {
  if (io.stdinIsTTY) io.err('buckler: hook mode reads one harness event (JSON) from stdin; see buckler --help\n');
  const { reply, loaded, output, input } = await handleHook(argv, io);
  const text = replyText(reply);
  if (text !== '') io.out(text);
  const typical = loaded?.cached === true && output.error === undefined && input?.shell !== undefined;
  return { exitCode: reply.exitCode, typical };
}
