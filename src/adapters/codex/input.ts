/**
 * Codex event → PolicyInput. PreToolUse and PostToolUse are read strictly (a wrong or missing
 * field is a PolicyError); every other event becomes `unknown_harness_event`, read leniently.
 * Every tool Codex reports is carried as `tool` (shell `Bash`, file edits `apply_patch`, MCP
 * `mcp__<server>__<tool>`, …); a Bash call also as `shell`, an `apply_patch` call gets
 * `tool.paths` from its patch headers, and an MCP call `tool.mcp`. Unlike the other
 * Claude-shaped harnesses (../claude-shaped.ts), the session carries the `model`, and a tool's
 * `tool_input` is carried whatever its type.
 */
import { PolicyError, type PolicyInput, type ToolPath } from '../../core/contract.ts';
import { hookInputReader, mcpCall, type HookInputSpec } from '../claude-shaped.ts';
import { patchToolPaths } from '../patch-paths.ts';
import { baseInput, isObject, optNonEmpty, optString, reqString, sessionOf } from '../payload.ts';
import { CODEX_EVENTS, CODEX_PATCH_TOOL, CODEX_SHELL_TOOL } from './types.ts';

/**
 * Codex runs a shell call that invokes `apply_patch`/`applypatch` (`apply_patch <<'EOF' …`,
 * optionally after `cd DIR &&`) as its own file-edit tool, after the hook saw it as `Bash`
 * (openai/codex `maybe_parse_apply_patch`; seen in 0.169.0: such a call rewrote `hooks.json`).
 * The shell reading of the command knows no `apply_patch` program, so the files its patch
 * names are carried as `tool.paths`, relative ones under the `cd` folder when there is one.
 */
const SHELL_PATCH = /^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s&;|]+)\s*&&\s*)?(?:apply_patch|applypatch)\b/;

function shellPatchPaths(command: string): ToolPath[] {
  const m = SHELL_PATCH.exec(command);
  if (m === null || !command.includes('*** Begin Patch')) return [];
  const dir = m[1]?.replace(/^(['"])(.*)\1$/, '$2');
  return patchToolPaths(command).map((p) =>
    dir === undefined || p.path.startsWith('/') || p.path.startsWith('~') ? p : { ...p, path: `${dir.replace(/\/+$/, '')}/${p.path}` },
  );
}

const SPEC: HookInputSpec = {
  harness: 'codex',
  title: 'Codex',
  events: CODEX_EVENTS,
  model: true,
  triggers: {
    PreToolUse: 'pre_shell_tool',
    // Codex fires PostToolUse for failed commands too (no separate failure event).
    PostToolUse: 'post_tool_success',
  },
  toolEvent(o, event, trigger) {
    const where = `Codex ${event}`;
    const cwd = optNonEmpty(o, 'cwd', where);
    const input = baseInput('codex', event, trigger, sessionOf(optString(o, 'session_id', where), cwd, optString(o, 'model', where)));
    const name = reqString(o, 'tool_name', where);
    const raw = o.tool_input;
    if (name === CODEX_SHELL_TOOL || name === CODEX_PATCH_TOOL) {
      if (!isObject(raw)) throw new PolicyError('bad_payload', `${where}: the ${name} tool call has no "tool_input" object`);
      const command = reqString(raw, 'command', `${where} ${name} tool_input`);
      input.tool = { name, input: raw };
      if (name === CODEX_SHELL_TOOL) {
        input.shell = cwd === undefined ? { command } : { command, cwd };
        const patched = shellPatchPaths(command);
        if (patched.length > 0) input.tool.paths = patched;
      } else input.tool.paths = patchToolPaths(command);
      return input;
    }
    input.tool = raw === undefined || raw === null ? { name } : { name, input: raw };
    const mcp = mcpCall(name, raw);
    if (mcp !== undefined) input.tool.mcp = mcp;
    return input;
  },
};

export const adaptCodexInput: (raw: unknown) => PolicyInput = hookInputReader(SPEC);
