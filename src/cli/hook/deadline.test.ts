import { describe, expect, it } from 'vitest';
import { Deadline, DEFAULT_HOOK_DEADLINE_MS, hookDeadlineMs } from './deadline.ts';

describe('hookDeadlineMs', () => {
  const cases: [string | undefined, number][] = [
    [undefined, DEFAULT_HOOK_DEADLINE_MS],
    ['250', 250],
    ['1', 1],
    ['600000', 600000],
    ['600001', DEFAULT_HOOK_DEADLINE_MS],
    ['0', DEFAULT_HOOK_DEADLINE_MS],
    ['-5', DEFAULT_HOOK_DEADLINE_MS],
    ['1.5', DEFAULT_HOOK_DEADLINE_MS],
    ['12345678', DEFAULT_HOOK_DEADLINE_MS],
    ['', DEFAULT_HOOK_DEADLINE_MS],
  ];
  it.each(cases)('%j → %d', (v, want) => expect(hookDeadlineMs(v === undefined ? {} : { BUCKLER_HOOK_DEADLINE_MS: v })).toBe(want));
});

describe('Deadline', () => {
  it('returns a value that is not a promise as it is, and arms no timer', () => {
    const d = new Deadline(1);
    expect(d.race(42)).toBe(42);
    expect(d.timedOut).toBe(false);
  });

  it('lets a promise that settles in time through', async () => {
    const d = new Deadline(1000);
    await expect(d.race(Promise.resolve('ok'))).resolves.toBe('ok');
    d.clear();
    expect(d.timedOut).toBe(false);
  });

  it('fails a promise still pending at the deadline, saying what it waited for', async () => {
    const d = new Deadline(5);
    d.stage = 'policy';
    await expect(d.race(new Promise(() => undefined))).rejects.toThrow('no decision within 5 ms (loading the policy took too long)');
    expect(d.timedOut).toBe(true);
  });

  const messages: [Buffer | undefined, string][] = [
    [undefined, 'no complete hook event on stdin within 9 ms (nothing arrived and stdin stayed open)'],
    [Buffer.from('{"a"'), 'no complete hook event on stdin within 9 ms (4 bytes arrived and stdin stayed open)'],
  ];
  it.each(messages)('the stdin failure with %j seen', (seen, message) => {
    const d = new Deadline(9);
    d.seen = seen;
    expect(d.failure()).toMatchObject({ code: 'deadline', message });
  });
});
