/**
 * Codex event → PolicyInput. PreToolUse and PostToolUse are read strictly (a wrong or missing
 * field is a PolicyError); every other event becomes `unknown_harness_event`, read leniently.
 * Every tool Codex reports is carried as `tool` (shell `Bash`, file edits `apply_patch`, MCP
 * `mcp__<server>__<tool>`, …); a Bash call also as `shell`, an `apply_patch` call gets
 * `tool.paths` from its patch headers, and an MCP call `tool.mcp`.
 */
import { POLICY_IO_VERSION, PolicyError, type McpCall, type PolicyInput, type SessionInfo, type Trigger } from '../../core/contract.ts';
import { patchToolPaths } from '../patch-paths.ts';
import { isObject, lenientString, optNonEmpty, optString, payloadObject, reqString, type JsonObject } from '../payload.ts';
import { CODEX_MCP_PREFIX, CODEX_PATCH_TOOL, CODEX_SHELL_TOOL } from './types.ts';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  PreToolUse: 'pre_shell_tool',
  // Codex fires PostToolUse for failed commands too (no separate failure event).
  PostToolUse: 'post_tool_success',
};

function sessionOf(sessionId: string | undefined, cwd: string | undefined, model: string | undefined): SessionInfo {
  const s: SessionInfo = {};
  if (sessionId !== undefined) s.conversation_id = sessionId;
  if (model !== undefined) s.model = model;
  if (cwd !== undefined) s.workspace_roots = [cwd];
  return s;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'codex', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Codex ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, sessionOf(optString(o, 'session_id', where), cwd, optString(o, 'model', where)));
  const name = reqString(o, 'tool_name', where);
  const raw = o.tool_input;
  if (name === CODEX_SHELL_TOOL || name === CODEX_PATCH_TOOL) {
    if (!isObject(raw)) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "tool_input" object`);
    const command = reqString(raw, 'command', `${where} ${name} tool_input`);
    input.tool = { name, input: raw };
    if (name === CODEX_SHELL_TOOL) input.shell = cwd === undefined ? { command } : { command, cwd };
    else input.tool.paths = patchToolPaths(command);
    return input;
  }
  input.tool = raw === undefined || raw === null ? { name } : { name, input: raw };
  const mcp = mcpCall(name, raw);
  if (mcp !== undefined) input.tool.mcp = mcp;
  return input;
}

/** `mcp__<server>__<tool>` split at the first `__` after the prefix (a tool name may hold `__`). */
export function mcpCall(name: string, args: unknown): McpCall | undefined {
  if (!name.startsWith(CODEX_MCP_PREFIX)) return undefined;
  const rest = name.slice(CODEX_MCP_PREFIX.length);
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut + 2 >= rest.length) return undefined;
  const call: McpCall = { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
  if (args !== undefined && args !== null) call.arguments = args;
  return call;
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(o: JsonObject, event: string): PolicyInput {
  const s = sessionOf(lenientString(o, 'session_id'), lenientString(o, 'cwd'), lenientString(o, 'model'));
  const input = base(event, 'unknown_harness_event', s);
  const toolName = lenientString(o, 'tool_name');
  if (toolName !== undefined) input.tool = isObject(o.tool_input) ? { name: toolName, input: o.tool_input } : { name: toolName };
  return input;
}

export function adaptCodexInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Codex');
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'Codex hook payload: "hook_event_name" is missing or not a string');
  }
  const trigger = TOOL_TRIGGERS[event];
  return trigger === undefined ? otherEvent(o, event) : toolEvent(o, event, trigger);
}
