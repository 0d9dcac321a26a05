/**
 * Gemini CLI event → PolicyInput. BeforeTool and AfterTool are read strictly (a wrong or
 * missing field is a PolicyError); every other event becomes `unknown_harness_event`, read
 * leniently. Every tool is carried as `tool` with Gemini's own name (`run_shell_command`,
 * `write_file`, `replace`, `read_file`, `mcp_<server>_<tool>`, …); a shell call also as `shell`,
 * its working directory being `tool_input.dir_path` resolved against the project (`cwd`).
 */
import { POLICY_IO_VERSION, PolicyError, type PolicyInput, type SessionInfo, type Trigger } from '../../core/contract.ts';
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

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Gemini CLI ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = base(event, trigger, sessionOf(optString(o, 'session_id', where), cwd));
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  input.tool = toolInput === undefined ? { name } : { name, input: toolInput };
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
