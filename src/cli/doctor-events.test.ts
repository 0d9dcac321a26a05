import { describe, expect, it } from 'vitest';
import { unknownEventsSeen } from './doctor-events.ts';

const rec = (time: string, extra: Record<string, unknown>): string =>
  JSON.stringify({ record_version: 1, time, harness: 'cursor', event: 'beforeShellExecution', trigger: 'pre_shell_exec', decision: 'deny', pack: null, rule: null, bypass: false, command: null, tool: null, ...extra });

describe('unknownEventsSeen: unknown events in the audit log, by harness and name', () => {
  it.each<[string, string[], unknown[]]>([
    ['none: a known event (look-alike)', [rec('2026-12-01T10:00:00.000Z', {})], []],
    [
      'a blocked tool call and an allowed one of the same event, counted together, the last time kept',
      [
        rec('2026-12-01T10:00:00.000Z', { harness: 'claude-code', event: 'PreToolUseV2', trigger: null, error: 'unknown_event' }),
        rec('2026-12-02T10:00:00.000Z', { harness: 'claude-code', event: 'PreToolUseV2', trigger: 'unknown_harness_event', decision: 'allow' }),
        rec('2026-11-30T10:00:00.000Z', { harness: 'claude-code', event: 'PreToolUseV2', trigger: 'unknown_harness_event', error: 'unknown_event' }),
      ],
      [{ harness: 'claude-code', event: 'PreToolUseV2', count: 3, blocked: 2, last: '2026-12-02T10:00:00.000Z' }],
    ],
    [
      'two harnesses, most recent first; torn lines skipped',
      [
        rec('2026-12-01T10:00:00.000Z', { harness: 'codex', event: 'Stop2', trigger: 'unknown_harness_event', decision: 'allow' }),
        '{"torn',
        rec('2026-12-03T10:00:00.000Z', { harness: 'cursor', event: 'beforeX', trigger: 'unknown_harness_event', error: 'unknown_event' }),
      ],
      [
        { harness: 'cursor', event: 'beforeX', count: 1, blocked: 1, last: '2026-12-03T10:00:00.000Z' },
        { harness: 'codex', event: 'Stop2', count: 1, blocked: 0, last: '2026-12-01T10:00:00.000Z' },
      ],
    ],
  ])('%s', (_n, lines, want) => {
    expect(unknownEventsSeen(lines.join('\n'))).toEqual(want);
  });
});
