/**
 * Copilot CLI native event → PolicyInput. The event name is `hookName` (sent by Copilot on
 * permissionRequest, added by the driver from `--event` on the others). preToolUse,
 * postToolUse and postToolUseFailure are read strictly; every other event becomes
 * `unknown_harness_event`, read leniently. Every tool is carried as `tool` with Copilot's name
 * (`bash`, `create`, `edit`, `view`, MCP tools, …); a shell call also as `shell`, and a file
 * or patch tool gets `tool.paths` from its arguments.
 */
import { PolicyError, type Access, type PolicyInput, type ToolPath, type Trigger } from '../../core/contract.ts';
import { patchToolPaths } from '../patch-paths.ts';
import { baseInput, isObject, lenientString, optNonEmpty, optString, payloadObject, refuseUnknownToolCall, reqString, sessionOf, type JsonObject } from '../payload.ts';
import { COPILOT_EVENT_FIELD, COPILOT_EVENTS, COPILOT_PATCH_TOOL, COPILOT_SHELL_TOOLS } from './types.ts';

const TOOL_TRIGGERS: Readonly<Record<string, Trigger>> = {
  preToolUse: 'pre_shell_tool',
  postToolUse: 'post_tool_success',
  postToolUseFailure: 'post_tool_failure',
};

/**
 * `toolArgs` is an object in 1.0.102; earlier versions sent it JSON-encoded. A string that is
 * not JSON stays a string (a freeform tool's text, such as a patch); a shell call then fails
 * for want of an object.
 */
function toolArgsOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** File tools (cli-main.js tool schemas): the `path` argument and how the tool uses it. */
const FILE_TOOLS: Readonly<Record<string, Access>> = { view: 'read', create: 'write', edit: 'write', str_replace: 'write' };
/** `str_replace_editor` names its action in `command`. */
const EDITOR_COMMANDS: Readonly<Record<string, Access>> = { view: 'read', create: 'write', str_replace: 'write', insert: 'write' };

function filePaths(name: string, args: unknown): ToolPath[] | undefined {
  if (!isObject(args) || typeof args.path !== 'string' || args.path === '') return undefined;
  const access = name === 'str_replace_editor' ? EDITOR_COMMANDS[String(args.command)] : FILE_TOOLS[name];
  return access === undefined ? undefined : [{ path: args.path, access }];
}

/** The patch text of an `apply_patch` call, when its arguments carry one as text. */
function patchText(args: unknown): string | undefined {
  if (typeof args === 'string') return args;
  if (!isObject(args)) return undefined;
  for (const k of ['input', 'patch', 'command']) if (typeof args[k] === 'string') return args[k] as string;
  return undefined;
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `Copilot CLI ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = baseInput('copilot-cli', event, trigger, sessionOf(optString(o, 'sessionId', where), cwd));
  const name = reqString(o, 'toolName', where);
  const args = o.toolArgs === undefined || o.toolArgs === null ? undefined : toolArgsOf(o.toolArgs);
  input.tool = args === undefined ? { name } : { name, input: args };
  if (COPILOT_SHELL_TOOLS.includes(name)) {
    if (!isObject(args)) throw new PolicyError('bad_payload', `${where}: the ${name} call has no "toolArgs" object`);
    const command = reqString(args, 'command', `${where} ${name} toolArgs`);
    input.shell = cwd === undefined ? { command } : { command, cwd };
  } else if (name === COPILOT_PATCH_TOOL) {
    const patch = patchText(args);
    if (patch !== undefined) input.tool.paths = patchToolPaths(patch);
  } else {
    const paths = filePaths(name, args);
    if (paths !== undefined) input.tool.paths = paths;
  }
  return input;
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(o: JsonObject, event: string): PolicyInput {
  const input = baseInput('copilot-cli', event, 'unknown_harness_event', sessionOf(lenientString(o, 'sessionId'), lenientString(o, 'cwd')));
  const toolName = lenientString(o, 'toolName');
  // toolArgs comes as a JSON text on preToolUse: read the same way here.
  const text = typeof o.toolArgs === 'string' ? toolArgsOf(o.toolArgs) : undefined;
  const args = isObject(o.toolInput) ? o.toolInput : isObject(o.toolArgs) ? o.toolArgs : isObject(text) ? text : undefined;
  if (toolName !== undefined) input.tool = args === undefined ? { name: toolName } : { name: toolName, input: args };
  return refuseUnknownToolCall('Copilot CLI', COPILOT_EVENTS, o, input);
}

export function adaptCopilotInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'Copilot CLI');
  const event = o[COPILOT_EVENT_FIELD];
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError(
      'bad_payload',
      `Copilot CLI hook payload: no event name (Copilot names only permissionRequest; the hook command must pass --event)`,
    );
  }
  const trigger = TOOL_TRIGGERS[event];
  return trigger === undefined ? otherEvent(o, event) : toolEvent(o, event, trigger);
}
