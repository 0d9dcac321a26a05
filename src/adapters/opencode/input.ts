/**
 * OpenCode event (as Buckler's plugin sends it) → PolicyInput. `tool.execute.before` and
 * `tool.execute.after` are read strictly (a wrong or missing field is a PolicyError, so the
 * driver denies before an action); any other event name becomes `unknown_harness_event`.
 * `bash` is carried as `shell` (its `workdir` resolved against the directory OpenCode runs in);
 * `read`, `write`, `edit` give `tool.paths` from `filePath`; `glob`, `grep`, `list` from
 * `path`; `apply_patch` from its patch headers; a non-built-in name with an underscore is an
 * MCP tool (`<server>_<tool>`).
 */
import { POLICY_IO_VERSION, PolicyError, type PolicyInput, type SessionInfo, type ToolInfo, type Trigger } from '../../core/contract.ts';
import { patchToolPaths } from '../patch-paths.ts';
import { isObject, lenientString, optNonEmpty, optObject, optString, payloadObject, refuseUnknownToolCall, reqString, type JsonObject } from '../payload.ts';
import {
  OPENCODE_BUILTIN_TOOLS,
  OPENCODE_EVENTS,
  OPENCODE_FILE_TOOLS,
  OPENCODE_PATCH_KEY,
  OPENCODE_PATCH_TOOL,
  OPENCODE_SEARCH_TOOLS,
  OPENCODE_SHELL_TOOL,
} from './types.ts';

function isAbsolute(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}

/** `dir` resolved against `base` (plain cases, not normalised), or undefined. */
function resolveDir(base: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined) return base;
  if (isAbsolute(dir)) return dir;
  if (base === undefined) return undefined;
  if (dir === '.' || dir === './') return base;
  return `${base.replace(/[\\/]+$/, '')}/${dir}`;
}

/** The project root: OpenCode's `worktree`, unless it is `/` (a folder outside git), then `directory`. */
function sessionOf(o: JsonObject, where: string, directory: string | undefined): SessionInfo {
  const s: SessionInfo = {};
  const id = optString(o, 'sessionID', where);
  if (id !== undefined && id !== '') s.conversation_id = id;
  const worktree = optNonEmpty(o, 'worktree', where);
  const root = worktree !== undefined && worktree !== '/' ? worktree : directory;
  if (root !== undefined) s.workspace_roots = [root];
  return s;
}

function base(event: string, trigger: Trigger, s: SessionInfo): PolicyInput {
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger, harness: 'opencode', event };
  if (Object.keys(s).length > 0) input.session = s;
  return input;
}

/** `<server>_<tool>`: split at the first underscore (OpenCode joins the sanitised names with one). */
function mcpOf(name: string, args: JsonObject): ToolInfo['mcp'] {
  if (OPENCODE_BUILTIN_TOOLS.has(name)) return undefined;
  const cut = name.indexOf('_');
  if (cut <= 0 || cut === name.length - 1) return undefined;
  return { server: name.slice(0, cut), tool: name.slice(cut + 1), arguments: args };
}

function pathArg(args: JsonObject, key: string, w: string, required: boolean): string | undefined {
  const p = required ? reqString(args, key, w) : optString(args, key, w);
  if (p === '') throw new PolicyError('bad_payload', `${w}: "${key}" is empty`);
  return p;
}

function toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput {
  const where = `OpenCode ${event}`;
  const directory = optNonEmpty(o, 'directory', where);
  const input = base(event, trigger, sessionOf(o, where, directory));
  if (directory !== undefined) input.context = { cwd: directory };
  const name = reqString(o, 'tool', where);
  if (name === '') throw new PolicyError('bad_payload', `${where}: "tool" is empty`);
  const args = optObject(o, 'args', where);
  if (args === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "args" object`);
  const tool: ToolInfo = { name, input: args };
  input.tool = tool;
  const w = `${where} ${name} args`;
  const file = OPENCODE_FILE_TOOLS.get(name);
  if (name === OPENCODE_SHELL_TOOL) {
    const command = reqString(args, 'command', w);
    const cwd = resolveDir(directory, optNonEmpty(args, 'workdir', w));
    input.shell = cwd === undefined ? { command } : { command, cwd };
  } else if (file !== undefined) {
    tool.paths = [{ path: pathArg(args, file.key, w, true) as string, access: file.access }];
  } else if ((OPENCODE_SEARCH_TOOLS as readonly string[]).includes(name)) {
    const p = pathArg(args, 'path', w, false);
    if (p !== undefined) tool.paths = [{ path: p, access: 'read' }];
  } else if (name === OPENCODE_PATCH_TOOL) {
    const paths = patchToolPaths(reqString(args, OPENCODE_PATCH_KEY, w));
    if (paths.length === 0) throw new PolicyError('bad_payload', `${w}: the patch names no file (no "*** Add/Update/Delete File:" header)`);
    tool.paths = paths;
  } else {
    const mcp = mcpOf(name, args);
    if (mcp !== undefined) tool.mcp = mcp;
  }
  return input;
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(o: JsonObject, event: string): PolicyInput {
  const s: SessionInfo = {};
  const id = lenientString(o, 'sessionID');
  if (id !== undefined) s.conversation_id = id;
  const input = base(event, 'unknown_harness_event', s);
  const name = lenientString(o, 'tool');
  if (name !== undefined) input.tool = isObject(o.args) ? { name, input: o.args } : { name };
  return refuseUnknownToolCall('OpenCode', OPENCODE_EVENTS, o, input);
}

/** Whether the shell exit code the plugin passed on says the call failed. */
function failed(o: JsonObject, where: string): boolean {
  const v = o.exit;
  if (v === undefined || v === null) return false;
  if (typeof v !== 'number') throw new PolicyError('bad_payload', `${where}: "exit" must be a number`);
  return v !== 0;
}

export function adaptOpencodeInput(raw: unknown): PolicyInput {
  const o = payloadObject(raw, 'OpenCode');
  const event = o.hook_event_name;
  if (typeof event !== 'string' || event === '') {
    throw new PolicyError('bad_payload', 'OpenCode hook payload: "hook_event_name" is missing or not a string');
  }
  if (event === 'tool.execute.before') return toolEvent(o, event, 'pre_shell_tool');
  if (event === 'tool.execute.after') {
    return toolEvent(o, event, failed(o, `OpenCode ${event}`) ? 'post_tool_failure' : 'post_tool_success');
  }
  return otherEvent(o, event);
}
