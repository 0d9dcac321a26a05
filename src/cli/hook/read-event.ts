/**
 * The hook's first stage: its arguments, and the event on stdin, read until a whole JSON object
 * has arrived (a harness may leave stdin open) or end of input, within the deadline. Never
 * throws: what went wrong is in `failure`, for the failure reply.
 */
import type { Adapter } from '../../adapters/adapter.ts';
import { adapterForPayload, DEFAULT_DRIVER, getAdapter, HARNESS_NAMES } from '../../adapters/registry.ts';
import type { CliIO } from '../io.ts';
import type { Deadline } from './deadline.ts';
import { DriverFailure } from './driver-failure.ts';
import type { HookEnv } from './result.ts';

/** The hook's arguments. */
export interface DriverArgs {
  name: string;
  /** `--event NAME`: the event, for harnesses whose payload does not name it (Copilot CLI's native hooks). */
  event?: string;
}

/** One hook event as read. */
export interface ReadEvent {
  /** The harness `--driver` names; when that failed, the one the payload looks like, else the default. */
  adapter: Adapter;
  /** `--event`, when given (and the arguments were good). */
  event?: string;
  /** What stdin delivered (absent: nothing could be read). */
  bytes?: Buffer;
  /** Why the event cannot be decided (bad arguments, an unknown driver, stdin failed or too late). */
  failure?: unknown;
}

const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** `--driver NAME` and `--event NAME` (each also as `--flag=value`), else $BUCKLER_DRIVER or the default. */
export function driverArgs(argv: string[], env: HookEnv): DriverArgs {
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

/** The arguments: the adapter they name (else the default) and a failure, if any. */
function namedAdapter(argv: string[], env: HookEnv): { adapter: Adapter; event?: string; failure?: DriverFailure } {
  let args: DriverArgs | undefined;
  let failure: DriverFailure | undefined;
  try {
    args = driverArgs(argv, env);
  } catch (e) {
    failure = e as DriverFailure;
  }
  const name = args?.name ?? DEFAULT_DRIVER;
  const named = getAdapter(name);
  if (!named && !failure) failure = new DriverFailure('unknown_driver', `unknown driver '${name}' (known: ${HARNESS_NAMES.join(', ')})`);
  const out: { adapter: Adapter; event?: string; failure?: DriverFailure } = { adapter: named ?? (getAdapter(DEFAULT_DRIVER) as Adapter) };
  if (args?.event !== undefined) out.event = args.event;
  if (failure) out.failure = failure;
  return out;
}

type StdinIO = Pick<CliIO, 'readStdin' | 'readStdinUntil'>;

/** All of stdin, or up to a whole event, within the deadline; else why not (and what had arrived). */
async function readStdin(io: StdinIO, deadline: Deadline): Promise<{ bytes?: Buffer; failure?: unknown }> {
  try {
    if (!io.readStdinUntil) return { bytes: await deadline.race(io.readStdin()) };
    const complete = (b: Buffer): boolean => {
      deadline.seen = b;
      return isCompleteEvent(b);
    };
    const read = io.readStdinUntil(complete, deadline.ms);
    if (!read.timedOut) return { bytes: read.bytes };
    if (read.bytes.length > 0) deadline.seen = read.bytes;
    deadline.timedOut = true;
    return { bytes: read.bytes, failure: deadline.failure() };
  } catch (e) {
    return { failure: e };
  }
}

/** Reads one hook event: the arguments, then stdin. */
export async function readEvent(argv: string[], io: StdinIO & Pick<CliIO, 'env'>, deadline: Deadline): Promise<ReadEvent> {
  const { adapter, event, failure } = namedAdapter(argv, io.env);
  const read: ReadEvent = { adapter };
  if (event !== undefined) read.event = event;
  const stdin = await readStdin(io, deadline);
  if (stdin.bytes !== undefined) read.bytes = stdin.bytes;
  if (stdin.failure !== undefined || stdin.bytes === undefined) {
    read.failure = stdin.failure;
    return read;
  }
  deadline.stage = 'policy';
  if (failure) {
    // Answer in the shape of the harness whose event this is, if the payload says.
    read.adapter = adapterForPayload(stdin.bytes.toString('utf8')) ?? adapter;
    read.failure = failure;
  }
  return read;
}
