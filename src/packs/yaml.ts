/**
 * YAML → plain data plus a line for every node path, for messages that point into the file.
 * js-yaml is `require()`d lazily: it is external to the bundle and only needed when packs are
 * (re)compiled, never on a warm hook path.
 */
import type * as JsYaml from 'js-yaml';
import { lazyRequire } from '../files/lazy-require.ts';
import type { LineMap } from './problems.ts';

const jsYaml = lazyRequire<typeof JsYaml>('js-yaml');

export class YamlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number | undefined,
  ) {
    super(message);
  }
}

export interface ParsedYaml {
  /** The first document; null for an empty file. */
  doc: unknown;
  lines: LineMap;
  documents: number;
  /** Alias nodes (`*name`) in the text: project rules refuse them (an alias bomb). */
  aliases: number;
}

/** Throws `YamlSyntaxError` (with a 1-based line when known) for text that is not valid YAML. */
export function parseYaml(text: string, filename: string): ParsedYaml {
  const y = jsYaml();
  let events: JsYaml.Event[];
  let docs: unknown[];
  try {
    events = y.parseEvents(text, { filename });
    docs = y.constructFromEvents(events, { source: text, filename });
  } catch (e) {
    const err = e as { reason?: unknown; mark?: { line?: number }; message?: unknown };
    const reason = typeof err.reason === 'string' ? err.reason : String(err.message ?? e);
    throw new YamlSyntaxError(`not valid YAML: ${reason}`, typeof err.mark?.line === 'number' ? err.mark.line + 1 : undefined);
  }
  let aliases = 0;
  for (const e of events) if (e.type === y.EVENT_ID.ALIAS) aliases++;
  return { doc: docs.length > 0 ? docs[0] : null, lines: lineMap(events, text, y), documents: docs.length, aliases };
}

/** Walks the first document's events and records the line where each node path starts. */
function lineMap(events: readonly JsYaml.Event[], text: string, y: typeof JsYaml): Map<string, number> {
  const lines = new Map<string, number>();
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const { SEQUENCE, MAPPING, SCALAR, POP, DOCUMENT } = y.EVENT_ID;
  let i = 0;
  const offsetOf = (e: JsYaml.Event): number =>
    e.type === SCALAR ? e.valueStart : e.type === SEQUENCE || e.type === MAPPING ? e.start : -1;
  // node(path): consumes one node's events starting at events[i].
  const node = (path: string): void => {
    const e = events[i++];
    if (!e) return;
    const off = offsetOf(e);
    if (off >= 0 && !lines.has(path)) lines.set(path, lineAt(off));
    if (e.type === SEQUENCE) {
      for (let n = 0; i < events.length && events[i]!.type !== POP; n++) node(join(path, String(n)));
      i++;
    } else if (e.type === MAPPING) {
      while (i < events.length && events[i]!.type !== POP) {
        const k = events[i]!;
        const key = k.type === SCALAR ? y.getScalarValue(text, k) : '?';
        const keyOff = offsetOf(k);
        node(join(path, `#key:${key}`));
        // The key's own line stands for the value (a block value starts on the next line).
        if (keyOff >= 0) lines.set(join(path, key), lineAt(keyOff));
        node(join(path, key));
      }
      i++;
    }
  };
  while (i < events.length && events[i]!.type !== DOCUMENT) i++;
  if (i < events.length) {
    i++;
    if (i < events.length && events[i]!.type !== POP) node('');
  }
  for (const k of [...lines.keys()]) if (k.includes('#key:')) lines.delete(k);
  return lines;
}

const join = (a: string, b: string): string => (a === '' ? b : `${a}.${b}`);
