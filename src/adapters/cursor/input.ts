/**
 * Cursor event → PolicyInput. The events Buckler gates are read strictly (a wrong or missing
 * field is a PolicyError); every other event becomes `unknown_harness_event`, read leniently.
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
  lenientStringArray,
  optNonEmpty,
  optObject,
  optString,
  optStringArray,
  payloadObject,
  refuseUnknownToolCall,
  reqString,
  type JsonObject,
} from '../payload.ts';
import { CURSOR_EVENTS, CURSOR_FILE_TOOLS } from './types.ts';

const CURSOR_SHELL_TOOL = 'Shell';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  preToolUse: 'pre_shell_tool',
  postToolUse: 'post_tool_success',
  postToolUseFailure: 'post_tool_failure',
};

function session(o: JsonObject, where: string): SessionInfo {
  const s: SessionInfo = {};
  const conversation = optString(o, 'conversation_id', where) ?? optString(o, 'session_id', where);
  const generation = optString(o, 'generation_id', where);
  const model = optString(o, 'model', where);
  const roots = optStringArray(o, 'workspace_roots', where);
  if (conversation !== undefined) s.conversation_id = conversation;
  if (generation !== undefined) s.generation_id = generation;
  if (model !== undefined) s.model = model;
  if (roots !== undefined) s.workspace_roots = roots;
  return s;
}

function lenientSession(o: JsonObject): SessionInfo {
  const s: SessionInfo = {};
  const conversation = lenientString(o, 'conversation_id') ?? lenientString(o, 'session_id');
  const generation = lenientString(o, 'generation_id');
  const model = lenientString(o, 'model');
  const roots = lenientStringArray(o, 'workspace_roots');
  if (conversation !== undefined) s.conversation_id = conversation;
  if (generation !== undefined) s.generation_id = generation;
  if (model !== undefined) s.model = model;
  if (roots !== undefined) s.workspace_roots = roots;
  return s;
}

function firstRoot(s: SessionInfo): string | undefined {
  const r = s.workspace_roots?.[0];
  return r === undefined || r === '' ? undefined : r;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'cursor', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

function shellExec(o: JsonObject): PolicyInput {
  const where = 'Cursor beforeShellExecution';
  const s = session(o, where);
  const command = reqString(o, 'command', where);
  const cwd = optNonEmpty(o, 'cwd', where) ?? firstRoot(s);
  const input = base('beforeShellExecution', 'pre_shell_exec', s);
  input.shell = cwd === undefined ? { command } : { command, cwd };
  return input;
}

/** The directory relative paths are read against: the event's `cwd`, else the workspace root. */
function withContext(input: PolicyInput, cwd: string | undefined): void {
  if (cwd !== undefined) input.context = { cwd };
}

/** The path a file tool's call touches, from its `file_path` (types.ts). */
function fileToolPaths(tool: ToolInfo, toolInput: JsonObject | undefined, where: string): void {
  const spec = CURSOR_FILE_TOOLS.get(tool.name);
  if (spec === undefined) return;
  if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${tool.name} tool call has no "tool_input"`);
  const w = `${where} ${tool.name} tool_input`;
  const path = spec.required ? reqString(toolInput, 'file_path', w) : optString(toolInput, 'file_path', w);
  if (path === '' && spec.required) throw new PolicyError('bad_payload', `${w}: "file_path" is empty`);
  if (path !== undefined && path !== '') tool.paths = [{ path, access: spec.access }];
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Cursor ${event}`;
  const s = session(o, where);
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  const topCwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, s);
  const tool: ToolInfo = toolInput === undefined ? { name } : { name, input: toolInput };
  input.tool = tool;
  withContext(input, topCwd ?? firstRoot(s));
  fileToolPaths(tool, toolInput, where);
  if (name === CURSOR_SHELL_TOOL) {
    if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the Shell tool call has no "tool_input"`);
    const w = `${where} Shell tool_input`;
    const command = reqString(toolInput, 'command', w);
    const cwd =
      optNonEmpty(toolInput, 'cwd', w) ?? optNonEmpty(toolInput, 'working_directory', w) ?? topCwd ?? firstRoot(s);
    input.shell = cwd === undefined ? { command } : { command, cwd };
    withContext(input, cwd);
  }
  return input;
}

/** beforeReadFile: the agent's Read tool, after the disk read and before the model sees the content. */
function readFile(o: JsonObject): PolicyInput {
  const where = 'Cursor beforeReadFile';
  const s = session(o, where);
  const path = reqString(o, 'file_path', where);
  if (path === '') throw new PolicyError('bad_payload', `${where}: "file_path" is empty`);
  const input = base('beforeReadFile', 'pre_shell_tool', s);
  // The content is left out: it is the very thing being guarded, and can be large.
  input.tool = { name: 'Read', input: { file_path: path }, paths: [{ path, access: 'read' }] };
  withContext(input, firstRoot(s));
  return input;
}

/** beforeMCPExecution: an MCP tool call, named `MCP:<tool>` as Cursor's own matchers name it. */
function mcpExec(o: JsonObject): PolicyInput {
  const where = 'Cursor beforeMCPExecution';
  const s = session(o, where);
  const toolName = reqString(o, 'tool_name', where);
  const server = optNonEmpty(o, 'mcp_server_name', where);
  const args = mcpArguments(o.tool_input);
  const input = base('beforeMCPExecution', 'pre_shell_tool', s);
  const tool: ToolInfo = { name: `MCP:${toolName}` };
  if (args !== undefined) tool.input = args;
  // Without a server name (older Cursor builds) there is no McpCall to fill honestly.
  if (server !== undefined) {
    const call: McpCall = { server, tool: toolName };
    if (args !== undefined) call.arguments = args;
    tool.mcp = call;
  }
  input.tool = tool;
  withContext(input, firstRoot(s));
  return input;
}

/** After an edit (observe only): the edited file is written. */
function fileEdited(o: JsonObject): PolicyInput {
  const input = base('afterFileEdit', 'post_tool_success', lenientSession(o));
  const path = lenientString(o, 'file_path');
  input.tool = path === undefined ? { name: 'Write' } : { name: 'Write', input: { file_path: path }, paths: [{ path, access: 'write' }] };
  return input;
}

/** MCP arguments arrive as a JSON-encoded string on beforeMCPExecution. */
function mcpArguments(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(o: JsonObject, event: string): PolicyInput {
  const input = base(event, 'unknown_harness_event', lenientSession(o));
  const toolName = lenientString(o, 'tool_name');
  const filePath = lenientString(o, 'file_path');
  // Tool names as Cursor's own matchers see them (docs/adapters/cursor.md).
  if (event === 'afterMCPExecution' && toolName !== undefined) {
    input.tool = { name: `MCP:${toolName}`, input: mcpArguments(o.tool_input) };
  } else if (event === 'beforeTabFileRead' && filePath !== undefined) {
    input.tool = { name: 'TabRead', input: { file_path: filePath } };
  } else if (toolName !== undefined) {
    input.tool = isObject(o.tool_input) ? { name: toolName, input: o.tool_input } : { name: toolName };
  }
  return refuseUnknownToolCall('Cursor', CURSOR_EVENTS, o, input);
}

export function cursorEventName(o: JsonObject): string {
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'Cursor hook payload: "hook_event_name" is missing or not a string');
  }
  return event;
}

export function adaptCursorInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Cursor');
  const event = cursorEventName(o);
  if (event === 'beforeShellExecution') return shellExec(o);
  if (event === 'beforeReadFile') return readFile(o);
  if (event === 'beforeMCPExecution') return mcpExec(o);
  if (event === 'afterFileEdit') return fileEdited(o);
  const trigger = TOOL_TRIGGERS[event];
  if (trigger !== undefined) return toolEvent(o, event, trigger);
  return otherEvent(o, event);
}
