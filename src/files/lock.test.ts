import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, isStale, LockBusyError, lockFileFor, parseOwner, processAlive, withLock } from './lock.ts';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-lock-')));
  lock = lockFileFor(path.join(dir, 'hooks.json'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
}

function plant(owner: unknown, ageMs = 0): void {
  fs.writeFileSync(lock, typeof owner === 'string' ? owner : JSON.stringify(owner));
  const t = (Date.now() - ageMs) / 1000;
  fs.utimesSync(lock, t, t);
}

const FAST = { waitMs: 50 };

describe('acquireLock', () => {
  it('creates the lock beside the file with its owner, and release removes it', () => {
    expect(lock).toBe(path.join(dir, 'hooks.json.buckler-lock'));
    const held = acquireLock(lock);
    expect(parseOwner(fs.readFileSync(lock, 'utf8'))).toEqual({ pid: process.pid, host: os.hostname(), at: expect.any(Number) });
    expect(fs.statSync(lock).mode & 0o777).toBe(0o600);
    held.release();
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a live holder makes the next taker wait, then give up naming the holder', () => {
    const held = acquireLock(lock);
    expect(() => acquireLock(lock, FAST)).toThrow(LockBusyError);
    expect(() => acquireLock(lock, FAST)).toThrow(new RegExp(`held by process ${process.pid} on `));
    held.release();
    acquireLock(lock, FAST).release();
  });

  it('breaks the lock of a process that no longer exists (a killed merge)', () => {
    plant({ pid: deadPid(), host: os.hostname(), at: Date.now() });
    const held = acquireLock(lock, FAST);
    expect(parseOwner(fs.readFileSync(lock, 'utf8'))?.pid).toBe(process.pid);
    held.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('breaks a lock older than staleMs even when its pid is alive (reused pid, hung holder)', () => {
    plant({ pid: process.ppid, host: os.hostname(), at: 0 }, 60_000);
    acquireLock(lock, FAST).release();
    plant({ pid: process.ppid, host: os.hostname(), at: Date.now() });
    expect(() => acquireLock(lock, FAST)).toThrow(LockBusyError);
  });

  it('a lock dated far in the future (planted) does not stay young forever', () => {
    plant({ pid: process.ppid, host: os.hostname(), at: Date.now() }, -120_000);
    acquireLock(lock, FAST).release();
  });

  it('a lock from another host is judged by age alone', () => {
    plant({ pid: deadPid(), host: 'elsewhere', at: Date.now() });
    expect(() => acquireLock(lock, FAST)).toThrow(LockBusyError);
    plant({ pid: deadPid(), host: 'elsewhere', at: Date.now() }, 60_000);
    acquireLock(lock, FAST).release();
  });

  it('an empty or foreign lock is stale only after the grace period', () => {
    plant('');
    expect(() => acquireLock(lock, FAST)).toThrow(LockBusyError);
    plant('not json', 10_000);
    acquireLock(lock, FAST).release();
  });

  it('a FIFO at the lock path neither blocks nor counts as an owner', () => {
    const r = spawnSync('mkfifo', [lock]);
    if (r.status !== 0) return; // no mkfifo here: nothing to check
    expect(() => acquireLock(lock, FAST)).toThrow(LockBusyError);
    const t = (Date.now() - 10_000) / 1000;
    fs.utimesSync(lock, t, t);
    acquireLock(lock, FAST).release();
  });

  it('release leaves a lock that is no longer its own', () => {
    const held = acquireLock(lock);
    fs.rmSync(lock);
    plant({ pid: process.ppid, host: os.hostname(), at: Date.now() });
    held.release();
    expect(parseOwner(fs.readFileSync(lock, 'utf8'))?.pid).toBe(process.ppid);
  });

  it('fails with the file system error where the lock cannot be created', () => {
    expect(() => acquireLock(path.join(dir, 'missing', 'x.buckler-lock'), FAST)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('withLock releases when the function throws', () => {
    expect(() =>
      withLock(lock, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(fs.existsSync(lock)).toBe(false);
  });
});

describe('isStale', () => {
  const rule = { staleMs: 30_000, graceMs: 5_000, host: 'here', alive: (pid: number) => pid === 1 };
  it.each<[string, { ageMs: number; owner: { pid: number; host: string; at: number } | null }, boolean]>([
    ['live owner, young', { ageMs: 10, owner: { pid: 1, host: 'here', at: 0 } }, false],
    ['dead owner, young', { ageMs: 10, owner: { pid: 2, host: 'here', at: 0 } }, true],
    ['live owner, old', { ageMs: 31_000, owner: { pid: 1, host: 'here', at: 0 } }, true],
    ['other host, young', { ageMs: 10, owner: { pid: 2, host: 'there', at: 0 } }, false],
    ['other host, old', { ageMs: 31_000, owner: { pid: 2, host: 'there', at: 0 } }, true],
    ['no owner, young', { ageMs: 4_000, owner: null }, false],
    ['no owner, past grace', { ageMs: 6_000, owner: null }, true],
    ['live owner, dated 60 s ahead', { ageMs: -60_000, owner: { pid: 1, host: 'here', at: 0 } }, true],
    ['live owner, dated 1 s ahead (clock skew)', { ageMs: -1_000, owner: { pid: 1, host: 'here', at: 0 } }, false],
  ])('%s', (_name, seen, stale) => {
    expect(isStale(seen, rule)).toBe(stale);
  });

  it('processAlive: this process yes, a reaped one and nonsense no', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(deadPid())).toBe(false);
    expect(processAlive(0)).toBe(false);
    expect(processAlive(-1)).toBe(false);
  });
});
