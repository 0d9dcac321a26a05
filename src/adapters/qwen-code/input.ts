/**
 * Qwen Code event → PolicyInput. PreToolUse, PostToolUse and PostToolUseFailure are read
 * strictly (a wrong or missing field is a PolicyError, so the driver denies before an action);
 * every other event becomes `unknown_harness_event`, read leniently. The shell tool
 * (`run_shell_command`, or `Bash`) is carried as `shell`, its `directory` resolved against the
 * project; the file tools (`write_file`, `edit`, `read_file`) give `tool.paths` from `file_path`;
 * `mcp__<server>__<tool>` gives `tool.mcp`. The reading itself is the Claude-shaped one
 * (../claude-shaped.ts), configured here.
 */
import type { PolicyInput } from '../../core/contract.ts';
import { hookInputReader, readTool, readToolCall, type HookInputSpec, type ToolNames } from '../claude-shaped.ts';
import { QWEN_EVENTS, QWEN_FILE_TOOLS, QWEN_SHELL_TOOLS } from './types.ts';

const TOOLS: ToolNames = {
  shell: QWEN_SHELL_TOOLS,
  // `directory` runs the command elsewhere than the project root (relative to it).
  shellDir: 'directory',
  files: QWEN_FILE_TOOLS,
  fileKey: 'absolute_path',
};

const SPEC: HookInputSpec = {
  harness: 'qwen-code',
  title: 'Qwen Code',
  events: QWEN_EVENTS,
  triggers: { PreToolUse: 'pre_shell_tool', PostToolUse: 'post_tool_success', PostToolUseFailure: 'post_tool_failure' },
  toolEvent(o, event, trigger) {
    const call = readToolCall(SPEC, o, event, trigger, true);
    readTool(call, TOOLS);
    return call.input;
  },
};

export const adaptQwenInput: (raw: unknown) => PolicyInput = hookInputReader(SPEC);
