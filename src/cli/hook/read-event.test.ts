import { describe, expect, it } from 'vitest';
import type { StdinRead } from '../io.ts';
import { Deadline } from './deadline.ts';
import { DriverFailure } from './driver-failure.ts';
import { driverArgs, isCompleteEvent, readEvent } from './read-event.ts';

describe('driverArgs', () => {
  const good: [string[], Record<string, string>, { name: string; event?: string }][] = [
    [[], {}, { name: 'cursor' }],
    [[], { BUCKLER_DRIVER: 'codex' }, { name: 'codex' }],
    [[], { BUCKLER_DRIVER: '' }, { name: 'cursor' }],
    [['--driver', 'claude-code'], { BUCKLER_DRIVER: 'codex' }, { name: 'claude-code' }],
    [['--driver=gemini-cli'], {}, { name: 'gemini-cli' }],
    [['--driver', 'copilot-cli', '--event', 'preToolUse'], {}, { name: 'copilot-cli', event: 'preToolUse' }],
    [['--event=preToolUse'], {}, { name: 'cursor', event: 'preToolUse' }],
    // An unknown name is the next stage's failure, not the argument parser's.
    [['--driver', 'nope'], {}, { name: 'nope' }],
  ];
  it.each(good)('%j with %j', (argv, env, want) => expect(driverArgs(argv, env)).toEqual(want));

  const bad: [string[], string][] = [
    [['--driver'], '--driver needs a harness name'],
    [['--driver='], '--driver needs a harness name'],
    [['--driver', 'a', '--driver', 'b'], '--driver given twice'],
    [['--event', 'pre tool'], '--event needs an event name'],
    [['--event'], '--event needs an event name'],
    [['--event', 'a', '--event=b'], '--event given twice'],
    [['check'], "unexpected argument 'check' in hook mode"],
    [['--driverx'], "unexpected argument '--driverx' in hook mode"],
  ];
  it.each(bad)('%j fails: %s', (argv, message) => {
    expect(() => driverArgs(argv, {})).toThrow(message);
    try {
      driverArgs(argv, {});
    } catch (e) {
      expect((e as DriverFailure).code).toBe('bad_args');
    }
  });
});

describe('isCompleteEvent', () => {
  const cases: [string, string, boolean][] = [
    ['an object', '{"a":1}', true],
    ['an object and blank lines', '{"a":1}\r\n\t ', true],
    ['with a byte-order mark', '\uFEFF{"a":1}', true],
    ['a half object', '{"a":', false],
    ['a brace inside a string, not closed', '{"a":"}', false],
    ['nothing', '', false],
    ['blanks', '  \n', false],
    ['an array', '[1]', false],
  ];
  it.each(cases)('%s', (_name, text, want) => expect(isCompleteEvent(Buffer.from(text))).toBe(want));
});

const EVENT = '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}';

describe('readEvent', () => {
  const sync = (text: string) => ({ env: {}, readStdin: () => Buffer.from(text) });

  it('reads the named adapter, the event name and the bytes, and moves the deadline to the policy stage', async () => {
    const deadline = new Deadline(1000);
    const read = await readEvent(['--driver', 'copilot-cli', '--event', 'preToolUse'], sync(EVENT), deadline);
    expect(read.adapter.name).toBe('copilot-cli');
    expect(read.event).toBe('preToolUse');
    expect(read.bytes?.toString()).toBe(EVENT);
    expect(read.failure).toBeUndefined();
    expect(deadline.stage).toBe('policy');
  });

  const failures: [string, string[], Record<string, string>, string, string][] = [
    // Bad arguments: the reply takes the shape of the harness the payload looks like.
    ['bad arguments', ['--bogus'], {}, 'bad_args', 'claude-code'],
    ['an unknown driver', ['--driver', 'nope'], {}, 'unknown_driver', 'claude-code'],
    ['an unknown $BUCKLER_DRIVER', [], { BUCKLER_DRIVER: 'nope' }, 'unknown_driver', 'claude-code'],
  ];
  it.each(failures)('%s: a failure, after stdin was read', async (_name, argv, env, code, adapter) => {
    const read = await readEvent(argv, { ...sync(EVENT), env }, new Deadline(1000));
    expect((read.failure as DriverFailure).code).toBe(code);
    expect(read.adapter.name).toBe(adapter);
    expect(read.bytes?.toString()).toBe(EVENT);
  });

  it('a stdin left open past the deadline: the bytes so far, and the deadline failure', async () => {
    const deadline = new Deadline(7);
    const readStdinUntil = (complete: (b: Buffer) => boolean, ms: number): StdinRead => {
      expect(ms).toBe(7);
      expect(complete(Buffer.from('{"a":'))).toBe(false);
      return { bytes: Buffer.from('{"a":'), timedOut: true };
    };
    const read = await readEvent(['--driver', 'cursor'], { env: {}, readStdin: () => Buffer.alloc(0), readStdinUntil }, deadline);
    expect(read.bytes?.toString()).toBe('{"a":');
    expect((read.failure as DriverFailure).message).toBe('no complete hook event on stdin within 7 ms (5 bytes arrived and stdin stayed open)');
    expect(deadline.timedOut).toBe(true);
    expect(deadline.stage).toBe('stdin');
  });

  it('a stdin that cannot be read: no bytes, the error as the failure, the named adapter', async () => {
    const boom = new Error('EIO');
    const read = await readEvent(['--driver', 'codex'], { env: {}, readStdin: () => { throw boom; } }, new Deadline(1000));
    expect(read).toEqual({ adapter: expect.objectContaining({ name: 'codex' }), failure: boom });
  });

  it('a stdin that never arrives (a promise): the deadline failure', async () => {
    const deadline = new Deadline(5);
    const readStdin = (() => new Promise<Buffer>(() => undefined)) as unknown as () => Buffer;
    const read = await readEvent([], { env: {}, readStdin }, deadline);
    expect((read.failure as DriverFailure).message).toBe('no complete hook event on stdin within 5 ms (nothing arrived and stdin stayed open)');
    expect(deadline.timedOut).toBe(true);
    deadline.clear();
  });
});
