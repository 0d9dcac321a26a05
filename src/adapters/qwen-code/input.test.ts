import { describe, expect, it } from 'vitest';
import { PolicyError } from '../../core/contract.ts';
import { adaptQwenInput } from './input.ts';

const base = { session_id: 's', transcript_path: '/t', cwd: '/p', timestamp: 't', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_use_id: 'u' };
const pre = (tool_name: string, tool_input: unknown) => ({ ...base, tool_name, tool_input });

describe('qwen-code input', () => {
  it.each([
    ['run_shell_command', { command: 'git push -f', is_background: false }, '/p'],
    ['Bash', { command: 'git push -f' }, '/p'],
    ['run_shell_command', { command: 'git push -f', directory: 'sub' }, '/p/sub'],
    ['run_shell_command', { command: 'git push -f', directory: '/abs' }, '/abs'],
  ])('reads %s %j as a shell command in %s', (tool, args, cwd) => {
    expect(adaptQwenInput(pre(tool, args))).toMatchObject({ trigger: 'pre_shell_tool', harness: 'qwen-code', shell: { command: 'git push -f', cwd } });
  });

  it.each([
    ['write_file', { file_path: '/p/.env', content: 'x' }, 'write'],
    ['edit', { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' }, 'write'],
    ['replace', { file_path: '/p/a.ts' }, 'write'],
    ['read_file', { file_path: '/p/.env' }, 'read'],
    ['read_file', { absolute_path: '/p/.env' }, 'read'],
  ])('%s %j is a %s of its file', (tool, args, access) => {
    const path = (args as Record<string, string>).file_path ?? (args as Record<string, string>).absolute_path;
    expect(adaptQwenInput(pre(tool, args)).tool?.paths).toEqual([{ path, access }]);
  });

  it('splits MCP tool names', () => {
    expect(adaptQwenInput(pre('mcp__gh__merge', {})).tool?.mcp).toEqual({ server: 'gh', tool: 'merge', arguments: {} });
  });

  it.each([
    ['shell without command', pre('run_shell_command', { is_background: false })],
    ['write_file without a path', pre('write_file', { content: 'x' })],
    ['no tool_input on the shell', { ...base, tool_name: 'run_shell_command' }],
  ])('%s is a PolicyError (denied before the action)', (_n, raw) => {
    expect(() => adaptQwenInput(raw)).toThrow(PolicyError);
  });

  it('post events are after the action', () => {
    expect(adaptQwenInput({ ...pre('run_shell_command', { command: 'ls' }), hook_event_name: 'PostToolUseFailure' }).trigger).toBe('post_tool_failure');
    expect(adaptQwenInput({ hook_event_name: 'SessionStart' }).trigger).toBe('unknown_harness_event');
  });
});
