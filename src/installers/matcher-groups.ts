/**
 * The config shape Claude Code introduced and Codex and Gemini CLI share: `"hooks": {"<Event>":
 * [ {"matcher": "…", "hooks": [ {type: "command", command, …} ]} ]}`. The edits (wire, unwire,
 * find, problem) are the same for all three; each harness gives its hooks and the handler it
 * writes (its own keys and timeout unit). Every other key and entry is left alone, in order.
 */
import type { Change, Edit, FoundHook, WantedHook } from './installer.ts';
import { isObject, sameJson, type JsonObject } from './json-text.ts';
import { readOwnCommand, readOwnWords } from './own-command.ts';
import { describeType } from './describe.ts';

export interface GroupWiring {
  readonly hooks: readonly WantedHook[];
  /** The command hook (handler) for one wanted hook. */
  handler(hook: WantedHook, command: string): JsonObject;
  /** Keys of `hooks` that are settings, not events (Gemini CLI's `enabled`, `disabled`, `notifications`). */
  readonly settingsKeys?: readonly string[];
}

function isSetting(wiring: GroupWiring, key: string): boolean {
  return wiring.settingsKeys?.includes(key) === true;
}

/** The matcher group holding Buckler's handler. */
export function groupOf(wiring: GroupWiring, hook: WantedHook, command: string): JsonObject {
  return {
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    hooks: [wiring.handler(hook, command)],
  };
}

interface Own {
  command: string;
  files: string[];
}

/** A command hook that starts Buckler (shell form, or exec form with `args`). */
function ownHandler(handler: unknown): Own | null {
  if (!isObject(handler) || handler.type !== 'command' || typeof handler.command !== 'string') return null;
  const args = handler.args;
  if (Array.isArray(args)) {
    if (!args.every((a) => typeof a === 'string')) return null;
    const own = readOwnWords([handler.command, ...(args as string[])]);
    return own === null ? null : { command: [handler.command, ...(args as string[])].join(' '), files: own.files };
  }
  const own = readOwnCommand(handler.command);
  return own === null ? null : { command: handler.command, files: own.files };
}

function withKey(obj: JsonObject, key: string, v: unknown): JsonObject {
  return Object.fromEntries(Object.entries(obj).map(([k, x]) => [k, k === key ? v : x]));
}

function matcherOf(group: JsonObject): { matcher?: string } {
  return typeof group.matcher === 'string' ? { matcher: group.matcher } : {};
}

/** The one edit behind wire and unwire: Buckler's handlers become exactly `wiring.hooks`. */
function rewire(value: JsonObject, wiring: GroupWiring, command: string | null): Edit {
  const wanted = wiring.hooks;
  const ownGroup = (hook: WantedHook, cmd: string): JsonObject => groupOf(wiring, hook, cmd);
  const changes: Change[] = [];
  const byEvent = new Map(command === null ? [] : wanted.map((h) => [h.event, h] as const));
  const placed = new Set<string>();
  const hooks = isObject(value.hooks) ? value.hooks : {};
  const events: [string, unknown][] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups) || isSetting(wiring, event)) {
      events.push([event, groups]);
      continue;
    }
    const hook = byEvent.get(event);
    const kept: unknown[] = [];
    let dropped = false;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const handlers: unknown[] = group.hooks;
      const owns = handlers.map(ownHandler);
      if (owns.every((o) => o === null)) {
        kept.push(group);
        continue;
      }
      const where = matcherOf(group);
      const removeOwn = (skipFirst: boolean): void => {
        let skipped = !skipFirst;
        for (const o of owns) {
          if (o === null) continue;
          if (!skipped) skipped = true;
          else changes.push({ op: 'remove', event, ...where, command: o.command });
        }
      };
      const firstOwn = owns.find((o) => o !== null) as Own;
      if (hook !== undefined && command !== null && !placed.has(event)) {
        placed.add(event);
        const m = hook.matcher === undefined ? {} : { matcher: hook.matcher };
        if (owns.every((o) => o !== null)) {
          // A group of Buckler's alone: becomes Buckler's group, in the same place.
          const next = ownGroup(hook, command);
          kept.push(next);
          if (!sameJson(group, next)) {
            changes.push({ op: 'replace', event, ...m, command, previous: firstOwn.command });
            removeOwn(true);
          }
          continue;
        }
        if (group.matcher === hook.matcher) {
          // Someone else's group with Buckler's matcher: Buckler's handler is replaced in place.
          const next = wiring.handler(hook, command);
          let done = false;
          const rest = handlers.flatMap((h, i) => {
            if (owns[i] === null) return [h];
            if (done) return [];
            done = true;
            return [next];
          });
          kept.push(withKey(group, 'hooks', rest));
          const firstIndex = owns.findIndex((o) => o !== null);
          if (!sameJson(handlers[firstIndex], next)) changes.push({ op: 'replace', event, ...m, command, previous: firstOwn.command });
          removeOwn(true);
          continue;
        }
        placed.delete(event);
      }
      // Buckler's handlers leave this group; the group goes when nothing else is left in it.
      removeOwn(false);
      const rest = handlers.filter((_, i) => owns[i] === null);
      if (rest.length > 0) kept.push(withKey(group, 'hooks', rest));
      else dropped = true;
    }
    if (hook !== undefined && command !== null && !placed.has(event)) {
      placed.add(event);
      kept.push(ownGroup(hook, command));
      changes.push({ op: 'add', event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command });
    }
    if (kept.length > 0 || !dropped) events.push([event, kept]);
  }
  if (command !== null) {
    for (const hook of wanted) {
      if (placed.has(hook.event)) continue;
      events.push([hook.event, [ownGroup(hook, command)]]);
      changes.push({ op: 'add', event: hook.event, ...hook.matcher === undefined ? {} : { matcher: hook.matcher }, command });
    }
  }
  if (changes.length === 0) return { value, changes };
  const nextHooks = Object.fromEntries(events);
  // A "hooks" object that held only Buckler's hooks goes with them.
  if (events.length === 0) return { value: Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'hooks')), changes };
  const next = 'hooks' in value ? withKey(value, 'hooks', nextHooks) : { ...value, hooks: nextHooks };
  return { value: next, changes };
}


export function groupWire(value: JsonObject, wiring: GroupWiring, command: string): Edit {
  return rewire(value, wiring, command);
}

export function groupUnwire(value: JsonObject, wiring: GroupWiring): Edit {
  return rewire(value, wiring, null);
}

/** Why `value` is not a matcher-group config, or null. */
export function groupProblem(value: unknown, wiring: GroupWiring): string | null {
  if (!isObject(value)) return `must be a JSON object, found ${describeType(value)}`;
  if (!('hooks' in value)) return null;
  if (!isObject(value.hooks)) return `"hooks" must be an object keyed by event name, found ${describeType(value.hooks)}`;
  for (const [event, groups] of Object.entries(value.hooks)) {
    if (!Array.isArray(groups) && !isSetting(wiring, event)) return `"hooks.${event}" must be a list of matcher groups, found ${describeType(groups)}`;
  }
  return null;
}

/** Buckler's handlers in the config, in file order. */
export function groupFind(value: JsonObject, wiring: GroupWiring): FoundHook[] {
  const found: FoundHook[] = [];
  if (!isObject(value.hooks)) return found;
  for (const [event, groups] of Object.entries(value.hooks)) {
    if (!Array.isArray(groups) || isSetting(wiring, event)) continue;
    const hook = wiring.hooks.find((h) => h.event === event);
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const handler of group.hooks as unknown[]) {
        const own = ownHandler(handler);
        if (own === null) continue;
        found.push({
          event,
          ...matcherOf(group),
          command: own.command,
          files: own.files,
          asWanted: hook !== undefined && group.matcher === hook.matcher && sameJson(handler, wiring.handler(hook, own.command)),
        });
      }
    }
  }
  return found;
}
