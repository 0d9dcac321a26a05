/**
 * Factory Droid event → PolicyInput. PreToolUse and PostToolUse are read strictly (a wrong or
 * missing field is a PolicyError, so the driver denies before an action); every other event
 * becomes `unknown_harness_event`, read leniently. The shell tool `Execute` is carried as
 * `shell`; the file tools (`Create`, `Edit`, `Read`, …) give `tool.paths` from `file_path`;
 * `ApplyPatch` gives `tool.paths` from its patch headers; `mcp__<server>__<tool>` gives `tool.mcp`.
 */
import { POLICY_IO_VERSION, PolicyError, type PolicyInput, type SessionInfo, type ToolInfo, type Trigger } from '../../core/contract.ts';
import { mcpCall } from '../codex/input.ts';
import { patchToolPaths } from '../patch-paths.ts';
import { isObject, lenientString, optNonEmpty, optObject, optString, payloadObject, reqString, type JsonObject } from '../payload.ts';
import { DROID_FILE_TOOLS, DROID_MCP_PREFIX, DROID_PATCH_KEYS, DROID_PATCH_TOOL, DROID_SHELL_TOOL } from './types.ts';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  PreToolUse: 'pre_shell_tool',
  PostToolUse: 'post_tool_success',
};

function sessionOf(sessionId: string | undefined, cwd: string | undefined): SessionInfo {
  const s: SessionInfo = {};
  if (sessionId !== undefined) s.conversation_id = sessionId;
  if (cwd !== undefined) s.workspace_roots = [cwd];
  return s;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'factory-droid', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

function needInput(toolInput: JsonObject | undefined, where: string, name: string): JsonObject {
  if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "tool_input" object`);
  return toolInput;
}

/** ApplyPatch's patch text: the first string argument of DROID_PATCH_KEYS. */
function patchText(toolInput: JsonObject, where: string): string {
  for (const k of DROID_PATCH_KEYS) {
    const v = toolInput[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  throw new PolicyError('bad_payload', `${where}: the ${DROID_PATCH_TOOL} tool call carries no patch text (looked for ${DROID_PATCH_KEYS.join(', ')})`);
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Factory Droid ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, sessionOf(optString(o, 'session_id', where), cwd));
  if (cwd !== undefined) input.context = { cwd };
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  const tool: ToolInfo = toolInput === undefined ? { name } : { name, input: toolInput };
  input.tool = tool;
  const w = `${where} ${name} tool_input`;
  if (name === DROID_SHELL_TOOL) {
    const command = reqString(needInput(toolInput, where, name), 'command', w);
    input.shell = cwd === undefined ? { command } : { command, cwd };
  } else if (name === DROID_PATCH_TOOL) {
    const paths = patchToolPaths(patchText(needInput(toolInput, where, name), w));
    if (paths.length === 0) throw new PolicyError('bad_payload', `${w}: the patch names no file (no "*** Add/Update/Delete File:" header)`);
    tool.paths = paths;
  } else {
    const access = DROID_FILE_TOOLS.get(name);
    if (access !== undefined) {
      const args = needInput(toolInput, where, name);
      const path = optString(args, 'file_path', w) ?? reqString(args, 'path', w);
      if (path === '') throw new PolicyError('bad_payload', `${w}: the file path is empty`);
      tool.paths = [{ path, access }];
    } else if (name.startsWith(DROID_MCP_PREFIX)) {
      const mcp = mcpCall(name, toolInput);
      if (mcp !== undefined) tool.mcp = mcp;
    }
  }
  return input;
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(o: JsonObject, event: string): PolicyInput {
  const input = base(event, 'unknown_harness_event', sessionOf(lenientString(o, 'session_id'), lenientString(o, 'cwd')));
  const toolName = lenientString(o, 'tool_name');
  if (toolName !== undefined) input.tool = isObject(o.tool_input) ? { name: toolName, input: o.tool_input } : { name: toolName };
  return input;
}

export function adaptDroidInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Factory Droid');
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'Factory Droid hook payload: "hook_event_name" is missing or not a string');
  }
  const trigger = TOOL_TRIGGERS[event];
  return trigger === undefined ? otherEvent(o, event) : toolEvent(o, event, trigger);
}
