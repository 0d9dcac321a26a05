/**
 * What the Claude-shaped hook protocols share: Claude Code, Codex, Gemini CLI, Factory Droid
 * and Qwen Code all send one JSON object naming its event in `hook_event_name`, with
 * `session_id`, `cwd`, `tool_name` and `tool_input`, and read a reply built from
 * `hookSpecificOutput` and `systemMessage`. Each harness folder configures these pieces with
 * its own differences (event names, tool names, reply shapes) and stays the one place that
 * implements the adapter contract for that harness.
 */
import { PolicyError, type Access, type McpCall, type PolicyInput, type PolicyOutput, type ToolInfo, type Trigger } from '../core/contract.ts';
import type { NativeReply } from './adapter.ts';
import { patchToolPaths } from './patch-paths.ts';
import { baseInput, eventNameOf, isObject, lenientString, optNonEmpty, optObject, optString, payloadObject, refuseUnknownToolCall, reqString, sessionOf, type JsonObject } from './payload.ts';
import { agentMessage, askAsDeny, contextText, personMessage } from './reply.ts';

// ---------------------------------------------------------------------------------------------
// Native event → PolicyInput

/** How one harness reads its events. */
export interface HookInputSpec {
  /** Kebab-case harness name (`PolicyInput.harness`). */
  harness: string;
  /** Human name, for messages (`Qwen Code`). */
  title: string;
  /** The events read strictly, and their triggers; every other event is `unknown_harness_event`. */
  triggers: Readonly<Record<string, Trigger>>;
  /**
   * Every event name the harness's release sends (types.ts): another name carrying a tool call
   * and no result is refused as `unknown_event` (payload.ts refuseUnknownToolCall).
   */
  events: readonly string[];
  /** Reads an event of `triggers` (throws PolicyError on a field of the wrong type). */
  toolEvent(o: JsonObject, event: string, trigger: Trigger): PolicyInput;
  /** Whether the session carries the payload's `model` (Codex). */
  model?: boolean;
}

/** Events Buckler does not gate: carried for user rules on `unknown_harness_event`, never judged. */
function otherEvent(spec: HookInputSpec, o: JsonObject, event: string): PolicyInput {
  const model = spec.model === true ? lenientString(o, 'model') : undefined;
  const s = sessionOf(lenientString(o, 'session_id'), lenientString(o, 'cwd'), model);
  const input = baseInput(spec.harness, event, 'unknown_harness_event', s);
  const toolName = lenientString(o, 'tool_name');
  if (toolName !== undefined) input.tool = isObject(o.tool_input) ? { name: toolName, input: o.tool_input } : { name: toolName };
  return refuseUnknownToolCall(spec.title, spec.events, o, input);
}

/** The adapter's `adaptInput` for a harness that names the event in `hook_event_name`. */
export function hookInputReader(spec: HookInputSpec): (raw: unknown) => PolicyInput {
  return (raw) => {
    const o = payloadObject(raw, spec.title);
    const event = o.hook_event_name;
    if (typeof event !== 'string' || event === '') {
      throw new PolicyError('bad_payload', `${spec.title} hook payload: "hook_event_name" is missing or not a string`);
    }
    const trigger = spec.triggers[event];
    return trigger === undefined ? otherEvent(spec, o, event) : spec.toolEvent(o, event, trigger);
  };
}

/** A tool event read up to its tool: the input so far, and what the harness-specific part needs. */
export interface ToolCall {
  input: PolicyInput;
  tool: ToolInfo;
  name: string;
  toolInput: JsonObject | undefined;
  cwd: string | undefined;
  /** Where a field error is (`Qwen Code PreToolUse`). */
  where: string;
  /** Where a `tool_input` field error is (`Qwen Code PreToolUse Bash tool_input`). */
  w: string;
}

/**
 * The common part of a tool event: session, `cwd` (also as `context.cwd` when `contextCwd`),
 * `tool_name` and `tool_input` (an object when present), read strictly.
 */
export function readToolCall(spec: HookInputSpec, o: JsonObject, event: string, trigger: Trigger, contextCwd: boolean): ToolCall {
  const where = `${spec.title} ${event}`;
  const cwd = optNonEmpty(o, 'cwd', where);
  const input = baseInput(spec.harness, event, trigger, sessionOf(optString(o, 'session_id', where), cwd));
  if (contextCwd && cwd !== undefined) input.context = { cwd };
  const name = reqString(o, 'tool_name', where);
  const toolInput = optObject(o, 'tool_input', where);
  const tool: ToolInfo = toolInput === undefined ? { name } : { name, input: toolInput };
  input.tool = tool;
  return { input, tool, name, toolInput, cwd, where, w: `${where} ${name} tool_input` };
}

/** The call's `tool_input`, which a shell, file or patch tool cannot do without. */
export function needInput(call: ToolCall): JsonObject {
  if (call.toolInput === undefined) throw new PolicyError('bad_payload', `${call.where}: the ${call.name} tool call has no "tool_input" object`);
  return call.toolInput;
}

const MCP_PREFIX = 'mcp__';

/**
 * An MCP tool call from its Claude-style name `mcp__<server>__<tool>`, split at the first `__`
 * after the prefix (a tool name may hold `__`; a server name that holds `__` reads the same
 * ambiguous way in Claude Code's own permission rules). Undefined when it is not one.
 */
export function mcpCall(name: string, args: unknown): McpCall | undefined {
  if (!name.startsWith(MCP_PREFIX)) return undefined;
  const rest = name.slice(MCP_PREFIX.length);
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut + 2 >= rest.length) return undefined;
  const call: McpCall = { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
  if (args !== undefined && args !== null) call.arguments = args;
  return call;
}

/** A shell's working directory: `dir` resolved against the project (`path.resolve` for the plain cases, not normalised). */
export function shellCwd(projectDir: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined) return projectDir;
  if (dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir)) return dir;
  if (projectDir === undefined) return undefined;
  if (dir === '.' || dir === './') return projectDir;
  return `${projectDir.replace(/[\\/]+$/, '')}/${dir}`;
}

/** The tools of a harness whose tool calls are read the Claude way (Factory Droid, Qwen Code). */
export interface ToolNames {
  /** Shell tools: `tool_input.command`. */
  shell: readonly string[];
  /** The `tool_input` key of a directory the shell runs in, relative to the project. */
  shellDir?: string;
  /** The patch tool, and the `tool_input` keys that may carry its text (first non-blank wins). */
  patch?: { tool: string; keys: readonly string[] };
  /** File tools, and how they touch the file their arguments name. */
  files: ReadonlyMap<string, Access>;
  /** The argument naming a file when `file_path` is absent (`path`, `absolute_path`). */
  fileKey: string;
}

/** Adds what a tool call does (`shell`, `tool.paths`, `tool.mcp`) to the input, by the tool's name. */
export function readTool(call: ToolCall, names: ToolNames): void {
  const { name, tool, w } = call;
  const access = names.files.get(name);
  if (names.shell.includes(name)) {
    const args = needInput(call);
    const command = reqString(args, 'command', w);
    const dir = names.shellDir === undefined ? call.cwd : shellCwd(call.cwd, optNonEmpty(args, names.shellDir, w));
    call.input.shell = dir === undefined ? { command } : { command, cwd: dir };
  } else if (names.patch !== undefined && name === names.patch.tool) {
    const paths = patchToolPaths(patchText(needInput(call), names.patch.keys, call));
    if (paths.length === 0) throw new PolicyError('bad_payload', `${w}: the patch names no file (no "*** Add/Update/Delete File:" header)`);
    tool.paths = paths;
  } else if (access !== undefined) {
    const args = needInput(call);
    const path = optString(args, 'file_path', w) ?? reqString(args, names.fileKey, w);
    if (path === '') throw new PolicyError('bad_payload', `${w}: the file path is empty`);
    tool.paths = [{ path, access }];
  } else {
    const mcp = mcpCall(name, call.toolInput);
    if (mcp !== undefined) tool.mcp = mcp;
  }
}

function patchText(toolInput: JsonObject, keys: readonly string[], call: ToolCall): string {
  for (const k of keys) {
    const v = toolInput[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  throw new PolicyError('bad_payload', `${call.w}: the ${call.name} tool call carries no patch text (looked for ${keys.join(', ')})`);
}

// ---------------------------------------------------------------------------------------------
// PolicyOutput → native reply

/** How one harness's events map to reply shapes. */
export interface ShapeSpec<S extends string> {
  /** Every event the harness sends. */
  events: readonly string[];
  /** The shape of each event Buckler answers; any other known event is `none`. */
  shapes: Readonly<Partial<Record<string, S>>>;
  /** The event and shape to answer a payload with no readable event name: the one gated before an action. */
  unreadable: { event: string; shape: S };
  /** The shape of an event newer than the protocol read; absent: answered as `unreadable`. */
  unknown?: S;
}

/** The event a payload names, and the shape of reply it takes. */
export function eventShape<S extends string>(raw: unknown, spec: ShapeSpec<S>): { event: string; shape: S | 'none' } {
  const event = eventNameOf(raw, 'hook_event_name');
  if (event === undefined) return spec.unreadable;
  if (!spec.events.includes(event)) return spec.unknown === undefined ? spec.unreadable : { event, shape: spec.unknown };
  return { event, shape: spec.shapes[event] ?? 'none' };
}

/** The deny messages for the person and the agent; an ask becomes a deny that says how to let it through. */
export function denial(output: PolicyOutput, title: string): { person: string; agent: string } | null {
  if (output.decision === 'ask') return askAsDeny(output, title);
  if (output.decision === 'deny') return { person: personMessage(output), agent: agentMessage(output) };
  return null;
}

/** Text for the model beside the event's result (`additionalContext`), or nothing. */
export function contextReply(event: string, text: string | null | undefined): Record<string, unknown> | null {
  return text ? { hookSpecificOutput: { hookEventName: event, additionalContext: text } } : null;
}

/**
 * A PreToolUse reply for a harness that cannot ask: a deny (an ask sent as one) refuses the one
 * call with `permissionDecision: "deny"`, the agent's reason and a `systemMessage` for the
 * person; a nudge adds context; anything else says nothing.
 */
export function preToolUseReply(output: PolicyOutput, title: string): Record<string, unknown> | null {
  const denied = denial(output, title);
  if (denied !== null) {
    return {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: denied.agent },
      systemMessage: denied.person,
    };
  }
  return output.decision === 'nudge' ? contextReply('PreToolUse', output.additional_context) : null;
}

/** The shapes of a harness that gates PreToolUse and only adds context after a tool (Factory Droid, Qwen Code). */
export type ToolShape = 'tool' | 'context';

/**
 * `adaptOutput` and `isBeforeAction` for a harness whose replies are PreToolUse denies and
 * context after a tool; an unreadable or unknown event is answered as a PreToolUse.
 */
export function toolReplies(
  title: string,
  events: readonly string[],
  shapes: Readonly<Partial<Record<string, ToolShape>>>,
): { adaptOutput(output: PolicyOutput, raw: unknown): NativeReply; isBeforeAction(raw: unknown): boolean } {
  const spec: ShapeSpec<ToolShape> = { events, shapes, unreadable: { event: 'PreToolUse', shape: 'tool' } };
  return {
    adaptOutput(output, raw) {
      const { event, shape } = eventShape(raw, spec);
      const stdout = shape === 'tool' ? preToolUseReply(output, title) : shape === 'context' ? contextReply(event, contextText(output)) : null;
      return { stdout, exitCode: 0 };
    },
    isBeforeAction: (raw) => eventShape(raw, spec).shape === 'tool',
  };
}

/** Whether a reply's `hookSpecificOutput.permissionDecision` is `deny`. */
export function deniesPermission(reply: NativeReply): boolean {
  const specific = reply.stdout?.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific === 'object' && specific !== null && specific.permissionDecision === 'deny';
}
