/**
 * Factory Droid event → PolicyInput. PreToolUse and PostToolUse are read strictly (a wrong or
 * missing field is a PolicyError, so the driver denies before an action); every other event
 * becomes `unknown_harness_event`, read leniently. The shell tool `Execute` is carried as
 * `shell`; the file tools (`Create`, `Edit`, `Read`, …) give `tool.paths` from `file_path`;
 * `ApplyPatch` gives `tool.paths` from its patch headers; `mcp__<server>__<tool>` gives `tool.mcp`.
 * The reading itself is the Claude-shaped one (../claude-shaped.ts), configured here.
 */
import type { PolicyInput } from '../../core/contract.ts';
import { hookInputReader, readTool, readToolCall, type HookInputSpec, type ToolNames } from '../claude-shaped.ts';
import { DROID_EVENTS, DROID_FILE_TOOLS, DROID_PATCH_KEYS, DROID_PATCH_TOOL, DROID_SHELL_TOOL } from './types.ts';

const TOOLS: ToolNames = {
  shell: [DROID_SHELL_TOOL],
  patch: { tool: DROID_PATCH_TOOL, keys: DROID_PATCH_KEYS },
  files: DROID_FILE_TOOLS,
  fileKey: 'path',
};

const SPEC: HookInputSpec = {
  harness: 'factory-droid',
  title: 'Factory Droid',
  events: DROID_EVENTS,
  triggers: { PreToolUse: 'pre_shell_tool', PostToolUse: 'post_tool_success' },
  toolEvent(o, event, trigger) {
    const call = readToolCall(SPEC, o, event, trigger, true);
    readTool(call, TOOLS);
    return call.input;
  },
};

export const adaptDroidInput: (raw: unknown) => PolicyInput = hookInputReader(SPEC);
