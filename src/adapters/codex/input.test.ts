import { describe, expect, it } from 'vitest';
import { PolicyError, type PolicyInput } from '../../core/contract.ts';
import { readFixture } from '../testing.ts';
import { patchToolPaths } from '../patch-paths.ts';
import { adaptCodexInput } from './input.ts';

const common = {
  session_id: 's-1',
  turn_id: 't-1',
  transcript_path: null,
  cwd: '/proj',
  model: 'gpt-5.1-codex',
  permission_mode: 'default',
  tool_use_id: 'call_1',
};
const SESSION = { conversation_id: 's-1', model: 'gpt-5.1-codex', workspace_roots: ['/proj'] };
const ev = (hook_event_name: string, fields: Record<string, unknown>) => ({ ...common, hook_event_name, ...fields });
const PATCH = '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-x\n+y\n*** Delete File: .env\n*** End Patch';

describe('Codex input: events Buckler gates', () => {
  const cases: { name: string; raw: unknown; want: Record<string, unknown> }[] = [
    {
      name: 'PreToolUse Bash → pre_shell_tool with the command and cwd',
      raw: ev('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'git push --force' } }),
      want: { trigger: 'pre_shell_tool', shell: { command: 'git push --force', cwd: '/proj' }, tool: { name: 'Bash', input: { command: 'git push --force' } }, session: SESSION },
    },
    {
      name: 'PreToolUse apply_patch → the tool, with the paths from the patch headers',
      raw: ev('PreToolUse', { tool_name: 'apply_patch', tool_input: { command: PATCH } }),
      want: {
        trigger: 'pre_shell_tool',
        tool: {
          name: 'apply_patch',
          input: { command: PATCH },
          paths: [
            { path: 'src/a.ts', access: 'delete' },
            { path: 'src/b.ts', access: 'write' },
            { path: '.env', access: 'delete' },
          ],
        },
        shell: undefined,
      },
    },
    {
      name: 'PreToolUse of an MCP tool keeps its name and arguments, and names server and tool',
      raw: ev('PreToolUse', { tool_name: 'mcp__pg__run__sql', tool_input: { query: 'x' } }),
      want: {
        trigger: 'pre_shell_tool',
        tool: { name: 'mcp__pg__run__sql', input: { query: 'x' }, mcp: { server: 'pg', tool: 'run__sql', arguments: { query: 'x' } } },
      },
    },
    {
      name: 'PreToolUse of a tool whose input is not an object keeps it as it is',
      raw: ev('PreToolUse', { tool_name: 'web_search', tool_input: 'cats' }),
      want: { trigger: 'pre_shell_tool', tool: { name: 'web_search', input: 'cats' } },
    },
    {
      name: 'PreToolUse Bash that invokes apply_patch (Codex runs it as its edit tool) → the patch paths too',
      raw: ev('PreToolUse', { tool_name: 'Bash', tool_input: { command: `apply_patch <<'EOF'\n${PATCH}\nEOF\n` } }),
      want: {
        trigger: 'pre_shell_tool',
        shell: { command: `apply_patch <<'EOF'\n${PATCH}\nEOF\n`, cwd: '/proj' },
        tool: { name: 'Bash', input: { command: `apply_patch <<'EOF'\n${PATCH}\nEOF\n` }, paths: patchToolPaths(PATCH) },
      },
    },
    {
      name: 'PreToolUse Bash `cd DIR && applypatch` → relative patch paths under DIR',
      raw: ev('PreToolUse', { tool_name: 'Bash', tool_input: { command: "cd '/home/dev/.codex' && applypatch <<'EOF'\n*** Begin Patch\n*** Update File: hooks.json\n@@\n-{\n+{}\n*** End Patch\nEOF" } }),
      want: { tool: { name: 'Bash', input: { command: "cd '/home/dev/.codex' && applypatch <<'EOF'\n*** Begin Patch\n*** Update File: hooks.json\n@@\n-{\n+{}\n*** End Patch\nEOF" }, paths: [{ path: '/home/dev/.codex/hooks.json', access: 'write' }] } },
    },
    {
      name: 'look-alike: a command that only prints patch text carries no paths',
      raw: ev('PreToolUse', { tool_name: 'Bash', tool_input: { command: `cat <<'EOF'\n${PATCH}\nEOF` } }),
      want: { tool: { name: 'Bash', input: { command: `cat <<'EOF'\n${PATCH}\nEOF` } } },
    },
    {
      name: 'PostToolUse Bash → post_tool_success (failed commands too)',
      raw: ev('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'git push' }, tool_response: 'error' }),
      want: { trigger: 'post_tool_success', shell: { command: 'git push', cwd: '/proj' } },
    },
    {
      name: 'PermissionRequest is not gated: unknown_harness_event with its tool',
      raw: ev('PermissionRequest', { tool_name: 'Bash', tool_input: { command: 'rm -rf x' } }),
      want: { trigger: 'unknown_harness_event', tool: { name: 'Bash', input: { command: 'rm -rf x' } }, shell: undefined },
    },
  ];
  it.each(cases)('$name', ({ raw, want }) => {
    const got = adaptCodexInput(raw);
    expect(got.harness).toBe('codex');
    for (const [k, v] of Object.entries(want)) expect(got[k as keyof PolicyInput], k).toEqual(v);
  });

  it('reads the captured force push', () => {
    const got = adaptCodexInput(readFixture('codex', 'PreToolUse.input.json'));
    expect(got.shell).toEqual({ command: 'git push --force origin main', cwd: '/home/dev/project' });
  });
});

describe('Codex input: payloads that are not what the event carries', () => {
  const bad: [string, unknown][] = [
    ['no tool_name', ev('PreToolUse', { tool_input: { command: 'x' } })],
    ['Bash without tool_input', ev('PreToolUse', { tool_name: 'Bash' })],
    ['Bash with a non-string command', ev('PreToolUse', { tool_name: 'Bash', tool_input: { command: ['git'] } })],
    ['apply_patch without the patch', ev('PreToolUse', { tool_name: 'apply_patch', tool_input: {} })],
    ['a cwd that is not a string', { ...ev('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'x' } }), cwd: 3 }],
    ['no event name', { tool_name: 'Bash' }],
  ];
  it.each(bad)('%s → PolicyError', (_n, raw) => {
    expect(() => adaptCodexInput(raw)).toThrow(PolicyError);
  });
});
