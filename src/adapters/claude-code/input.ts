/**
 * Claude Code event → PolicyInput. The events Buckler gates are read strictly (a wrong or
 * missing field is a PolicyError); every other event becomes `unknown_harness_event`, read
 * leniently.
 */
import { PolicyError, type PolicyInput, type ToolInfo } from '../../core/contract.ts';
import { hookInputReader, mcpCall, readToolCall, type HookInputSpec } from '../claude-shaped.ts';
import { optString, reqString, type JsonObject } from '../payload.ts';
import { CLAUDE_CODE_EVENTS, CLAUDE_CODE_FILE_TOOLS, CLAUDE_CODE_SHELL_TOOLS } from './types.ts';

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

const SPEC: HookInputSpec = {
  harness: 'claude-code',
  title: 'Claude Code',
  events: CLAUDE_CODE_EVENTS,
  triggers: {
    PreToolUse: 'pre_shell_tool',
    PostToolUse: 'post_tool_success',
    PostToolUseFailure: 'post_tool_failure',
    // A shell command embedded in a skill, run without a Bash tool call: gated like one.
    PreSkillShellCommand: 'pre_shell_exec',
  },
  toolEvent(o, event, trigger) {
    const { input, tool, name, toolInput, cwd, where, w } = readToolCall(SPEC, o, event, trigger, true);
    fileToolPaths(tool, toolInput, where);
    // `mcp__<server>__<tool>`, split as Claude Code splits it itself.
    const mcp = mcpCall(name, toolInput);
    if (mcp !== undefined) tool.mcp = mcp;
    if (CLAUDE_CODE_SHELL_TOOLS.includes(name)) {
      if (toolInput === undefined) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "tool_input"`);
      const command = reqString(toolInput, 'command', w);
      input.shell = cwd === undefined ? { command } : { command, cwd };
    }
    return input;
  },
};

export const adaptClaudeCodeInput: (raw: unknown) => PolicyInput = hookInputReader(SPEC);
