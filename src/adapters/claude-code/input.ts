/**
 * Claude Code event → PolicyInput. The events Buckler gates are read strictly (a wrong or
 * missing field is a PolicyError); every other event becomes `unknown_harness_event`, read
 * leniently.
 */
import {
  POLICY_IO_VERSION,
  PolicyError,
  type McpCall,
  type PolicyInput,
  type SessionInfo,
  type ToolInfo,
  type Trigger,
} from '../../core/contract.ts';
import {
  isObject,
  lenientString,
  optNonEmpty,
  optObject,
  optString,
  payloadObject,
  reqString,
  type JsonObject,
} from '../payload.ts';
import { CLAUDE_CODE_FILE_TOOLS, CLAUDE_CODE_SHELL_TOOLS } from './types.ts';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  PreToolUse: 'pre_shell_tool',
  PostToolUse: 'post_tool_success',
  PostToolUseFailure: 'post_tool_failure',
  // A shell command embedded in a skill, run without a Bash tool call: gated like one.
  PreSkillShellCommand: 'pre_shell_exec',
};

function sessionOf(sessionId: string | undefined, cwd: string | undefined): SessionInfo {
  const s: SessionInfo = {};
  if (sessionId !== undefined) s.conversation_id = sessionId;
  if (cwd !== undefined) s.workspace_roots = [cwd];
  return s;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'claude-code', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

/**
 * An MCP tool's name split as Claude Code splits it itself: `mcp__<server>__<tool>`, the
 * server being the text between the first two `__` (a server name that holds `__` reads the
 * same ambiguous way in Claude Code's own permission rules); null when it is not one.
 */
export function claudeCodeMcpName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith('mcp__')) return null;
  const end = name.indexOf('__', 5);
  if (end <= 5) return null;
  const tool = name.slice(end + 2);
  return tool === '' ? null : { server: name.slice(5, end), tool };
}

/** The paths a file tool's call touches, from the argument that names it (types.ts). */
function fileToolPaths(tool: ToolInfo, toolInput: JsonObject | undefined, where: string): void {
  const spec = CLAUDE_CODE_FILE_TOOLS.get(tool.name);
  if (spec === undefined) return;
  const w = `${where} ${tool.name} tool_input`;
  if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${tool.name} tool call has no "tool_input"`);
  const path = spec.required ? reqString(toolInput, spec.field, w) : optString(toolInput, spec.field, w);
  if (path === '' && spec.required) throw new PolicyError('bad_payload', `${w}: "${spec.field}" is empty`);
  if (path !== undefined && path !== '') tool.paths = [{ path, access: spec.access }];
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Claude Code ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, sessionOf(optString(o, 'session_id', where), cwd));
  if (cwd !== undefined) input.context = { cwd };
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  const tool: ToolInfo = toolInput === undefined ? { name } : { name, input: toolInput };
  input.tool = tool;
  fileToolPaths(tool, toolInput, where);
  const mcp = claudeCodeMcpName(name);
  if (mcp !== null) {
    const call: McpCall = { server: mcp.server, tool: mcp.tool };
    if (toolInput !== undefined) call.arguments = toolInput;
    tool.mcp = call;
  }
  if (CLAUDE_CODE_SHELL_TOOLS.includes(name)) {
    if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "tool_input"`);
    const command = reqString(toolInput, 'command', `${where} ${name} tool_input`);
    input.shell = cwd === undefined ? { command } : { command, cwd };
  }
  return input;
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(o: JsonObject, event: string): PolicyInput {
  const input = base(event, 'unknown_harness_event', sessionOf(lenientString(o, 'session_id'), lenientString(o, 'cwd')));
  const toolName = lenientString(o, 'tool_name');
  if (toolName !== undefined) {
    input.tool = isObject(o.tool_input) ? { name: toolName, input: o.tool_input } : { name: toolName };
  }
  return input;
}

export function adaptClaudeCodeInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Claude Code');
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'Claude Code hook payload: "hook_event_name" is missing or not a string');
  }
  const trigger = TOOL_TRIGGERS[event];
  return trigger === undefined ? otherEvent(o, event) : toolEvent(o, event, trigger);
}
