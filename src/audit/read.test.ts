import { describe, expect, it } from 'vitest';
import { filterRecords, parseAuditLog, parseSince } from './read.ts';
import type { AuditRecord } from './record.ts';

function rec(time: string, decision: AuditRecord['decision'], command: string): AuditRecord {
  return { record_version: 1, time, harness: 'cursor', event: null, trigger: 'pre_shell_exec', decision, pack: null, rule: null, bypass: false, command, tool: null };
}

const NOW = new Date('2025-11-29T12:00:00.000Z');

describe('parseAuditLog', () => {
  it('keeps records, skips and counts everything else', () => {
    const lines = [
      JSON.stringify(rec('2025-11-29T10:00:00.000Z', 'deny', 'a')),
      '{"record_version":1,"time":"2025-11-29T10:0', // torn
      '',
      'not json',
      JSON.stringify({ hello: 'world' }),
      JSON.stringify({ ...rec('2025-11-29T10:00:00.000Z', 'deny', 'x'), decision: 'maybe' }),
      JSON.stringify({ ...rec('yesterday', 'deny', 'x') }),
      '[]',
      JSON.stringify(rec('2025-11-29T11:00:00.000Z', 'allow', 'b')),
    ];
    const { records, skipped } = parseAuditLog(`${lines.join('\n')}\n`);
    expect(records.map((r) => r.command)).toEqual(['a', 'b']);
    expect(skipped).toBe(6);
  });
});

describe('parseSince', () => {
  it.each([
    ['30s', '2025-11-29T11:59:30.000Z'],
    ['15m', '2025-11-29T11:45:00.000Z'],
    ['2h', '2025-11-29T10:00:00.000Z'],
    ['1d', '2025-11-28T12:00:00.000Z'],
    ['1w', '2025-11-22T12:00:00.000Z'],
    ['1.5h', '2025-11-29T10:30:00.000Z'],
    ['2025-11-29T10:00:00Z', '2025-11-29T10:00:00.000Z'],
    ['2025-11-29T10:00Z', '2025-11-29T10:00:00.000Z'],
    ['2025-11-29T10:00:00+02:00', '2025-11-29T08:00:00.000Z'],
    ['2025-11-29T10:00:00.250Z', '2025-11-29T10:00:00.250Z'],
  ])('%s → %s', (spec, iso) => {
    expect(parseSince(spec, NOW).toISOString()).toBe(iso);
  });

  it('reads a date or date-time without a zone as local time', () => {
    expect(parseSince('2025-11-29', NOW).getTime()).toBe(new Date(2025, 10, 29, 0, 0).getTime());
    expect(parseSince('2025-11-29 10:30', NOW).getTime()).toBe(new Date(2025, 10, 29, 10, 30).getTime());
  });

  it.each(['', 'yesterday', '2h ago', '-1h', '12', '2025-13-45', '2025/11/29', '1y'])('refuses %j', (spec) => {
    expect(() => parseSince(spec, NOW)).toThrow(/--since .*expected an age like 30m/);
  });
});

describe('filterRecords', () => {
  const records = [
    rec('2025-11-29T08:00:00.000Z', 'deny', 'old deny'),
    rec('2025-11-29T10:30:00.000Z', 'allow', 'allow'),
    rec('2025-11-29T11:00:00.000Z', 'deny', 'deny 1'),
    rec('2025-11-29T11:30:00.000Z', 'nudge', 'nudge'),
    rec('2025-11-29T11:59:00.000Z', 'deny', 'deny 2'),
  ];
  const cmds = (rs: AuditRecord[]): (string | null)[] => rs.map((r) => r.command);

  it.each([
    [{}, ['old deny', 'allow', 'deny 1', 'nudge', 'deny 2']],
    [{ decisions: ['deny'] as const }, ['old deny', 'deny 1', 'deny 2']],
    [{ since: new Date('2025-11-29T10:00:00Z') }, ['allow', 'deny 1', 'nudge', 'deny 2']],
    [{ limit: 2 }, ['nudge', 'deny 2']],
    [{ decisions: ['deny', 'nudge'] as const, limit: 2 }, ['nudge', 'deny 2']],
    [{ since: new Date('2025-11-29T10:00:00Z'), decisions: ['deny'] as const }, ['deny 1', 'deny 2']],
    [{ since: new Date('2025-11-30T00:00:00Z') }, []],
  ])('%j', (filter, want) => {
    expect(cmds(filterRecords(records, filter))).toEqual(want);
  });
});
