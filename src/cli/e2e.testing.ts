/**
 * Test-only: running the built command (dist/buckler.cjs) end to end, as a person or a harness
 * runs it. The one place for the spawn, the temporary home and the environment that the
 * src/cli/*.e2e.test.ts files share.
 */
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createSandbox } from '../test-home.testing.ts';
import { BUNDLE, ensureBuilt } from './build.testing.ts';

/** How a run ended. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Standard input (default: empty). */
  stdin?: string | Buffer;
  cwd?: string;
  /** The command's whole environment (default: this process's, the test sandbox). */
  env?: NodeJS.ProcessEnv;
  timeout?: number;
  maxBuffer?: number;
  /** Node options before the bundle (`-r tracer.cjs`). */
  node?: readonly string[];
  /** Another copy of the bundle to run (default: dist/buckler.cjs, built when stale). */
  bundle?: string;
  /** Run as this user and group (tests that drop root). */
  uid?: number;
  gid?: number;
}

let built = false;

/** The built bundle, built first when it is missing or older than the sources. */
export function bundle(): string {
  if (!built) ensureBuilt();
  built = true;
  return BUNDLE;
}

function spawnOptions(opts: RunOptions): SpawnSyncOptions {
  const o: SpawnSyncOptions = { encoding: 'utf8' };
  if (opts.stdin !== undefined) o.input = opts.stdin;
  if (opts.cwd !== undefined) o.cwd = opts.cwd;
  if (opts.env !== undefined) o.env = opts.env;
  if (opts.timeout !== undefined) o.timeout = opts.timeout;
  if (opts.maxBuffer !== undefined) o.maxBuffer = opts.maxBuffer;
  if (opts.uid !== undefined) o.uid = opts.uid;
  if (opts.gid !== undefined) o.gid = opts.gid;
  return o;
}

/** Runs `buckler ARGS` and waits for it. */
export function buckler(args: readonly string[], opts: RunOptions = {}): Ran {
  const r = spawnSync(process.execPath, [...(opts.node ?? []), opts.bundle ?? bundle(), ...args], spawnOptions(opts));
  return { status: r.status, stdout: r.stdout as string, stderr: r.stderr as string };
}

/** Runs `buckler ARGS` without blocking this process (a server in it must answer meanwhile). */
export function bucklerAsync(args: readonly string[], opts: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.node ?? []), opts.bundle ?? bundle(), ...args], { ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }), ...(opts.env === undefined ? {} : { env: opts.env }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = opts.timeout === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.timeout);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}

/** `buckler --driver DRIVER`, the native payload on stdin (JSON-encoded unless already text). */
export function hook(driver: string, payload: unknown, opts: Omit<RunOptions, 'stdin'> = {}): Ran {
  return buckler(['--driver', driver], { ...opts, stdin: typeof payload === 'string' ? payload : JSON.stringify(payload) });
}

/** A run's one JSON reply (none printed: `{}`). */
export function replyOf(r: Ran): Record<string, any> {
  return r.stdout.trim() === '' ? {} : (JSON.parse(r.stdout) as Record<string, any>);
}

/**
 * What a hook printed, as a harness reads it: nothing (null), or exactly one JSON object on one
 * line ending in a newline (a real Claude Code reads anything else as text and lets the tool run).
 */
export function singleReply(stdout: string): Record<string, unknown> | null {
  if (stdout === '') return null;
  expect(stdout.endsWith('\n')).toBe(true);
  const body = stdout.slice(0, -1);
  expect(body).not.toContain('\n');
  const v = JSON.parse(body) as unknown;
  expect(typeof v === 'object' && v !== null && !Array.isArray(v)).toBe(true);
  return v as Record<string, unknown>;
}

/** Minimal events before and after a shell command, for the Cursor and Claude Code drivers. */
export const SHELL_EVENTS = {
  cursor: {
    pre: (command: string) => ({ hook_event_name: 'beforeShellExecution', command, cwd: '/p', workspace_roots: ['/p'] }),
    post: (command: string) => ({ hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: { command }, cwd: '/p' }),
  },
  'claude-code': {
    pre: (command: string) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command } }),
    post: (command: string) => ({ hook_event_name: 'PostToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command } }),
  },
} as const;

/** The shell-command event a Claude Code or Cursor hook gets before `command` runs in `project`. */
export function shellEvent(driver: 'claude-code' | 'cursor', command: string, project: string): Record<string, unknown> {
  return driver === 'claude-code'
    ? { session_id: 's', transcript_path: '/t', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 'u' }
    : { conversation_id: 'c', generation_id: 'g', hook_event_name: 'beforeShellExecution', workspace_roots: [project], command, cwd: project };
}

/** What a Claude Code or Cursor hook decided for `payload` (`allow` when its reply names nothing). */
export function hookDecision(driver: 'claude-code' | 'cursor', payload: unknown, opts: Omit<RunOptions, 'stdin'> = {}): string {
  const r = hook(driver, payload, opts);
  expect(r.status, r.stderr).toBe(0);
  const out = replyOf(r);
  return (driver === 'cursor' ? out.permission : out.hookSpecificOutput?.permissionDecision) ?? 'allow';
}

/** The decision `buckler ARGS` prints as JSON (`check --json …`, `evaluate`); a failed run (exit 2) throws. */
export function decisionOf(args: readonly string[], opts: RunOptions = {}): string {
  const r = buckler(args, opts);
  if (r.status === 2) throw new Error(`buckler ${args[0]} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { decision: string }).decision;
}

/**
 * The environment of a run in a test home: only PATH and HOME, with Buckler's configuration,
 * state and data in `home/config`, `home/state`, `home/data` (nothing from the sandbox), plus `extra`.
 */
export function homeEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    BUCKLER_CONFIG_HOME: path.join(home, 'config'),
    BUCKLER_STATE_HOME: path.join(home, 'state'),
    BUCKLER_DATA_HOME: path.join(home, 'data'),
    ...extra,
  };
}

/** What `buckler check --json` printed, read. */
export interface Checked {
  status: number | null;
  decision: string;
  rule: string | null;
  /** The whole PolicyOutput. */
  output: Record<string, any>;
}

/**
 * `buckler check --json -- COMMAND` in a test home (homeEnv, run in the home unless `opts` say
 * otherwise): the PolicyOutput it printed. Its standard error must be empty.
 */
export function checkJson(command: string, home: string, opts: RunOptions = {}): Checked {
  const r = buckler(['check', '--json', '--', command], { cwd: home, env: homeEnv(home), timeout: 20_000, maxBuffer: 64 << 20, ...opts });
  expect(r.stderr, command).toBe('');
  const output = JSON.parse(r.stdout) as Record<string, any>;
  return { status: r.status, decision: output.decision, rule: output.rule, output };
}

/** A check's decision and rule alone. */
export function pick(c: Checked): { decision: string; rule: string | null } {
  return { decision: c.decision, rule: c.rule };
}

/** A test's own sandboxed home (test-home.testing.ts) holding a git project. */
export interface SandboxProject {
  /** Remove it after the test. */
  root: string;
  /** PATH plus every location Buckler and the harnesses use, inside `root`. */
  env: Record<string, string>;
  /** `~/proj`, with a `.git` directory. */
  project: string;
}

export function sandboxProject(prefix: string): SandboxProject {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', ...createSandbox(root) };
  const project = path.join(env.HOME as string, 'proj');
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  return { root, env, project };
}

/**
 * For one e2e test file: a new temporary directory (its home), removed after the file's tests,
 * and the bundle built before them (when stale; a slow build does not count against a test).
 */
export function e2eDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  beforeAll(() => void bundle(), 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
