/**
 * The config shape Cursor introduced and Copilot CLI's native hooks share: `"hooks":
 * {"<event>": [ {…one hook per entry…} ]}`. The edits (wire, unwire, find, problem) are the
 * same; each harness gives its hooks, the entry it writes, and how to read a command out of an
 * entry. Every other key and entry is left alone, in order.
 */
import type { Change, Edit, FoundHook, WantedHook } from './installer.ts';
import { isObject, sameJson, type JsonObject } from './json-text.ts';
import { describeType } from './describe.ts';

export interface FlatWiring {
  readonly hooks: readonly WantedHook[];
  /** The entry for one wanted hook. */
  entry(hook: WantedHook, command: string): JsonObject;
  /**
   * The Buckler command an entry runs (as `entry` was given it) and the files it needs, or
   * null when the entry is someone else's.
   */
  own(entry: unknown): { command: string; files: string[] } | null;
}

function matcherOf(entry: JsonObject): { matcher?: string } {
  return typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {};
}

/** The one edit behind wire and unwire: Buckler's entries become exactly `wanted`. */
function rewire(value: JsonObject, wiring: FlatWiring, command: string | null): Edit {
  const wanted = wiring.hooks;
  const changes: Change[] = [];
  const byEvent = new Map(command === null ? [] : wanted.map((h) => [h.event, h] as const));
  const placed = new Set<string>();
  const hooks = isObject(value.hooks) ? value.hooks : {};
  const events: [string, unknown][] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      events.push([event, list]);
      continue;
    }
    const hook = byEvent.get(event);
    const kept: unknown[] = [];
    let removedOwn = false;
    for (const entry of list) {
      const own = wiring.own(entry);
      if (own === null) {
        kept.push(entry);
      } else if (hook !== undefined && command !== null && !placed.has(event)) {
        const next = wiring.entry(hook, command);
        placed.add(event);
        kept.push(next);
        if (!sameJson(entry, next)) {
          changes.push({ op: 'replace', event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command, previous: own.command });
        }
      } else {
        removedOwn = true;
        changes.push({ op: 'remove', event, ...matcherOf(entry as JsonObject), command: own.command });
      }
    }
    if (hook !== undefined && command !== null && !placed.has(event)) {
      placed.add(event);
      kept.push(wiring.entry(hook, command));
      changes.push({ op: 'add', event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command });
    }
    // An event list that held only Buckler's entries goes with them.
    if (kept.length > 0 || !removedOwn) events.push([event, kept]);
  }
  if (command !== null) {
    for (const hook of wanted) {
      if (placed.has(hook.event)) continue;
      events.push([hook.event, [wiring.entry(hook, command)]]);
      changes.push({ op: 'add', event: hook.event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command });
    }
  }
  if (changes.length === 0) return { value, changes };
  const next = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'hooks' ? Object.fromEntries(events) : v]));
  if (!('hooks' in value)) next.hooks = Object.fromEntries(events);
  return { value: next, changes };
}


export function flatWire(value: JsonObject, wiring: FlatWiring, command: string): Edit {
  return rewire(value, wiring, command);
}

export function flatUnwire(value: JsonObject, wiring: FlatWiring): Edit {
  return rewire(value, wiring, null);
}

/** Why `value` is not a flat-list hooks config (the `hooks` part), or null. */
export function flatProblem(value: unknown): string | null {
  if (!isObject(value)) return `must be a JSON object, found ${describeType(value)}`;
  if (!('hooks' in value)) return null;
  if (!isObject(value.hooks)) return `"hooks" must be an object keyed by event name, found ${describeType(value.hooks)}`;
  for (const [event, list] of Object.entries(value.hooks)) {
    if (!Array.isArray(list)) return `"hooks.${event}" must be a list of hooks, found ${describeType(list)}`;
  }
  return null;
}

/** Buckler's entries in the config, in file order. */
export function flatFind(value: JsonObject, wiring: FlatWiring): FoundHook[] {
  const found: FoundHook[] = [];
  if (!isObject(value.hooks)) return found;
  for (const [event, list] of Object.entries(value.hooks)) {
    if (!Array.isArray(list)) continue;
    const hook = wiring.hooks.find((h) => h.event === event);
    for (const entry of list) {
      const own = wiring.own(entry);
      if (own === null) continue;
      found.push({
        event,
        ...matcherOf(entry as JsonObject),
        command: own.command,
        files: own.files,
        asWanted: hook !== undefined && sameJson(entry, wiring.entry(hook, own.command)),
      });
    }
  }
  return found;
}
