import { describe, expect, it } from 'vitest';
import { PolicyError } from '../../core/contract.ts';
import { adaptOpencodeInput } from './input.ts';

const base = { hook_event_name: 'tool.execute.before', sessionID: 's', callID: 'c', directory: '/p', worktree: '/p' };
const pre = (tool: string, args: unknown) => ({ ...base, tool, args });

describe('opencode input', () => {
  it.each([
    [{ command: 'git push -f' }, '/p'],
    [{ command: 'git push -f', workdir: 'sub' }, '/p/sub'],
    [{ command: 'git push -f', workdir: '/abs' }, '/abs'],
    [{ command: 'git push -f', workdir: '.' }, '/p'],
  ])('reads bash %j as a shell command in %s', (args, cwd) => {
    expect(adaptOpencodeInput(pre('bash', args))).toMatchObject({
      trigger: 'pre_shell_tool',
      harness: 'opencode',
      event: 'tool.execute.before',
      shell: { command: 'git push -f', cwd },
      context: { cwd: '/p' },
      session: { conversation_id: 's', workspace_roots: ['/p'] },
    });
  });

  it.each([
    ['read', { filePath: '/p/.env' }, [{ path: '/p/.env', access: 'read' }]],
    ['write', { filePath: '.env', content: 'x' }, [{ path: '.env', access: 'write' }]],
    ['edit', { filePath: '/p/a.ts', oldString: 'a', newString: 'b' }, [{ path: '/p/a.ts', access: 'write' }]],
    ['glob', { pattern: '**', path: '/p/secrets' }, [{ path: '/p/secrets', access: 'read' }]],
    ['grep', { pattern: 'x' }, undefined],
    [
      'apply_patch',
      { patchText: '*** Begin Patch\n*** Add File: .env\n+K=1\n*** Delete File: a.ts\n*** End Patch' },
      [
        { path: '.env', access: 'write' },
        { path: 'a.ts', access: 'delete' },
      ],
    ],
  ])('%s %j gives tool.paths %j', (tool, args, paths) => {
    expect(adaptOpencodeInput(pre(tool, args)).tool?.paths).toEqual(paths);
  });

  it('reads other names with an underscore as MCP tools, built-in names not', () => {
    expect(adaptOpencodeInput(pre('github_merge_pull_request', { n: 1 })).tool?.mcp).toEqual({ server: 'github', tool: 'merge_pull_request', arguments: { n: 1 } });
    expect(adaptOpencodeInput(pre('apply_patch', { patchText: '*** Add File: a\n+x' })).tool?.mcp).toBeUndefined();
    expect(adaptOpencodeInput(pre('todowrite', {})).tool?.mcp).toBeUndefined();
  });

  it('takes the directory as the project when OpenCode runs outside git (worktree "/")', () => {
    expect(adaptOpencodeInput({ ...pre('bash', { command: 'ls' }), worktree: '/' }).session?.workspace_roots).toEqual(['/p']);
  });

  it.each([
    ['bash without command', pre('bash', { description: 'x' })],
    ['bash with a numeric command', pre('bash', { command: 7 })],
    ['no args', { ...base, tool: 'bash' }],
    ['no tool', { ...base, args: {} }],
    ['read without filePath', pre('read', {})],
    ['write with an empty filePath', pre('write', { filePath: '' })],
    ['a patch without file headers', pre('apply_patch', { patchText: 'nothing' })],
  ])('%s is a PolicyError (denied before the action)', (_n, raw) => {
    expect(() => adaptOpencodeInput(raw)).toThrow(PolicyError);
  });

  it('after: success, or failure when the shell exit code is not 0', () => {
    const after = { ...pre('bash', { command: 'false' }), hook_event_name: 'tool.execute.after' };
    expect(adaptOpencodeInput(after).trigger).toBe('post_tool_success');
    expect(adaptOpencodeInput({ ...after, exit: 0 }).trigger).toBe('post_tool_success');
    expect(adaptOpencodeInput({ ...after, exit: 1 }).trigger).toBe('post_tool_failure');
  });

  it('other events are unknown_harness_event', () => {
    expect(adaptOpencodeInput({ hook_event_name: 'chat.message', tool: 'x' })).toMatchObject({ trigger: 'unknown_harness_event', tool: { name: 'x' } });
  });
});
