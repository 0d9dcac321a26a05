import { describe, expect, it } from 'vitest';
import type { Decision } from '../core/contract.ts';
import { isRecorded, recordedByDefault, recordsEveryDecision, type AuditSetting } from './defaults.ts';

describe('recordedByDefault: denials, asks, bypasses and allow-once uses', () => {
  const cases: [string, Decision, boolean, boolean, boolean][] = [
    ['deny', 'deny', false, false, true],
    ['ask', 'ask', false, false, true],
    ['allow', 'allow', false, false, false],
    ['nudge', 'nudge', false, false, false],
    ['allow by operator bypass', 'allow', true, false, true],
    ['allow through an allow-once entry', 'allow', false, true, true],
  ];
  it.each(cases)('%s', (_name, decision, bypass, allowOnce, want) => {
    expect(recordedByDefault({ decision, bypass }, allowOnce)).toBe(want);
  });
});

describe('isRecorded: audit_log true records everything, false nothing, unset the default set', () => {
  const cases: [AuditSetting | undefined, boolean, boolean][] = [
    [true, false, true],
    [true, true, true],
    [false, true, false],
    [false, false, false],
    [null, true, true],
    [null, false, false],
    [undefined, true, false],
    [undefined, false, false],
  ];
  it.each(cases)('setting %s, recorded by default %s → %s', (setting, byDefault, want) => {
    expect(isRecorded(setting, byDefault)).toBe(want);
  });
});

describe('recordsEveryDecision', () => {
  it.each([
    [true, true],
    [false, false],
    [null, false],
    [undefined, false],
  ] as const)('%s → %s', (setting, want) => expect(recordsEveryDecision(setting)).toBe(want));
});
