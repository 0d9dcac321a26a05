/**
 * agent-tamper in a temporary HOME wired by `buckler hooks merge` (issue 11, "Done when"): the
 * hooks run exactly as the harnesses would run them (the command `hooks merge` wrote, through
 * a shell, with the harness's real payload shape), and Buckler's directories are the default
 * ones under that HOME. Writing `.claude/settings.local.json` or `~/.cursor/hooks.json` by shell
 * or by the Write/Edit tools, `buckler hooks strip` run by the agent and editing Buckler's
 * config.toml are denied; reading them is allowed. Nothing is written by the cases themselves:
 * the hook only answers.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckler, bundle } from './e2e.testing.ts';

type D = 'allow' | 'ask' | 'deny';

let tmp = '';
let home = '';
let project = '';
let env: NodeJS.ProcessEnv = {};

function run(args: string[], cwd: string): void {
  const r = buckler(args, { env, cwd });
  if (r.status !== 0) throw new Error(`buckler ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
}

beforeAll(() => {
  bundle();
  tmp = mkdtempSync(path.join(tmpdir(), 'buckler-tamper-wired-'));
  home = path.join(tmp, 'home');
  project = path.join(home, 'project');
  mkdirSync(path.join(project, '.git'), { recursive: true });
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(path.join(home, '.cursor'), { recursive: true });
  // Only what a person's login would have: no BUCKLER_* or XDG_* directories, so Buckler's own
  // files are the defaults under this HOME (~/.config/buckler/config.toml, …).
  env = { PATH: process.env['PATH'] ?? '', HOME: home };
  mkdirSync(path.join(home, '.config', 'buckler'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'buckler', 'config.toml'), '[core]\ntier = "baseline"\n');
  run(['hooks', 'merge', '--harness', 'claude-code'], project);
  run(['hooks', 'merge', '--harness', 'claude-code', '--scope', 'local', '--project', project], project);
  run(['hooks', 'merge', '--harness', 'cursor'], project);
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

interface Group {
  matcher?: string;
  command?: string;
  hooks?: Array<{ command?: string }>;
}

/** The command `hooks merge` wired for this event (and tool, where the harness has matchers). */
function wired(file: string, event: string, tool?: string): string {
  const cfg = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, Group[]> };
  for (const g of cfg.hooks[event] ?? []) {
    if (tool !== undefined && g.matcher !== undefined && g.matcher !== '' && !new RegExp(g.matcher).test(tool)) continue;
    const command = g.command ?? g.hooks?.[0]?.command;
    if (command !== undefined) return command;
  }
  throw new Error(`no ${event}${tool === undefined ? '' : ` ${tool}`} hook in ${file}`);
}

/** Runs the wired hook the way the harness does: through a shell, the event on stdin. */
function fire(command: string, payload: object): Record<string, unknown> {
  const r = spawnSync('/bin/sh', ['-c', command], { env, cwd: project, input: JSON.stringify(payload), encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as Record<string, unknown>);
}

function claude(tool: string, input: object): D {
  const command = wired(path.join(home, '.claude', 'settings.json'), 'PreToolUse', tool);
  const out = fire(command, {
    session_id: 's',
    transcript_path: path.join(home, '.claude', 'projects', 'p', 's.jsonl'),
    cwd: project,
    permission_mode: 'bypassPermissions',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_1',
  });
  const hso = out['hookSpecificOutput'] as { permissionDecision?: string } | undefined;
  return (hso?.permissionDecision ?? 'allow') as D;
}

const cursorBase = () => ({ conversation_id: 'c', generation_id: 'g', model: 'm', cursor_version: '2.6.14', workspace_roots: [project], user_email: 'dev@example.com' });

function cursorShell(command: string): D {
  const out = fire(wired(path.join(home, '.cursor', 'hooks.json'), 'beforeShellExecution'), { ...cursorBase(), hook_event_name: 'beforeShellExecution', command, cwd: project });
  return ((out['permission'] as string | undefined) ?? 'allow') as D;
}

function cursorTool(tool: string, input: object): D {
  const out = fire(wired(path.join(home, '.cursor', 'hooks.json'), 'preToolUse', tool), { ...cursorBase(), hook_event_name: 'preToolUse', tool_name: tool, tool_input: input, tool_use_id: 't', cwd: project });
  return ((out['permission'] as string | undefined) ?? 'allow') as D;
}

function cursorRead(file: string): D {
  const out = fire(wired(path.join(home, '.cursor', 'hooks.json'), 'beforeReadFile'), { ...cursorBase(), hook_event_name: 'beforeReadFile', file_path: file, content: '{}', attachments: [] });
  return ((out['permission'] as string | undefined) ?? 'allow') as D;
}

const local = () => path.join(project, '.claude', 'settings.local.json');
const cursorHooks = () => path.join(home, '.cursor', 'hooks.json');
const config = () => path.join(home, '.config', 'buckler', 'config.toml');

describe('tamper cases through the wired hooks (Claude Code)', () => {
  it.each<[string, () => [string, object], D]>([
    ['shell: disableAllHooks into .claude/settings.local.json', () => ['Bash', { command: `echo '{"disableAllHooks": true}' > .claude/settings.local.json` }], 'deny'],
    ['shell: rewrite ~/.cursor/hooks.json', () => ['Bash', { command: "echo '{}' > ~/.cursor/hooks.json" }], 'deny'],
    ['shell: buckler hooks strip', () => ['Bash', { command: 'buckler hooks strip --harness claude-code' }], 'deny'],
    ['shell: edit config.toml', () => ['Bash', { command: "sed -i 's/baseline/strict/' ~/.config/buckler/config.toml" }], 'deny'],
    ['Write .claude/settings.local.json', () => ['Write', { file_path: local(), content: '{"disableAllHooks": true}' }], 'deny'],
    ['Edit .claude/settings.local.json', () => ['Edit', { file_path: local(), old_string: '{', new_string: '{"disableAllHooks": true,', replace_all: false }], 'deny'],
    ['Edit ~/.cursor/hooks.json', () => ['Edit', { file_path: cursorHooks(), old_string: '"hooks"', new_string: '"x"' }], 'deny'],
    ['Write config.toml', () => ['Write', { file_path: config(), content: '' }], 'deny'],
    ['shell: read the settings', () => ['Bash', { command: 'cat ~/.claude/settings.json .claude/settings.local.json ~/.cursor/hooks.json ~/.config/buckler/config.toml' }], 'allow'],
    ['shell: buckler hooks status', () => ['Bash', { command: 'buckler hooks status' }], 'allow'],
    ['Read .claude/settings.local.json', () => ['Read', { file_path: local() }], 'allow'],
    ['Read config.toml', () => ['Read', { file_path: config() }], 'allow'],
  ])('%s → %s', (_what, make, expected) => {
    const [tool, input] = make();
    expect(claude(tool, input)).toBe(expected);
  });
});

describe('tamper cases through the wired hooks (Cursor)', () => {
  it.each<[string, () => D, D]>([
    ['shell: rewrite ~/.cursor/hooks.json', () => cursorShell("echo '{}' > ~/.cursor/hooks.json"), 'deny'],
    ['shell: disableAllHooks into .claude/settings.local.json', () => cursorShell(`echo '{"disableAllHooks": true}' > .claude/settings.local.json`), 'deny'],
    ['shell: buckler hooks strip', () => cursorShell('buckler hooks strip'), 'deny'],
    ['shell: edit config.toml', () => cursorShell('echo \'tier = "baseline"\' > ~/.config/buckler/config.toml'), 'deny'],
    ['Write ~/.cursor/hooks.json', () => cursorTool('Write', { file_path: cursorHooks(), content: '{}' }), 'deny'],
    ['Write .claude/settings.local.json', () => cursorTool('Write', { file_path: local(), content: '{"disableAllHooks": true}' }), 'deny'],
    ['Write config.toml', () => cursorTool('Write', { file_path: config(), content: '' }), 'deny'],
    ['Delete ~/.cursor/hooks.json', () => cursorTool('Delete', { file_path: cursorHooks() }), 'deny'],
    ['shell: read the settings', () => cursorShell('cat ~/.cursor/hooks.json ~/.config/buckler/config.toml'), 'allow'],
    ['shell: buckler check', () => cursorShell('buckler check "git push"'), 'allow'],
    ['read ~/.cursor/hooks.json', () => cursorRead(cursorHooks()), 'allow'],
  ])('%s → %s', (_what, run, expected) => {
    expect(run()).toBe(expected);
  });
});
