/**
 * Qwen Code event → PolicyInput. PreToolUse, PostToolUse and PostToolUseFailure are read
 * strictly (a wrong or missing field is a PolicyError, so the driver denies before an action);
 * every other event becomes `unknown_harness_event`, read leniently. The shell tool
 * (`run_shell_command`, or `Bash`) is carried as `shell`; the file tools (`write_file`, `edit`,
 * `read_file`) give `tool.paths` from `file_path`; `mcp__<server>__<tool>` gives `tool.mcp`.
 */
import { POLICY_IO_VERSION, PolicyError, type PolicyInput, type SessionInfo, type ToolInfo, type Trigger } from '../../core/contract.ts';
import { mcpCall } from '../codex/input.ts';
import { isObject, lenientString, optNonEmpty, optObject, optString, payloadObject, reqString, type JsonObject } from '../payload.ts';
import { QWEN_FILE_TOOLS, QWEN_MCP_PREFIX, QWEN_SHELL_TOOLS } from './types.ts';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  PreToolUse: 'pre_shell_tool',
  PostToolUse: 'post_tool_success',
  PostToolUseFailure: 'post_tool_failure',
};

function sessionOf(sessionId: string | undefined, cwd: string | undefined): SessionInfo {
  const s: SessionInfo = {};
  if (sessionId !== undefined) s.conversation_id = sessionId;
  if (cwd !== undefined) s.workspace_roots = [cwd];
  return s;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'qwen-code', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

/** The shell's working directory: `directory` resolved against the project (plain cases, not normalised). */
function shellCwd(projectDir: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined) return projectDir;
  if (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) return dir;
  if (projectDir === undefined) return undefined;
  if (dir === '.' || dir === './') return projectDir;
  return `${projectDir.replace(/[\\/]+$/, '')}/${dir}`;
}

function needInput(toolInput: JsonObject | undefined, where: string, name: string): JsonObject {
  if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "tool_input" object`);
  return toolInput;
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Qwen Code ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, sessionOf(optString(o, 'session_id', where), cwd));
  if (cwd !== undefined) input.context = { cwd };
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  const tool: ToolInfo = toolInput === undefined ? { name } : { name, input: toolInput };
  input.tool = tool;
  const w = `${where} ${name} tool_input`;
  const access = QWEN_FILE_TOOLS.get(name);
  if ((QWEN_SHELL_TOOLS as readonly string[]).includes(name)) {
    const args = needInput(toolInput, where, name);
    const command = reqString(args, 'command', w);
    // `directory` runs the command elsewhere than the project root (relative to it).
    const dir = shellCwd(cwd, optNonEmpty(args, 'directory', w));
    input.shell = dir === undefined ? { command } : { command, cwd: dir };
  } else if (access !== undefined) {
    const args = needInput(toolInput, where, name);
    const path = optString(args, 'file_path', w) ?? reqString(args, 'absolute_path', w);
    if (path === '') throw new PolicyError('bad_payload', `${w}: the file path is empty`);
    tool.paths = [{ path, access }];
  } else if (name.startsWith(QWEN_MCP_PREFIX)) {
    const mcp = mcpCall(name, toolInput);
    if (mcp !== undefined) tool.mcp = mcp;
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

export function adaptQwenInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Qwen Code');
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'Qwen Code hook payload: "hook_event_name" is missing or not a string');
  }
  const trigger = TOOL_TRIGGERS[event];
  return trigger === undefined ? otherEvent(o, event) : toolEvent(o, event, trigger);
}
