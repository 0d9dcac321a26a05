import { describe, expect, it } from 'vitest';
import { PolicyError } from '../../core/contract.ts';
import { readFixture } from '../testing.ts';
import { adaptCopilotInput } from './input.ts';

const common = { sessionId: 's-1', timestamp: 1796133604311, cwd: '/proj' };
const ev = (hookName: string, fields: Record<string, unknown>) => ({ hookName, ...common, ...fields });
const PATCH = '*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch';

describe('Copilot CLI input (native, event from hookName)', () => {
  const cases: { name: string; raw: unknown; want: Record<string, unknown> }[] = [
    {
      name: 'preToolUse bash → pre_shell_tool with toolArgs.command and the cwd',
      raw: ev('preToolUse', { toolName: 'bash', toolArgs: { command: 'git push -f' } }),
      want: {
        trigger: 'pre_shell_tool',
        shell: { command: 'git push -f', cwd: '/proj' },
        tool: { name: 'bash', input: { command: 'git push -f' } },
        session: { conversation_id: 's-1', workspace_roots: ['/proj'] },
      },
    },
    {
      name: 'toolArgs as a JSON string (earlier versions) is decoded',
      raw: ev('preToolUse', { toolName: 'bash', toolArgs: '{"command":"ls"}' }),
      want: { shell: { command: 'ls', cwd: '/proj' } },
    },
    {
      name: 'a file tool keeps its name and arguments, and names the path it writes',
      raw: ev('preToolUse', { toolName: 'create', toolArgs: { path: '/proj/.env', file_text: 'x' } }),
      want: {
        trigger: 'pre_shell_tool',
        tool: { name: 'create', input: { path: '/proj/.env', file_text: 'x' }, paths: [{ path: '/proj/.env', access: 'write' }] },
        shell: undefined,
      },
    },
    {
      name: 'view reads; str_replace_editor says what it does in `command`',
      raw: ev('preToolUse', { toolName: 'str_replace_editor', toolArgs: { command: 'view', path: '/proj/.env' } }),
      want: { tool: { name: 'str_replace_editor', input: { command: 'view', path: '/proj/.env' }, paths: [{ path: '/proj/.env', access: 'read' }] } },
    },
    {
      name: 'apply_patch with the patch as its argument gets the paths from the headers',
      raw: ev('preToolUse', { toolName: 'apply_patch', toolArgs: PATCH }),
      want: { tool: { name: 'apply_patch', input: PATCH, paths: [{ path: '.env', access: 'write' }] } },
    },
    {
      name: 'postToolUseFailure → post_tool_failure',
      raw: ev('postToolUseFailure', { toolName: 'bash', toolArgs: { command: 'git push' }, error: 'e' }),
      want: { trigger: 'post_tool_failure', shell: { command: 'git push', cwd: '/proj' } },
    },
    {
      name: 'permissionRequest (names itself) is not gated, its tool is carried',
      raw: ev('permissionRequest', { toolName: 'bash', toolInput: { command: 'rm x' }, permissionSuggestions: [] }),
      want: { trigger: 'unknown_harness_event', tool: { name: 'bash', input: { command: 'rm x' } } },
    },
  ];
  it.each(cases)('$name', ({ raw, want }) => {
    const got = adaptCopilotInput(raw) as unknown as Record<string, unknown>;
    expect(got.harness).toBe('copilot-cli');
    for (const [k, v] of Object.entries(want)) expect(got[k], k).toEqual(v);
  });

  it('reads the captured force push', () => {
    expect(adaptCopilotInput(readFixture('copilot-cli', 'preToolUse.input.json')).shell).toEqual({
      command: 'git push --force origin main',
      cwd: '/home/dev/project',
    });
  });

  it.each([
    ['no event name (a hook installed without --event)', { ...common, toolName: 'bash', toolArgs: { command: 'ls' } }],
    ['no toolName', ev('preToolUse', { toolArgs: {} })],
    ['a shell call without a command', ev('preToolUse', { toolName: 'bash', toolArgs: {} })],
    ['toolArgs that is a string but not JSON', ev('preToolUse', { toolName: 'bash', toolArgs: 'ls' })],
  ])('%s → PolicyError', (_n, raw) => {
    expect(() => adaptCopilotInput(raw)).toThrow(PolicyError);
  });
});
