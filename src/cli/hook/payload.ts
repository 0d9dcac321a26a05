/** The event's bytes → its JSON payload, as the adapter reads it; a DriverFailure when it cannot be. */
import { isUtf8 } from 'node:buffer';
import type { Adapter } from '../../adapters/adapter.ts';
import { DriverFailure } from './driver-failure.ts';

/** The JSON value of the event's bytes (UTF-8, a leading byte-order mark dropped). */
export function readPayload(bytes: Buffer): unknown {
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

/**
 * The payload with the event `--event` names, in the adapter's event field. A payload that
 * names another event is not what this hook was installed for: a failure (fail closed).
 */
export function withEvent(raw: unknown, event: string | undefined, adapter: Adapter): unknown {
  if (event === undefined || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const named = (raw as Record<string, unknown>)[adapter.eventField];
  if (named === undefined) return { ...raw, [adapter.eventField]: event };
  if (named !== event) throw new DriverFailure('bad_args', `the payload is a ${String(named)} event, but the hook passes --event ${event}`);
  return raw;
}
