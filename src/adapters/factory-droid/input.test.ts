import { describe, expect, it } from 'vitest';
import { PolicyError } from '../../core/contract.ts';
import { adaptDroidInput } from './input.ts';

const base = { session_id: 's', transcript_path: '/t', cwd: '/p', permission_mode: 'default', hook_event_name: 'PreToolUse' };
const pre = (tool_name: string, tool_input: unknown) => ({ ...base, tool_name, tool_input });

describe('factory-droid input', () => {
  it('reads Execute as a shell command in cwd', () => {
    const input = adaptDroidInput(pre('Execute', { command: 'git push --force' }));
    expect(input).toMatchObject({ trigger: 'pre_shell_tool', harness: 'factory-droid', shell: { command: 'git push --force', cwd: '/p' } });
    expect(input.session).toEqual({ conversation_id: 's', workspace_roots: ['/p'] });
  });

  it.each([
    ['Create', { file_path: '/p/.env', content: 'x' }, [{ path: '/p/.env', access: 'write' }]],
    ['Edit', { file_path: 'a.ts', old_str: 'a', new_str: 'b' }, [{ path: 'a.ts', access: 'write' }]],
    ['Read', { file_path: '/p/.env' }, [{ path: '/p/.env', access: 'read' }]],
    ['Read', { path: 'b.ts' }, [{ path: 'b.ts', access: 'read' }]],
    [
      'ApplyPatch',
      { input: '*** Begin Patch\n*** Update File: a.ts\n@@\n+*** Add File: fake\n*** Delete File: b.ts\n*** End Patch' },
      [
        { path: 'a.ts', access: 'write' },
        { path: 'b.ts', access: 'delete' },
      ],
    ],
  ])('%s %j gives tool.paths %j', (tool, args, paths) => {
    expect(adaptDroidInput(pre(tool, args)).tool?.paths).toEqual(paths);
  });

  it('splits MCP tool names', () => {
    expect(adaptDroidInput(pre('mcp__pg__run', { sql: 'x' })).tool?.mcp).toEqual({ server: 'pg', tool: 'run', arguments: { sql: 'x' } });
  });

  it.each([
    ['Execute without command', pre('Execute', {})],
    ['Execute without tool_input', { ...base, tool_name: 'Execute' }],
    ['Create without a path', pre('Create', { content: 'x' })],
    ['ApplyPatch without patch text', pre('ApplyPatch', { foo: 1 })],
    ['ApplyPatch naming no file', pre('ApplyPatch', { input: '*** Begin Patch\n*** End Patch' })],
    ['no tool_name', base],
  ])('%s is a PolicyError (denied before the action)', (_n, raw) => {
    expect(() => adaptDroidInput(raw)).toThrow(PolicyError);
  });

  it('PostToolUse is after the action; other events are unknown_harness_event', () => {
    expect(adaptDroidInput({ ...pre('Execute', { command: 'ls' }), hook_event_name: 'PostToolUse' }).trigger).toBe('post_tool_success');
    expect(adaptDroidInput({ hook_event_name: 'Stop', session_id: 's' }).trigger).toBe('unknown_harness_event');
  });
});
