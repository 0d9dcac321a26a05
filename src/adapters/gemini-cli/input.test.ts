import { describe, expect, it } from 'vitest';
import { PolicyError } from '../../core/contract.ts';
import { readFixture } from '../testing.ts';
import { adaptGeminiInput } from './input.ts';

const common = { session_id: 's-1', transcript_path: '', cwd: '/proj', timestamp: '2026-12-01T13:47:59.527Z' };
const ev = (hook_event_name: string, fields: Record<string, unknown>) => ({ ...common, hook_event_name, ...fields });

describe('Gemini CLI input: events Buckler gates', () => {
  const cases: { name: string; raw: unknown; want: Record<string, unknown> }[] = [
    {
      name: 'BeforeTool run_shell_command → pre_shell_tool, cwd = the project',
      raw: ev('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'git push -f', description: 'd' } }),
      want: {
        trigger: 'pre_shell_tool',
        shell: { command: 'git push -f', cwd: '/proj' },
        tool: { name: 'run_shell_command', input: { command: 'git push -f', description: 'd' } },
        session: { conversation_id: 's-1', workspace_roots: ['/proj'] },
      },
    },
    {
      name: 'dir_path relative to the project is the command cwd',
      raw: ev('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls', dir_path: 'sub/dir' } }),
      want: { shell: { command: 'ls', cwd: '/proj/sub/dir' } },
    },
    {
      name: 'an absolute dir_path is taken as it is',
      raw: ev('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls', dir_path: '/tmp' } }),
      want: { shell: { command: 'ls', cwd: '/tmp' } },
    },
    {
      name: 'BeforeTool write_file keeps the tool and names the path it writes, no shell',
      raw: ev('BeforeTool', { tool_name: 'write_file', tool_input: { file_path: '/proj/.env', content: 'x' } }),
      want: {
        trigger: 'pre_shell_tool',
        tool: { name: 'write_file', input: { file_path: '/proj/.env', content: 'x' }, paths: [{ path: '/proj/.env', access: 'write' }] },
        shell: undefined,
      },
    },
    {
      name: 'read_file reads, list_directory looks at metadata',
      raw: ev('BeforeTool', { tool_name: 'read_file', tool_input: { file_path: '.env' } }),
      want: { tool: { name: 'read_file', input: { file_path: '.env' }, paths: [{ path: '.env', access: 'read' }] } },
    },
    {
      name: 'BeforeTool of an MCP tool keeps its qualified name; mcp_context names server and tool',
      raw: ev('BeforeTool', { tool_name: 'mcp_my_pg_sql', tool_input: { query: 'x' }, mcp_context: { server_name: 'my_pg', tool_name: 'sql' } }),
      want: {
        trigger: 'pre_shell_tool',
        tool: { name: 'mcp_my_pg_sql', input: { query: 'x' }, mcp: { server: 'my_pg', tool: 'sql', arguments: { query: 'x' } } },
      },
    },
    {
      name: 'AfterTool → post_tool_success with the command',
      raw: ev('AfterTool', { tool_name: 'run_shell_command', tool_input: { command: 'git push' }, tool_response: { llmContent: '' } }),
      want: { trigger: 'post_tool_success', shell: { command: 'git push', cwd: '/proj' } },
    },
    {
      name: 'BeforeAgent is not gated',
      raw: ev('BeforeAgent', { prompt: 'hi' }),
      want: { trigger: 'unknown_harness_event', tool: undefined },
    },
  ];
  it.each(cases)('$name', ({ raw, want }) => {
    const got = adaptGeminiInput(raw) as unknown as Record<string, unknown>;
    expect(got.harness).toBe('gemini-cli');
    for (const [k, v] of Object.entries(want)) expect(got[k], k).toEqual(v);
  });

  it('reads the captured force push', () => {
    expect(adaptGeminiInput(readFixture('gemini-cli', 'BeforeTool.input.json')).shell).toEqual({
      command: 'git push --force origin main',
      cwd: '/home/dev/project',
    });
  });

  it.each([
    ['no tool_name', ev('BeforeTool', { tool_input: {} })],
    ['a shell call without a command', ev('BeforeTool', { tool_name: 'run_shell_command', tool_input: { description: 'x' } })],
    ['tool_input that is not an object', ev('BeforeTool', { tool_name: 'write_file', tool_input: 'x' })],
    ['a non-string dir_path', ev('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls', dir_path: 3 } })],
  ])('%s → PolicyError', (_n, raw) => {
    expect(() => adaptGeminiInput(raw)).toThrow(PolicyError);
  });
});
