/**
 * The whole hook's deadline (BUCKLER_HOOK_DEADLINE_MS, default 5000 ms): what is awaited (stdin,
 * loading the policy) races it. Synchronous work (a cold compile, one evaluation) is not
 * interrupted; it is bounded by its own limits. One `Deadline` per hook call, handed from the
 * stage that reads the event to the one that decides.
 */
import type { HookEnv } from './result.ts';
import { DriverFailure } from './driver-failure.ts';

/**
 * The whole hook's deadline, in ms. Installed hooks have a 10 s harness timeout (Cursor and
 * Claude Code; their defaults are 60 s and 600 s): half of it leaves room for Node's start-up
 * on a loaded machine. A timed-out hook is open in most harnesses, a deny from Buckler is not.
 */
export const DEFAULT_HOOK_DEADLINE_MS = 5000;
const MAX_HOOK_DEADLINE_MS = 600_000;

/** `BUCKLER_HOOK_DEADLINE_MS` when it is a whole number of ms in 1..600000, else the default. */
export function hookDeadlineMs(env: HookEnv): number {
  const v = env['BUCKLER_HOOK_DEADLINE_MS'];
  if (v === undefined || !/^[0-9]{1,7}$/.test(v)) return DEFAULT_HOOK_DEADLINE_MS;
  const n = Number(v);
  return n >= 1 && n <= MAX_HOOK_DEADLINE_MS ? n : DEFAULT_HOOK_DEADLINE_MS;
}

export class Deadline {
  /** What is being waited for: the event on stdin, then the policy. */
  stage: 'stdin' | 'policy' = 'stdin';
  /** What stdin had delivered so far, for the reply at the deadline. */
  seen: Buffer | undefined;
  /** The deadline passed. */
  timedOut = false;
  private readonly started = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: Promise<never> | undefined;

  constructor(readonly ms: number) {}

  /** The failure that says the deadline passed, and while waiting for what. */
  failure(): DriverFailure {
    const seen = this.seen;
    return new DriverFailure(
      'deadline',
      this.stage === 'stdin'
        ? `no complete hook event on stdin within ${this.ms} ms (${seen === undefined ? 'nothing arrived' : `${seen.length} bytes arrived`} and stdin stayed open)`
        : `no decision within ${this.ms} ms (loading the policy took too long)`,
    );
  }

  /**
   * `p`, or the deadline's failure if it passes first. The timer is armed only when something
   * is really awaited (a cold policy compile, a test double's stdin): a warm hook decides
   * synchronously and never sets one (a first timer costs a hook about 0.1-0.2 ms). It fires
   * at the same moment: the deadline counts from the Deadline's creation.
   */
  race<T>(p: T | Promise<T>): T | Promise<T> {
    if (!(p instanceof Promise)) return p;
    if (this.pending === undefined) {
      this.pending = new Promise<never>((_resolve, reject) => {
        this.timer = setTimeout(
          () => {
            this.timedOut = true;
            reject(this.failure());
          },
          Math.max(0, this.ms - (Date.now() - this.started)),
        );
      });
      this.pending.catch(() => undefined);
    }
    return Promise.race([p, this.pending]);
  }

  /** Nothing more is awaited under the deadline. */
  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
  }
}
