/**
 * End to end: the built hook with stdin left open, as a harness may leave it. A whole event is
 * answered without waiting for end of input; a partial or missing one is answered at the hook's
 * deadline (BUCKLER_HOOK_DEADLINE_MS, short here) with a native deny before an action and no
 * opinion after. Stdin is a Unix socket (what a harness written in Node hands over) or a pipe
 * (a shell pipeline). Every case ends by itself or is killed after 20 s, which fails it; no case
 * asserts how long anything took.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../adapters/registry.ts';
import { bundle, e2eDir, homeEnv, SHELL_EVENTS, singleReply } from './e2e.testing.ts';

const KILL_AFTER_MS = 20_000;
const tmp = e2eDir('buckler-stdin-');

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const env = (extra: Record<string, string>): Record<string, string> => homeEnv(tmp, extra);

/** `cleanup` runs when the hook has exited (so that whatever else holds its output goes too). */
function collect(child: ReturnType<typeof spawn>, cleanup: () => void): Promise<Ended> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
  child.on('exit', (code, signal) => {
    clearTimeout(killer);
    exit = { code, signal };
    cleanup();
  });
  return new Promise((resolve) => {
    child.on('close', () => resolve({ ...exit, stdout, stderr }));
  });
}

/** Spawns the hook with a socket as stdin, writes `text` and never ends stdin. */
function hookOverSocket(args: string[], text: string, extra: Record<string, string>): Promise<Ended> {
  const child = spawn(process.execPath, [bundle(), ...args], { env: env(extra), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined);
  if (text !== '') child.stdin.write(text);
  return collect(child, () => child.stdin.destroy());
}

/** The same with a pipe as stdin, whose writer keeps it open for a minute. */
function hookOverPipe(args: string[], text: string, extra: Record<string, string>): Promise<Ended> {
  // bash's process substitution: the spawned process becomes the hook itself, and only the
  // writer (stdout to the pipe, stderr away) holds the pipe open.
  const script = `exec "$NODE" "$BUNDLE" "$@" < <({ printf '%s' "$EVENT"; sleep 60; } 2>/dev/null)`;
  const child = spawn('bash', ['-c', script, 'bash', ...args], {
    env: env({ ...extra, EVENT: text, NODE: process.execPath, BUNDLE: bundle() }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return collect(child, () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL'); // the writer, still holding the pipes
    } catch {
      /* already gone */
    }
  });
}

/** Exit 0, and nothing or exactly one JSON object on stdout. */
function replyOf(h: Ended): Record<string, unknown> | null {
  expect(h.signal, `killed: no answer within ${KILL_AFTER_MS} ms\n${h.stderr}`).toBeNull();
  expect(h.code, h.stderr).toBe(0);
  return singleReply(h.stdout);
}

const PAYLOADS = SHELL_EVENTS;

const blocks = (harness: string, h: Ended): boolean =>
  (ADAPTERS[harness] as (typeof ADAPTERS)[string]).isBlocking({ stdout: replyOf(h), exitCode: h.code ?? -1 });

const isPass = (r: Record<string, unknown> | null): boolean => r === null || Object.keys(r).length === 0;

describe.each([
  ['a socket', hookOverSocket],
  ['a pipe', hookOverPipe],
] as const)('stdin left open (%s)', (_kind, open) => {
  describe.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('%s', (harness) => {
    const P = PAYLOADS[harness];
    it('a whole event is answered with its decision, without waiting for the end of input or the deadline', async () => {
      // A deadline far beyond the test's own limit: only the complete event can end the run.
      const h = await open(['--driver', harness], `${JSON.stringify(P.pre('git push --force origin main'))}\n`, {
        BUCKLER_HOOK_DEADLINE_MS: '600000',
      });
      expect(blocks(harness, h)).toBe(true);
      expect(h.stdout).toContain('no-force-push');
      expect(h.stdout).not.toContain('within');
    });
    it('a whole event that allows is answered with no opinion', async () => {
      const h = await open(['--driver', harness], JSON.stringify(P.pre('ls -la')), { BUCKLER_HOOK_DEADLINE_MS: '600000' });
      expect(isPass(replyOf(h)), h.stdout).toBe(true);
    });
    it('half an event before an action: a deny at the deadline that says why', async () => {
      const text = JSON.stringify(P.pre('ls -la'));
      const h = await open(['--driver', harness], text.slice(0, text.length - 5), { BUCKLER_HOOK_DEADLINE_MS: '300' });
      expect(blocks(harness, h)).toBe(true);
      expect(h.stdout).toContain('no complete hook event on stdin within 300 ms');
    });
    it('half an event after an action: no opinion at the deadline', async () => {
      const text = JSON.stringify(P.post('git push'));
      const h = await open(['--driver', harness], text.slice(0, text.length - 5), { BUCKLER_HOOK_DEADLINE_MS: '300' });
      expect(isPass(replyOf(h)), h.stdout).toBe(true);
      expect(h.stderr).toContain('no complete hook event on stdin within 300 ms');
    });
    it('nothing at all: a deny at the deadline (the event cannot be known, so it may be before an action)', async () => {
      const h = await open(['--driver', harness], '', { BUCKLER_HOOK_DEADLINE_MS: '300' });
      expect(blocks(harness, h)).toBe(true);
      expect(h.stdout).toContain('nothing arrived');
    });
  });
});
