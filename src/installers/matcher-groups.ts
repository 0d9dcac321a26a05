/**
 * The config shape Claude Code introduced and Codex and Gemini CLI share: `"hooks": {"<Event>":
 * [ {"matcher": "…", "hooks": [ {type: "command", command, …} ]} ]}`. The edits (wire, unwire,
 * find, problem) are the same for all three; each harness gives its hooks and the handler it
 * writes (its own keys and timeout unit). Every other key and entry is left alone, in order.
 */
import type { Change, Edit, FoundHook, HarnessInstaller, WantedHook } from './installer.ts';
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

/** Buckler's handlers in each matcher group of an event (null: not a group Buckler can be in). */
function ownsOf(groups: unknown[]): ((Own | null)[] | null)[] {
  return groups.map((g) => (isObject(g) && Array.isArray(g.hooks) ? (g.hooks as unknown[]).map(ownHandler) : null));
}

/**
 * Which matcher group each wanted hook of one event goes into (an event may have several, each
 * with its own matcher): first a group holding Buckler with the hook's matcher, then a group of
 * Buckler's alone (an older wiring, upgraded in place).
 */
function assignGroups(groups: unknown[], owns: ((Own | null)[] | null)[], eventHooks: readonly WantedHook[]): Map<number, WantedHook> {
  const assign = new Map<number, WantedHook>();
  const taken = new Set<WantedHook>();
  const pick = (h: WantedHook, fits: (i: number) => boolean): void => {
    const i = groups.findIndex((_, j) => !assign.has(j) && fits(j));
    if (i < 0) return;
    assign.set(i, h);
    taken.add(h);
  };
  for (const h of eventHooks) {
    pick(h, (j) => owns[j]?.some((o) => o !== null) === true && (groups[j] as JsonObject).matcher === h.matcher);
  }
  for (const h of eventHooks) {
    if (!taken.has(h)) pick(h, (j) => (owns[j]?.length ?? 0) > 0 && owns[j]?.every((o) => o !== null) === true);
  }
  return assign;
}

/** The one edit behind wire and unwire: Buckler's handlers become exactly `wiring.hooks`. */
function rewire(value: JsonObject, wiring: GroupWiring, command: string | null): Edit {
  const wanted = wiring.hooks;
  const changes: Change[] = [];
  const byEvent = new Map<string, WantedHook[]>();
  if (command !== null) for (const h of wanted) byEvent.set(h.event, [...(byEvent.get(h.event) ?? []), h]);
  const placed = new Set<WantedHook>();
  const hooks = isObject(value.hooks) ? value.hooks : {};
  const events: [string, unknown][] = [];
  const m = (hook: WantedHook): { matcher?: string } => (hook.matcher === undefined ? {} : { matcher: hook.matcher });
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups) || isSetting(wiring, event)) {
      events.push([event, groups]);
      continue;
    }
    const eventHooks = byEvent.get(event) ?? [];
    const owns = ownsOf(groups);
    const assign = command === null ? new Map<number, WantedHook>() : assignGroups(groups, owns, eventHooks);
    const kept: unknown[] = [];
    let dropped = false;
    groups.forEach((group, gi) => {
      const own = owns[gi];
      if (own === null || own === undefined || own.every((o) => o === null)) {
        kept.push(group);
        return;
      }
      const g = group as JsonObject;
      const handlers = g.hooks as unknown[];
      const where = matcherOf(g);
      const removeOwn = (skipFirst: boolean): void => {
        let skipped = !skipFirst;
        for (const o of own) {
          if (o === null) continue;
          if (!skipped) skipped = true;
          else changes.push({ op: 'remove', event, ...where, command: o.command });
        }
      };
      const firstOwn = own.find((o) => o !== null) as Own;
      const hook = assign.get(gi);
      if (hook !== undefined && command !== null) {
        placed.add(hook);
        if (own.every((o) => o !== null)) {
          // A group of Buckler's alone: becomes Buckler's group, in the same place.
          const next = groupOf(wiring, hook, command);
          kept.push(next);
          if (!sameJson(group, next)) {
            changes.push({ op: 'replace', event, ...m(hook), command, previous: firstOwn.command });
            removeOwn(true);
          }
          return;
        }
        // Someone else's group with Buckler's matcher: Buckler's handler is replaced in place.
        const next = wiring.handler(hook, command);
        let done = false;
        const rest = handlers.flatMap((h, i) => {
          if (own[i] === null) return [h];
          if (done) return [];
          done = true;
          return [next];
        });
        kept.push(withKey(g, 'hooks', rest));
        const firstIndex = own.findIndex((o) => o !== null);
        if (!sameJson(handlers[firstIndex], next)) changes.push({ op: 'replace', event, ...m(hook), command, previous: firstOwn.command });
        removeOwn(true);
        return;
      }
      // Buckler's handlers leave this group; the group goes when nothing else is left in it.
      removeOwn(false);
      const rest = handlers.filter((_, i) => own[i] === null);
      if (rest.length > 0) kept.push(withKey(g, 'hooks', rest));
      else dropped = true;
    });
    if (command !== null) {
      for (const hook of eventHooks) {
        if (placed.has(hook)) continue;
        placed.add(hook);
        kept.push(groupOf(wiring, hook, command));
        changes.push({ op: 'add', event, ...m(hook), command });
      }
    }
    if (kept.length > 0 || !dropped) events.push([event, kept]);
  }
  if (command !== null) {
    const added = new Map<string, unknown[]>();
    for (const hook of wanted) {
      if (placed.has(hook)) continue;
      let list = added.get(hook.event);
      if (list === undefined) {
        list = [];
        added.set(hook.event, list);
        events.push([hook.event, list]);
      }
      list.push(groupOf(wiring, hook, command));
      changes.push({ op: 'add', event: hook.event, ...m(hook), command });
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
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const hook = wiring.hooks.find((h) => h.event === event && h.matcher === group.matcher);
      for (const handler of group.hooks as unknown[]) {
        const own = ownHandler(handler);
        if (own === null) continue;
        found.push({
          event,
          ...matcherOf(group),
          command: own.command,
          files: own.files,
          asWanted: hook !== undefined && sameJson(handler, wiring.handler(hook, own.command)),
        });
      }
    }
  }
  return found;
}

/**
 * The part of a HarnessInstaller that is the same for every matcher-group harness: its hooks,
 * an empty config, and the four edits, for that harness's wiring. Spread it into the installer.
 */
export function groupInstaller(wiring: GroupWiring): Pick<HarnessInstaller, 'hooks' | 'emptyConfig' | 'problem' | 'wire' | 'unwire' | 'find'> {
  return {
    hooks: wiring.hooks,
    emptyConfig: () => ({}),
    problem: (value) => groupProblem(value, wiring),
    wire: (value, command) => groupWire(value, wiring, command),
    unwire: (value) => groupUnwire(value, wiring),
    find: (value) => groupFind(value, wiring),
  };
}
