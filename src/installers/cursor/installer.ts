/**
 * Cursor: `{"version": 1, "hooks": {"<event>": [ {command, matcher, timeout, failClosed} ]}}`
 * in ~/.cursor/hooks.json (user) or <project>/.cursor/hooks.json (project).
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { Change, Edit, FoundHook, HarnessInstaller, WantedHook } from '../installer.ts';
import { isObject, sameJson, type JsonObject } from '../json-text.ts';
import { readOwnCommand } from '../own-command.ts';
import { describeType } from '../describe.ts';
import { CURSOR_HOOKS, cursorEntry } from './wiring.ts';

function ownCommand(entry: unknown): { command: string; files: string[] } | null {
  if (!isObject(entry) || typeof entry.command !== 'string') return null;
  if (entry.type !== undefined && entry.type !== 'command') return null;
  const own = readOwnCommand(entry.command);
  return own === null ? null : { command: entry.command, files: own.files };
}

function matcherOf(entry: JsonObject): { matcher?: string } {
  return typeof entry.matcher === 'string' ? { matcher: entry.matcher } : {};
}

/** The one edit behind wire and unwire: Buckler's entries become exactly `wanted`. */
function rewire(value: JsonObject, wanted: readonly WantedHook[], command: string | null): Edit {
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
      const own = ownCommand(entry);
      if (own === null) {
        kept.push(entry);
      } else if (hook !== undefined && command !== null && !placed.has(event)) {
        const next = cursorEntry(hook, command);
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
      kept.push(cursorEntry(hook, command));
      changes.push({ op: 'add', event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command });
    }
    // An event list that held only Buckler's entries goes with them.
    if (kept.length > 0 || !removedOwn) events.push([event, kept]);
  }
  if (command !== null) {
    for (const hook of wanted) {
      if (placed.has(hook.event)) continue;
      events.push([hook.event, [cursorEntry(hook, command)]]);
      changes.push({ op: 'add', event: hook.event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command });
    }
  }
  if (changes.length === 0) return { value, changes };
  const next = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'hooks' ? Object.fromEntries(events) : v]));
  if (!('hooks' in value)) next.hooks = Object.fromEntries(events);
  return { value: next, changes };
}

export const cursorInstaller: HarnessInstaller = {
  name: 'cursor',
  scopes: HARNESS_SCOPES.cursor,
  hooks: CURSOR_HOOKS,
  // Cursor's hooks.json has no switch that turns every hook off (@cursor/sdk 1.0.32), and the
  // editor has no command-line program that prints its version.
  offSwitches: [],
  emptyConfig: () => ({ version: 1, hooks: {} }),
  problem(value) {
    if (!isObject(value)) return `must be a JSON object, found ${describeType(value)}`;
    if ('version' in value) {
      const v = value.version;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
        return `"version" must be a positive integer, found ${describeType(v)}`;
      }
      if (v !== 1) return `"version": ${v} is not a hooks.json version Buckler knows (1)`;
    }
    if (!('hooks' in value)) return null;
    if (!isObject(value.hooks)) return `"hooks" must be an object keyed by event name, found ${describeType(value.hooks)}`;
    for (const [event, list] of Object.entries(value.hooks)) {
      if (!Array.isArray(list)) return `"hooks.${event}" must be a list of hooks, found ${describeType(list)}`;
    }
    return null;
  },
  warnings(value) {
    return 'version' in value ? [] : ['has no "version": 1; Cursor may refuse to load it'];
  },
  wire: (value, command) => rewire(value, CURSOR_HOOKS, command),
  unwire: (value) => rewire(value, CURSOR_HOOKS, null),
  find(value) {
    const found: FoundHook[] = [];
    if (!isObject(value.hooks)) return found;
    for (const [event, list] of Object.entries(value.hooks)) {
      if (!Array.isArray(list)) continue;
      const hook = CURSOR_HOOKS.find((h) => h.event === event);
      for (const entry of list) {
        const own = ownCommand(entry);
        if (own === null) continue;
        found.push({
          event,
          ...matcherOf(entry as JsonObject),
          command: own.command,
          files: own.files,
          asWanted: hook !== undefined && sameJson(entry, cursorEntry(hook, own.command)),
        });
      }
    }
    return found;
  },
};
