/**
 * Gemini CLI event → PolicyInput. BeforeTool and AfterTool are read strictly (a wrong or
 * missing field is a PolicyError); every other event becomes `unknown_harness_event`, read
 * leniently. Every tool is carried as `tool` with Gemini's own name (`run_shell_command`,
 * `write_file`, `replace`, `read_file`, `mcp_<server>_<tool>`, …); a shell call also as `shell`,
 * its working directory being `tool_input.dir_path` resolved against the project (`cwd`). File
 * tools get `tool.paths`, MCP tools `tool.mcp` (from the payload's `mcp_context`).
 */
import { POLICY_IO_VERSION, PolicyError, type Access, type McpCall, type PolicyInput, type SessionInfo, type ToolPath, type Trigger } from '../../core/contract.ts';
import { isObject, lenientString, optNonEmpty, optObject, optString, payloadObject, reqString, type JsonObject } from '../payload.ts';
import { GEMINI_SHELL_TOOL } from './types.ts';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  BeforeTool: 'pre_shell_tool',
  // Gemini fires AfterTool for failed calls too (with tool_response.error).
  AfterTool: 'post_tool_success',
};

function sessionOf(sessionId: string | undefined, cwd: string | undefined): SessionInfo {
  const s: SessionInfo = {};
  if (sessionId !== undefined) s.conversation_id = sessionId;
  if (cwd !== undefined) s.workspace_roots = [cwd];
  return s;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'gemini-cli', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

/** `path.resolve(projectDir, dir_path)` for the plain cases, without normalising. */
function shellCwd(projectDir: string | undefined, dirPath: string | undefined): string | undefined {
  if (dirPath === undefined) return projectDir;
  if (dirPath.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dirPath)) return dirPath;
  if (projectDir === undefined) return undefined;
  if (dirPath === '.' || dirPath === './') return projectDir;
  return `${projectDir.replace(/[\\/]+$/, '')}/${dirPath}`;
}

/** File tools (0.61.0 tool schemas): the argument naming the path, and how the tool uses it. */
const FILE_TOOLS: Readonly<Record<string, [string, Access]>> = {
  read_file: ['file_path', 'read'],
  write_file: ['file_path', 'write'],
  replace: ['file_path', 'write'],
  list_directory: ['dir_path', 'metadata'],
  glob: ['dir_path', 'metadata'],
  grep_search: ['dir_path', 'read'],
};

function filePaths(name: string, args: JsonObject | undefined): ToolPath[] | undefined {
  const spec = FILE_TOOLS[name];
  if (spec === undefined || args === undefined) return undefined;
  const p = args[spec[0]];
  return typeof p === 'string' && p !== '' ? [{ path: p, access: spec[1] }] : undefined;
}

/** `mcp_context` names the server and its own tool name exactly (the qualified name may not split). */
function mcpCall(o: JsonObject, args: JsonObject | undefined): McpCall | undefined {
  const ctx = o.mcp_context;
  if (!isObject(ctx) || typeof ctx.server_name !== 'string' || typeof ctx.tool_name !== 'string') return undefined;
  const call: McpCall = { server: ctx.server_name, tool: ctx.tool_name };
  if (args !== undefined) call.arguments = args;
  return call;
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Gemini CLI ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, sessionOf(optString(o, 'session_id', where), cwd));
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  input.tool = toolInput === undefined ? { name } : { name, input: toolInput };
  const paths = filePaths(name, toolInput);
  if (paths !== undefined) input.tool.paths = paths;
  const mcp = mcpCall(o, toolInput);
  if (mcp !== undefined) input.tool.mcp = mcp;
  if (name === GEMINI_SHELL_TOOL) {
    if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} call has no "tool_input"`);
    const w = `${where} ${name} tool_input`;
    const command = reqString(toolInput, 'command', w);
    const dir = shellCwd(cwd, optNonEmpty(toolInput, 'dir_path', w));
    input.shell = dir === undefined ? { command } : { command, cwd: dir };
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

export function adaptGeminiInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Gemini CLI');
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'Gemini CLI hook payload: "hook_event_name" is missing or not a string');
  }
  const trigger = TOOL_TRIGGERS[event];
  return trigger === undefined ? otherEvent(o, event) : toolEvent(o, event, trigger);
}
