/**
 * Gemini CLI event → PolicyInput. BeforeTool and AfterTool are read strictly (a wrong or
 * missing field is a PolicyError); every other event becomes `unknown_harness_event`, read
 * leniently. Every tool is carried as `tool` with Gemini's own name (`run_shell_command`,
 * `write_file`, `replace`, `read_file`, `mcp_<server>_<tool>`, …); a shell call also as `shell`,
 * its working directory being `tool_input.dir_path` resolved against the project (`cwd`). File
 * tools get `tool.paths`, MCP tools `tool.mcp` (from the payload's `mcp_context`).
 */
import { PolicyError, type Access, type McpCall, type PolicyInput, type ToolPath } from '../../core/contract.ts';
import { hookInputReader, readToolCall, shellCwd, type HookInputSpec } from '../claude-shaped.ts';
import { isObject, optNonEmpty, reqString, type JsonObject } from '../payload.ts';
import { GEMINI_EVENTS, GEMINI_SHELL_TOOL } from './types.ts';

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
function mcpContextCall(o: JsonObject, args: JsonObject | undefined): McpCall | undefined {
  const ctx = o.mcp_context;
  if (!isObject(ctx) || typeof ctx.server_name !== 'string' || typeof ctx.tool_name !== 'string') return undefined;
  const call: McpCall = { server: ctx.server_name, tool: ctx.tool_name };
  if (args !== undefined) call.arguments = args;
  return call;
}

const SPEC: HookInputSpec = {
  harness: 'gemini-cli',
  title: 'Gemini CLI',
  events: GEMINI_EVENTS,
  triggers: {
    BeforeTool: 'pre_shell_tool',
    // Gemini fires AfterTool for failed calls too (with tool_response.error).
    AfterTool: 'post_tool_success',
  },
  toolEvent(o, event, trigger) {
    const { input, tool, name, toolInput, cwd, where, w } = readToolCall(SPEC, o, event, trigger, false);
    const paths = filePaths(name, toolInput);
    if (paths !== undefined) tool.paths = paths;
    const mcp = mcpContextCall(o, toolInput);
    if (mcp !== undefined) tool.mcp = mcp;
    if (name === GEMINI_SHELL_TOOL) {
      if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} call has no "tool_input"`);
      const command = reqString(toolInput, 'command', w);
      // `dir_path` is relative to the project root (`cwd`).
      const dir = shellCwd(cwd, optNonEmpty(toolInput, 'dir_path', w));
      input.shell = dir === undefined ? { command } : { command, cwd: dir };
    }
    return input;
  },
};

export const adaptGeminiInput: (raw: unknown) => PolicyInput = hookInputReader(SPEC);
