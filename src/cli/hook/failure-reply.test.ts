import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../adapters/registry.ts';
import type { Adapter, UncheckedEvent } from '../../adapters/adapter.ts';
import { PolicyError } from '../../core/contract.ts';
import { DriverFailure } from './driver-failure.ts';
import { explainFailure, failureResult, operatorBypass } from './failure-reply.ts';

describe('explainFailure', () => {
  it.each([
    [new DriverFailure('bad_json', 'stdin was empty'), { code: 'bad_json', reason: 'stdin was empty' }],
    [new PolicyError('unsupported_version', 'unsupported version'), { code: 'unsupported_version', reason: 'unsupported version' }],
    [new Error('first line\nsecond'), { code: 'internal_error', reason: 'internal error: first line' }],
    ['a string', { code: 'internal_error', reason: 'internal error: a string' }],
    [undefined, { code: 'internal_error', reason: 'internal error: undefined' }],
  ])('%s', (e, want) => expect(explainFailure(e)).toEqual(want));
});

describe('operatorBypass', () => {
  it.each([
    [{}, false],
    [{ BUCKLER_BYPASS: '1' }, true],
    [{ BUCKLER_BYPASS: 'true' }, false],
    [{ RETHUNK_ALLOW_SHELL: '1' }, true],
  ])('%j → %s', (env, want) => expect(operatorBypass(env)).toBe(want));
});

describe('failureResult: the adapter answers, the reason goes to stderr', () => {
  const cursor = getAdapter('cursor') as Adapter;
  const cases: [string, UncheckedEvent, Record<string, string>, string, boolean][] = [
    ['before an action', { text: '{"hook_event_name":"beforeShellExecution"', event: undefined }, {}, 'stdin is bad (blocked)', true],
    ['nothing read', { text: undefined, event: undefined }, {}, 'stdin is bad (blocked)', true],
    ['after an action', { raw: { hook_event_name: 'postToolUse' } }, {}, 'stdin is bad', false],
    ['before, bypassed', { text: '', event: undefined }, { BUCKLER_BYPASS: '1' }, 'stdin is bad (allowed: operator bypass is set)', false],
  ];
  it.each(cases)('%s', (_name, known, env, warning, blocks) => {
    const warnings: string[] = [];
    const r = failureResult(new DriverFailure('bad_json', 'stdin is bad'), cursor, known, env, (t) => void warnings.push(t), { project: '/p' });
    expect(warnings).toEqual([warning]);
    expect(cursor.isBlocking(r.reply)).toBe(blocks);
    expect(r.output.error).toEqual({ code: 'bad_json', message: 'stdin is bad' });
    expect(r.project).toBe('/p');
    expect(r.input).toBeUndefined();
  });
});
