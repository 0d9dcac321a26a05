// The hook events the whole-process benchmarks send (bench/run.mjs, bench/compare.mjs): one per
// kind of warm hook worth measuring, as each harness sends it.
import fs from 'node:fs';
import path from 'node:path';

/** Scenario name → [driver, payload]. Writes, under `dir`, a repository whose git config defines an alias. */
export function hookPayloads(dir) {
  const cursorBase = {
    conversation_id: 'c1', generation_id: 'g1', model: 'm', session_id: 'c1', cursor_version: '2.6.14',
    workspace_roots: ['/home/user/project'], user_email: null, transcript_path: null,
  };
  const claudeBase = { session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: '/home/user/project', permission_mode: 'default', hook_event_name: 'PreToolUse' };
  // A repository whose config defines an alias (written as git writes it): the one hook that
  // reads git config (a typical hook reads none).
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n[alias]\n\tpf = push --force\n\tst = status\n');
  return {
    'cursor deny (preToolUse: git push --force)': ['cursor', { ...cursorBase, hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'git push --force origin main', cwd: '/home/user/project' }, tool_use_id: 't1', cwd: '/home/user/project' }],
    'cursor allow (beforeShellExecution: ls -la)': ['cursor', { ...cursorBase, hook_event_name: 'beforeShellExecution', command: 'ls -la', cwd: '/home/user/project', sandbox: false }],
    'cursor deny (beforeShellExecution: git pf, alias in .git/config)': ['cursor', { ...cursorBase, hook_event_name: 'beforeShellExecution', command: 'git pf origin main', cwd: repo, sandbox: false }],
    'claude-code allow (PreToolUse Read: src/app.ts)': ['claude-code', { ...claudeBase, tool_name: 'Read', tool_input: { file_path: '/home/user/project/src/app.ts' }, tool_use_id: 't3' }],
    'cursor allow (beforeReadFile: src/app.ts)': ['cursor', { ...cursorBase, hook_event_name: 'beforeReadFile', file_path: '/home/user/project/src/app.ts', content: 'export const x = 1;\n'.repeat(200), attachments: [] }],
    'claude-code deny (PreToolUse Bash: git commit)': ['claude-code', { ...claudeBase, tool_name: 'Bash', tool_input: { command: 'git add -A && git commit -m wip' }, tool_use_id: 't2' }],
    // File tools fire far more often than shell commands (paths as resources, agent-fs).
    'claude-code allow (PreToolUse Read: src/index.ts)': ['claude-code', { ...claudeBase, tool_name: 'Read', tool_input: { file_path: '/home/user/project/src/index.ts' }, tool_use_id: 't3' }],
    'claude-code allow (PreToolUse Bash: cd build && rm -rf out > /dev/null)': ['claude-code', { ...claudeBase, tool_name: 'Bash', tool_input: { command: 'cd build && rm -rf out > /dev/null' }, tool_use_id: 't4' }],
  };
}
