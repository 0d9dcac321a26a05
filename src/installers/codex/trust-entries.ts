/**
 * Codex's identity of each command hook in a hooks.json, as Codex 0.169.0 computes it: the key
 * its trust state is filed under (`<hooks.json path>:<event_snake>:<group>:<handler>`) and the
 * content hash (`currentHash` in `codex app-server`'s `hooks/list`) that `trusted_hash` must equal.
 *
 * The hash is `sha256:` + hex SHA-256 of the compact JSON, keys sorted at every level, of
 * `{event_name, matcher?, hooks: [{type: "command", command, timeout, async, statusMessage?,
 * additionalContextLimit?}]}`, the timeout defaulting to 600 and at least 1 (Codex's
 * `command_hook_hash`; docs/adapters/codex.md). The real-client test compares both with what
 * the installed Codex reports.
 */
import { createHash } from 'node:crypto';
import { isObject, type JsonObject } from '../json-text.ts';
import { readOwnCommand, readOwnWords } from '../own-command.ts';

export interface CodexHookEntry {
  /** The hooks.json event name (`PreToolUse`). */
  event: string;
  group: number;
  handler: number;
  /** Codex's trust key for it. */
  key: string;
  /** Codex's `currentHash` for it. */
  hash: string;
  /** A handler that starts Buckler. */
  own: boolean;
}

/** `PreToolUse` → `pre_tool_use`: the event as Codex spells it in a trust key and a hash. */
export function snakeEvent(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Events whose matcher Codex ignores (it is left out of their hash). */
const NO_MATCHER = new Set(['user_prompt_submit', 'stop']);

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/** Codex's `currentHash` of one command handler in a matcher group of `event`. */
export function codexHookHash(event: string, matcher: string | undefined, handler: JsonObject): string {
  const snake = snakeEvent(event);
  const timeout = typeof handler.timeout === 'number' && Number.isInteger(handler.timeout) ? Math.max(1, handler.timeout) : 600;
  const h: JsonObject = { type: 'command', command: handler.command, timeout, async: handler.async === true };
  if (typeof handler.statusMessage === 'string') h.statusMessage = handler.statusMessage;
  if (typeof handler.additionalContextLimit === 'number') h.additionalContextLimit = handler.additionalContextLimit;
  const identity: JsonObject = { event_name: snake, hooks: [h] };
  if (matcher !== undefined && !NO_MATCHER.has(snake)) identity.matcher = matcher;
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical(identity))).digest('hex')}`;
}

function startsBuckler(handler: JsonObject): boolean {
  const command = handler.command as string;
  if (Array.isArray(handler.args)) {
    const args = handler.args as unknown[];
    return args.every((a) => typeof a === 'string') && readOwnWords([command, ...(args as string[])]) !== null;
  }
  return readOwnCommand(command) !== null;
}

/**
 * Every command hook in a hooks.json value, in file order, with its key and hash. `file` is the
 * hooks.json path as Codex names it: its directory with symlinks resolved.
 */
export function codexHookEntries(value: JsonObject | null, file: string): CodexHookEntry[] {
  const out: CodexHookEntry[] = [];
  if (value === null || !isObject(value.hooks)) return out;
  for (const [event, groups] of Object.entries(value.hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, gi) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      (group.hooks as unknown[]).forEach((handler, hi) => {
        if (!isObject(handler) || handler.type !== 'command' || typeof handler.command !== 'string') return;
        out.push({
          event,
          group: gi,
          handler: hi,
          key: `${file}:${snakeEvent(event)}:${gi}:${hi}`,
          hash: codexHookHash(event, matcher, handler),
          own: startsBuckler(handler),
        });
      });
    });
  }
  return out;
}
