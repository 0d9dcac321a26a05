/**
 * Small, strict readers for native hook payloads. A field that is present with the wrong
 * type is a PolicyError (`bad_payload`), never a guess; a field that is absent is undefined.
 */
import { POLICY_IO_VERSION, PolicyError, type PolicyInput, type SessionInfo, type Trigger } from '../core/contract.ts';

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The payload as an object; anything else (array, string, null) is a bad input. */
export function payloadObject(raw: unknown, harness: string): JsonObject {
  if (isObject(raw)) return raw;
  const kind = Array.isArray(raw) ? 'a JSON array' : raw === null ? 'null' : `a JSON ${typeof raw}`;
  throw new PolicyError('bad_input', `the ${harness} hook payload is ${kind}, not a JSON object`);
}

function bad(where: string, key: string, want: string, got: unknown): PolicyError {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'an array' : `a ${typeof got}`;
  return new PolicyError('bad_payload', `${where}: "${key}" must be ${want}, got ${kind}`);
}

export function reqString(o: JsonObject, key: string, where: string): string {
  const v = o[key];
  if (v === undefined) throw new PolicyError('bad_payload', `${where}: "${key}" is missing`);
  if (typeof v !== 'string') throw bad(where, key, 'a string', v);
  return v;
}

export function optString(o: JsonObject, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(where, key, 'a string', v);
  return v;
}

/** Like optString, but an empty string counts as missing (Cursor sends `cwd: ""`). */
export function optNonEmpty(o: JsonObject, key: string, where: string): string | undefined {
  const v = optString(o, key, where);
  return v === '' ? undefined : v;
}

export function optStringArray(o: JsonObject, key: string, where: string): string[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw bad(where, key, 'an array of strings', v);
  return v as string[];
}

export function optObject(o: JsonObject, key: string, where: string): JsonObject | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw bad(where, key, 'an object', v);
  return v;
}

/** A field read without judging it: the value when it has the wanted type, else undefined. */
export function lenientString(o: JsonObject, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function lenientStringArray(o: JsonObject, key: string): string[] | undefined {
  const v = o[key];
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** The event name of a parsed payload, when it has a readable one. */
export function eventNameOf(raw: unknown, field: string): string | undefined {
  if (!isObject(raw)) return undefined;
  const v = raw[field];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The event name of a payload that did not parse (truncated, invalid UTF-8, …), read as a
 * top-level `"field": "name"` pair. Only an unambiguous answer counts: two different names
 * → undefined, and callers then treat the event as unknown (fail closed). A JSON string
 * inside the payload cannot fake the pair: its quotes are escaped (`\"`).
 */
export function eventNameFromText(text: string, field: string): string | undefined {
  const re = new RegExp(`(?:^|[{,])\\s*"${field}"\\s*:\\s*"([A-Za-z_][A-Za-z0-9_]*)"`, 'g');
  let found: string | undefined;
  for (const m of text.matchAll(re)) {
    const name = m[1];
    if (found !== undefined && name !== found) return undefined;
    found = name;
  }
  return found;
}

/** The session a payload names: its id, its model when the harness sends one, its project directory. */
export function sessionOf(sessionId: string | undefined, cwd: string | undefined, model?: string): SessionInfo {
  const s: SessionInfo = {};
  if (sessionId !== undefined) s.conversation_id = sessionId;
  if (model !== undefined) s.model = model;
  if (cwd !== undefined) s.workspace_roots = [cwd];
  return s;
}

/** A PolicyInput with what every event carries; the session only when it names anything. */
export function baseInput(harness: string, event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness, event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

/**
 * Payload keys that carry a tool's result, in every adapter's protocol (Claude-shaped
 * `tool_response`, Cursor `tool_output`, Copilot `toolResult`, the OpenCode plugin's `exit`, …):
 * an event with one of them comes after the tool ran.
 */
export const RESULT_KEYS: readonly string[] = ['tool_response', 'tool_output', 'tool_result', 'toolResult', 'result', 'result_json', 'output', 'error', 'exit'];

/**
 * An event whose name the adapter does not know (`known`: the names it does) but whose payload
 * carries a tool call (`input.tool` with its input) and no result may come before the tool
 * runs: it is not let through as `unknown_harness_event` but refused (PolicyError
 * `unknown_event`; the driver answers with the failure deny, default-packs.md), carrying the
 * input read so far so that the audit record names the event (`buckler doctor` lists them).
 */
export function refuseUnknownToolCall(title: string, known: readonly string[], o: JsonObject, input: PolicyInput): PolicyInput {
  const tool = input.tool;
  if (input.event === undefined || known.includes(input.event) || tool === undefined || tool.input === undefined) return input;
  if (RESULT_KEYS.some((k) => o[k] !== undefined)) return input;
  throw new PolicyError(
    'unknown_event',
    `${title} sent the event "${input.event}", which this Buckler does not know, carrying a call of the tool ${tool.name} and no result: it may run before the tool, so it is blocked. Update Buckler (or report the event).`,
    input,
  );
}
