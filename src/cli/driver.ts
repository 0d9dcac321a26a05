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
 * This module is the hook path: keep it lean (no YAML, nothing loaded that a hook does not use).
 */
import { isUtf8 } from 'node:buffer';
import type { Adapter, NativeReply } from '../adapters/adapter.ts';
import { eventNameFromText } from '../adapters/payload.ts';
import { adapterForPayload, DEFAULT_DRIVER, getAdapter, HARNESS_NAMES } from '../adapters/registry.ts';
import { failureOutput } from '../adapters/reply.ts';
import { isPreTrigger, PolicyError, type PolicyInput, type PolicyOutput } from '../core/contract.ts';
import type { AllowOnceUse } from './allow-apply.ts';
import type { AuditEvent } from '../audit/record.ts';
import { evaluate, type EvaluateOptions } from '../core/evaluate.ts';
import { BYPASS_VARS } from '../core/policy.ts';
import { loadRuntimePolicy, type LoadedPolicy } from '../packs/runtime.ts';
import { actionContext } from './action-context.ts';
import type { CliIO } from './io.ts';
import { policyOptions, processPaths, processUid, systemMode } from './process-paths.ts';
import { rulesProject } from './project.ts';
import { gitAliasReader } from './git-config.ts';
import { scriptReader } from './script-reader.ts';

/** What the driver calls outside itself (tests pass their own). */
export interface DriverDeps {
  /** `project`: the project root whose `.buckler/rules.d` loads too (docs/project-rules.md). */
  loadPolicy: (env: CliIO['env'], project?: string) => LoadedPolicy | Promise<LoadedPolicy>;
  /** `paths`: list each command's paths in `commands` (for the audit record). */
  evaluate: (input: PolicyInput, policy: LoadedPolicy['policy'], options?: { paths?: boolean }) => PolicyOutput;
}

const REAL: DriverDeps = {
  loadPolicy: (env, project) => loadRuntimePolicy(processPaths(env), project === undefined ? policyOptions(env) : { ...policyOptions(env), project }),
  // A script the command runs (`bash ./deploy.sh`) is read and analysed too, as in `check`:
  // otherwise an agent could write a forbidden command into a file and run the file.
  // The same for git aliases in the repository's and the user's config (read only when a
  // command uses a word that may be one): the agent can write the repository's config.
  evaluate: (input, policy, options) => evaluate(input, policy, { ...readers(input.shell?.cwd ?? process.cwd(), process.env), ...options }),
};

/** What the core may read around the command: scripts it runs, git aliases where it runs. */
function readers(cwd: string, env: NodeJS.ProcessEnv): EvaluateOptions {
  const script = scriptReader(cwd);
  const aliases = gitAliasReader(cwd, env);
  return {
    readScript: (file) => {
      ranCode |= CODE.script;
      return script(file);
    },
    readAliases: (program, where) => {
      if (program === 'git') ranCode |= CODE.aliases;
      return aliases(program, where);
    },
  };
}

/**
 * The parts of the hook path a run went through, one bit each: the loader keeps a V8 code cache
 * holding the compiled functions of every part a hook has used on this machine (src/cli/loader.ts).
 * A part missing from the cache is compiled on each hook that needs it: 1.5–10 ms, measured
 * (docs/performance.md). The harness's adapter adds its own bit (`codeBits`).
 */
export const CODE = {
  shell: 1 << 0,
  file: 1 << 1,
  other: 1 << 2,
  post: 1 << 3,
  blocked: 1 << 4,
  aliases: 1 << 5,
  script: 1 << 6,
  audit: 1 << 7,
  allowOnce: 1 << 8,
  notice: 1 << 9,
} as const;
/** The adapter's bit: this, plus its index among the harnesses. */
export const ADAPTER_BIT = 10;
/** Set by the readers above during an evaluation; read by `codeBits`. */
let ranCode = 0;

/** The bits of `CODE` (and the adapter's) a decided hook went through; 0: not one to cache. */
export function codeBits(result: HookResult): number {
  const { loaded, output, input } = result;
  // Only a hook decided with the compiled-pack cache warm and without a failure: not the pack
  // compiler of the first hook after an install, nor the failure paths.
  if (loaded?.cached !== true || output.error !== undefined || input === undefined) return 0;
  let bits = ranCode | (1 << (ADAPTER_BIT + Math.max(0, HARNESS_NAMES.indexOf(result.adapter.name))));
  if (!isPreTrigger(input.trigger)) bits |= CODE.post;
  else if (input.shell !== undefined) bits |= CODE.shell;
  else if (input.tool?.paths !== undefined) bits |= CODE.file;
  else bits |= CODE.other;
  if (output.decision === 'deny' || output.decision === 'ask') bits |= CODE.blocked;
  if (result.audited === true) bits |= CODE.audit;
  if (result.allowOnce !== undefined) bits |= CODE.allowOnce;
  if (loaded.dropped !== undefined && loaded.dropped.length > 0) bits |= CODE.notice;
  return bits;
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
  /** The deadline passed: something (a stdin read) may still be pending; the process must exit. */
  abandoned?: true;
  /** A deny or ask the person had allowed with `buckler allow` (docs/allow-once.md). */
  allowOnce?: AllowOnceUse;
  /** An audit record was written. */
  audited?: true;
}

/**
 * The whole hook's deadline, in ms. Installed hooks have a 10 s harness timeout (Cursor and
 * Claude Code; their defaults are 60 s and 600 s): half of it leaves room for Node's start-up
 * on a loaded machine. A timed-out hook is open in most harnesses, a deny from Buckler is not.
 */
export const DEFAULT_HOOK_DEADLINE_MS = 5000;
const MAX_HOOK_DEADLINE_MS = 600_000;

/** `BUCKLER_HOOK_DEADLINE_MS` when it is a whole number of ms in 1..600000, else the default. */
export function hookDeadlineMs(env: CliIO['env']): number {
  const v = env['BUCKLER_HOOK_DEADLINE_MS'];
  if (v === undefined || !/^[0-9]{1,7}$/.test(v)) return DEFAULT_HOOK_DEADLINE_MS;
  const n = Number(v);
  return n >= 1 && n <= MAX_HOOK_DEADLINE_MS ? n : DEFAULT_HOOK_DEADLINE_MS;
}

/**
 * Whether `bytes` already hold one whole JSON object (a hook event is one): its last
 * non-blank byte is `}` and it parses. Cheap enough to ask after every chunk (an event is a few
 * KB and usually arrives in one read); JSON that never closes waits for end of input.
 */
export function isCompleteEvent(bytes: Buffer): boolean {
  let i = bytes.length - 1;
  while (i >= 0 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i--;
  if (i < 0 || bytes[i] !== 0x7d) return false;
  const text = bytes.toString('utf8');
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
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

interface DriverArgs {
  name: string;
  /** `--event NAME`: the event, for harnesses whose payload does not name it (Copilot CLI's native hooks). */
  event?: string;
}

const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

function driverArgs(argv: string[], env: CliIO['env']): DriverArgs {
  let name: string | undefined;
  let event: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const flag = arg.startsWith('--driver') ? '--driver' : arg.startsWith('--event') ? '--event' : undefined;
    let value: string | undefined;
    if (flag !== undefined && arg === flag) value = argv[++i];
    else if (flag !== undefined && arg.startsWith(`${flag}=`)) value = arg.slice(flag.length + 1);
    else throw new DriverFailure('bad_args', `unexpected argument '${arg}' in hook mode`);
    if ((flag === '--driver' ? name : event) !== undefined) throw new DriverFailure('bad_args', `${flag} given twice`);
    if (flag === '--driver') {
      if (value === undefined || value === '') throw new DriverFailure('bad_args', '--driver needs a harness name');
      name = value;
    } else {
      if (value === undefined || !EVENT_NAME.test(value)) throw new DriverFailure('bad_args', '--event needs an event name');
      event = value;
    }
  }
  const chosen = name ?? env.BUCKLER_DRIVER ?? DEFAULT_DRIVER;
  const args: DriverArgs = { name: chosen === '' ? DEFAULT_DRIVER : chosen };
  if (event !== undefined) args.event = event;
  return args;
}

/**
 * The payload with the event `--event` names, in the adapter's event field. A payload that
 * names another event is not what this hook was installed for: a failure (fail closed).
 */
function withEvent(raw: unknown, event: string | undefined, adapter: Adapter): unknown {
  if (event === undefined || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const named = (raw as Record<string, unknown>)[adapter.eventField];
  if (named === undefined) return { ...raw, [adapter.eventField]: event };
  if (named !== event) throw new DriverFailure('bad_args', `the payload is a ${String(named)} event, but the hook passes --event ${event}`);
  return raw;
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

/** What a person is told when rules were dropped at load: how many, the first, and what to run. */
export function droppedNotice(dropped: readonly string[]): string {
  const n = dropped.length;
  const more = n > 1 ? ` (and ${n - 1} more)` : '';
  return `Buckler: ${n === 1 ? 'a rule was' : `${n} rules were`} not loaded and guard nothing: ${dropped[0]}${more}. Run \`buckler validate\` to see and fix them.`;
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
export async function handleHook(
  argv: string[],
  io: Pick<CliIO, 'env' | 'readStdin' | 'readStdinUntil' | 'err'>,
  deps: DriverDeps = REAL,
): Promise<HookResult> {
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
  let event: string | undefined;
  let project: string | undefined;
  let result: HookResult;
  // The deadline: what is awaited (stdin, loading the policy) races it. Synchronous work (a
  // cold compile, one evaluation) is not interrupted; it is bounded by its own limits.
  const deadlineMs = hookDeadlineMs(io.env);
  let stage: 'stdin' | 'policy' = 'stdin';
  let seen: Buffer | undefined; // what stdin had delivered so far, for a reply at the deadline
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const deadlineFailure = (): DriverFailure =>
    new DriverFailure(
      'deadline',
      stage === 'stdin'
        ? `no complete hook event on stdin within ${deadlineMs} ms (${seen === undefined ? 'nothing arrived' : `${seen.length} bytes arrived`} and stdin stayed open)`
        : `no decision within ${deadlineMs} ms (loading the policy took too long)`,
    );
  // The timer is armed only when something is really awaited (a cold policy compile, a test
  // double's stdin): a warm hook decides synchronously and never sets one (a first timer costs
  // a hook about 0.1-0.2 ms). It fires at the same moment: the deadline counts from here.
  const started = Date.now();
  let deadline: Promise<never> | undefined;
  const inTime = <T>(p: T | Promise<T>): T | Promise<T> => {
    if (!(p instanceof Promise)) return p;
    if (deadline === undefined) {
      deadline = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => {
            timedOut = true;
            reject(deadlineFailure());
          },
          Math.max(0, deadlineMs - (Date.now() - started)),
        );
      });
      deadline.catch(() => undefined);
    }
    return Promise.race([p, deadline]);
  };
  const complete = (b: Buffer): boolean => {
    seen = b;
    return isCompleteEvent(b);
  };
  try {
    let failure: DriverFailure | undefined;
    let name = DEFAULT_DRIVER;
    try {
      ({ name, event } = driverArgs(argv, io.env));
    } catch (e) {
      failure = e as DriverFailure;
    }
    const named = getAdapter(name);
    if (named) adapter = named;
    else if (!failure) {
      failure = new DriverFailure('unknown_driver', `unknown driver '${name}' (known: ${HARNESS_NAMES.join(', ')})`);
    }
    if (io.readStdinUntil) {
      const read = io.readStdinUntil(complete, deadlineMs);
      if (read.timedOut) {
        bytes = read.bytes;
        if (bytes.length > 0) seen = bytes;
        timedOut = true;
        throw deadlineFailure();
      }
      bytes = read.bytes;
    } else bytes = await inTime(io.readStdin());
    stage = 'policy';
    if (failure) {
      // Answer in the shape of the harness whose event this is, if the payload says.
      adapter = adapterForPayload(bytes.toString('utf8')) ?? adapter;
      throw failure;
    }
    raw = withEvent(readPayload(bytes), event, adapter);
    parsed = true;
    input = adapter.adaptInput(raw);
    // Where the action happens (home, project roots, temp directories, named locations): the core
    // resolves paths against it. From the hook process's environment and a few `stat` calls, never the agent's.
    const context = actionContext(input, { env: io.env, cwd: process.cwd() });
    // The project's own rules (.buckler/rules.d) load with the rest: one `stat` when it has none.
    project = rulesProject(context);
    const pending = inTime(deps.loadPolicy(io.env, project));
    loaded = pending instanceof Promise ? await pending : pending;
    for (const w of loaded.warnings) warn(w);
    input = { ...input, env: policyEnv(io.env, loaded.policy.env_keys), context };
    // Every decision is recorded (audit_log = true): its paths are listed now, for the record.
    let output = loaded.config.audit_log === true ? deps.evaluate(input, loaded.policy, { paths: true }) : deps.evaluate(input, loaded.policy);
    let allowOnce: AllowOnceUse | undefined;
    // Allow-once entries can only matter for a deny or an ask before an action: only then is
    // the store read (the module is imported then too).
    if ((output.decision === 'deny' || output.decision === 'ask') && isPreTrigger(input.trigger) && output.error === undefined) {
      const { applyAllowOnce } = await import('./allow-apply.ts');
      ({ output, allowOnce } = applyAllowOnce(input, output, io.env, warn));
    }
    result = { adapter, reply: adapter.adaptOutput(output, raw), output, input, loaded };
    if (allowOnce) result.allowOnce = allowOnce;
    // Rules dropped at load guard nothing: say so where the person sees it (never blocks).
    if (loaded.dropped && loaded.dropped.length > 0 && adapter.notice) result.reply = adapter.notice(result.reply, droppedNotice(loaded.dropped));
  } catch (e) {
    const { code, reason } = explain(e);
    // Not parsed: the event name, if one can be read unambiguously, still says before/after.
    let replyTo = raw;
    if (!parsed) {
      const named = bytes === undefined ? undefined : eventNameFromText(bytes.toString('utf8'), adapter.eventField);
      const known = named ?? event;
      replyTo = known === undefined ? undefined : { [adapter.eventField]: known };
    }
    const before = adapter.isBeforeAction(replyTo);
    const bypass = before && operatorBypass(io.env);
    warn(`${reason}${before ? (bypass ? ' (allowed: operator bypass is set)' : ' (blocked)') : ''}`);
    const output = { ...failureOutput(reason, before && !bypass, code), bypass };
    result = { adapter, reply: adapter.adaptOutput(output, replyTo), output };
    if (input) result.input = input;
    if (loaded) result.loaded = loaded;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (timedOut) result.abandoned = true;
  // ── AUDIT ──────────────────────────────────────────────────────────────────────────────
  // config.toml's audit_log: true records every hook call, false none, absent (the default)
  // the denials, asks, bypasses and allow-once uses. When the call failed before the policy
  // loaded (an unreadable event), the config is read once more just for this: fail-closed
  // denies are what an operator most wants to find in the log. Never changes `result.reply`;
  // a failure to write is one warning on stderr.
  const worth = result.output.decision === 'deny' || result.output.decision === 'ask' || result.output.bypass || result.allowOnce !== undefined;
  let setting: boolean | null | undefined = result.loaded?.config.audit_log;
  // Past the deadline while loading the policy: loading it again for the audit could take as
  // long, and the reply must go out now.
  if (setting === undefined && timedOut && stage === 'policy') setting = false;
  if (setting === undefined && worth) {
    try {
      setting = (await deps.loadPolicy(io.env, project)).config.audit_log;
    } catch {
      setting = null;
    }
  }
  // Imported only then: the audit code (redaction tables included) stays off a default hook's path.
  if (setting === true || (setting === null && worth)) {
    try {
      const { recordDecision } = await import('./audit.ts');
      const { inputProject } = await import('./allow-apply.ts');
      const event: AuditEvent = { input: result.input ?? null, output: result.output, harness: result.adapter.name };
      // A decision recorded by default (a deny, an ask): its paths, listed by deciding once more
      // (pure and quick; a default allow never pays for it).
      if (setting !== true && result.input !== undefined && result.loaded !== undefined && result.output.error === undefined) {
        try {
          event.paths = deps.evaluate(result.input, result.loaded.policy, { paths: true }).commands.flatMap((c) => c.paths ?? []);
        } catch {
          /* the record goes out without paths */
        }
      }
      if (result.allowOnce) {
        event.project = result.allowOnce.project;
        event.allowOnce = { action: 'use', ids: result.allowOnce.ids, was: result.allowOnce.was };
      } else if (result.input?.shell?.cwd !== undefined || result.input?.session?.workspace_roots !== undefined) {
        event.project = inputProject(result.input, io.env);
      }
      recordDecision(io, event);
      result.audited = true;
    } catch (e) {
      warn(`warning: audit record not written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  // ── end AUDIT ────────────────────────────────────────────────────────────────────────────
  // The locked-down install: blocks and grants used also go to the system log (system-log.ts).
  if (worth && systemMode()) {
    const { syslogText, toSyslog } = await import('./system-log.ts');
    const o = result.output;
    const text = syslogText({
      uid: processUid(),
      harness: result.adapter.name,
      decision: o.decision,
      was: result.allowOnce?.was,
      grant: result.allowOnce?.ids.join(','),
      rule: o.rule,
      bypass: o.bypass ? 'yes' : undefined,
      error: o.error?.code,
      command: result.input?.shell?.command ?? result.input?.tool?.name,
      cwd: result.input?.shell?.cwd,
    });
    toSyslog(text, o.decision === 'allow' ? 'auth.notice' : 'auth.warning');
  }
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
  ranCode = 0;
  const result = await handleHook(argv, io);
  const text = replyText(result.reply);
  if (text !== '') io.out(text);
  return { exitCode: result.reply.exitCode, code: codeBits(result), abandoned: result.abandoned === true };
}
