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
  // Project scripts the hook reads (issue 21, route 8): `npm test` in a package with 50
  // scripts, `make test` with a 300-line Makefile.
  const nodeApp = path.join(dir, 'node-app');
  fs.mkdirSync(nodeApp, { recursive: true });
  const scripts = { pretest: 'npm run lint', test: 'vitest run --coverage', posttest: 'node scripts/report.js' };
  for (let i = 0; scripts && Object.keys(scripts).length < 50; i++) scripts[`task${i}`] = `tsc -p packages/p${i} && node scripts/build.js --target p${i}`;
  fs.writeFileSync(path.join(nodeApp, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', scripts, devDependencies: { vitest: '^2.0.0' } }, null, 2));
  const cApp = path.join(dir, 'c-app');
  fs.mkdirSync(cApp, { recursive: true });
  const mk = ['CC ?= cc', 'CFLAGS := -O2 -Wall', 'SRC := $(wildcard src/*.c)', 'OBJ := $(SRC:.c=.o)', '', '.PHONY: all test clean', 'all: app', '', 'app: $(OBJ)', '\t$(CC) $(CFLAGS) -o $@ $^', ''];
  for (let i = 0; mk.length < 290; i++) mk.push(`mod${i}.o: src/mod${i}.c include/mod${i}.h`, `\t$(CC) $(CFLAGS) -c $< -o $@`, `\t@echo built mod${i}`, '');
  // `app` needs every object: `make test` walks every recipe.
  mk[8] = `app: ${mk.filter((l) => /^mod\d+\.o:/.test(l)).map((l) => l.slice(0, l.indexOf(':'))).join(' ')}`;
  mk.push('test: all', '\t./run-tests --verbose', '\tpython3 tools/check.py', '', 'clean:', '\trm -rf app *.o', '');
  fs.writeFileSync(path.join(cApp, 'Makefile'), mk.join('\n'));
  return {
    'claude-code allow (PreToolUse Bash: npm test, package.json with 50 scripts)': ['claude-code', { ...claudeBase, cwd: nodeApp, tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 't5' }],
    'claude-code allow (PreToolUse Bash: make test, 300-line Makefile)': ['claude-code', { ...claudeBase, cwd: cApp, tool_name: 'Bash', tool_input: { command: 'make test' }, tool_use_id: 't6' }],
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
