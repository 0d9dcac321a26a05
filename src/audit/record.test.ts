import { describe, expect, it } from 'vitest';
import type { PolicyInput, PolicyOutput } from '../core/contract.ts';
import { AUDIT_RECORD_VERSION, MAX_COMMAND_BYTES, buildAuditRecord, encodeAuditRecord, isoTime, truncateUtf8 } from './record.ts';

const NOW = new Date('2025-11-29T10:00:00.000Z');

function input(command: string, extra: Partial<PolicyInput> = {}): PolicyInput {
  return { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cursor', event: 'beforeShellExecution', shell: { command }, ...extra };
}

function output(extra: Partial<PolicyOutput> = {}): PolicyOutput {
  return {
    policy_io_version: '1',
    decision: 'deny',
    user_message: 'no',
    agent_message: 'no',
    additional_context: null,
    rule: 'agent-git/no-force-push',
    bypass: false,
    commands: [],
    ...extra,
  };
}

describe('buildAuditRecord', () => {
  it('records the decision, who decided and the command', () => {
    const r = buildAuditRecord({ input: input('git push --force origin main'), output: output(), bucklerVersion: '0.1.0' }, NOW);
    expect(r).toEqual({
      record_version: AUDIT_RECORD_VERSION,
      time: '2025-11-29T10:00:00.000Z',
      buckler_version: '0.1.0',
      harness: 'cursor',
      event: 'beforeShellExecution',
      trigger: 'pre_shell_exec',
      decision: 'deny',
      pack: 'agent-git',
      rule: 'agent-git/no-force-push',
      bypass: false,
      command: 'git push --force origin main',
      tool: null,
    });
  });

  it('redacts the command and says what it redacted', () => {
    const r = buildAuditRecord({ input: input('curl -H "Authorization: Bearer abc123def456" https://x'), output: output({ decision: 'allow', rule: null }) }, NOW);
    expect(r.command).toBe('curl -H "Authorization: Bearer [REDACTED]" https://x');
    expect(r.redacted).toEqual([{ field: 'command', kinds: ['authorization_header', 'bearer_token'], count: 1 }]);
    expect(r.pack).toBeNull();
    expect(r.rule).toBeNull();
  });

  it('records the bypass, tool calls, unreadable inputs and errors', () => {
    const bypass = buildAuditRecord({ input: input('git commit -m x'), output: output({ decision: 'allow', bypass: true }) }, NOW);
    expect(bypass.bypass).toBe(true);
    const tool = buildAuditRecord(
      { input: { policy_io_version: '1', trigger: 'pre_shell_tool', harness: 'claude-code', tool: { name: 'Write', input: { content: 'x' } } }, output: output() },
      NOW,
    );
    expect(tool).toMatchObject({ tool: 'Write', command: null, harness: 'claude-code' });
    expect(JSON.stringify(tool)).not.toContain('content');
    const bad = buildAuditRecord({ input: null, harness: 'cursor', output: output({ rule: null, error: { code: 'bad_json', message: 'x' } }) }, NOW);
    expect(bad).toMatchObject({ harness: 'cursor', trigger: null, error: 'bad_json', command: null });
  });

  it('cuts an oversized command after redaction and admits it', () => {
    const long = `TOKEN=s3cret ${'é'.repeat(5000)}`;
    const r = buildAuditRecord({ input: input(long), output: output() }, NOW);
    expect(Buffer.byteLength(r.command as string)).toBeLessThanOrEqual(MAX_COMMAND_BYTES);
    expect(r.command?.startsWith('TOKEN=[REDACTED] éé')).toBe(true);
    expect(r.truncated).toEqual([{ field: 'command', bytes: Buffer.byteLength(long.replace('s3cret', '[REDACTED]')) }]);
    expect(r.redacted?.[0]?.field).toBe('command');
    expect(encodeAuditRecord(r).length).toBeLessThan(8192);
  });

  it('encodes one line ending in a newline, whatever the command holds', () => {
    const line = encodeAuditRecord(buildAuditRecord({ input: input('printf "a\\nb"\necho "\u2028"'), output: output() }, NOW));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line).command).toBe('printf "a\\nb"\necho "\u2028"');
  });
});

describe('truncateUtf8', () => {
  it.each([
    ['abc', 5, 'abc'],
    ['abcdef', 3, 'abc'],
    ['ééé', 3, 'é'],
    ['ééé', 4, 'éé'],
    ['😀x', 3, ''],
  ])('%s to %i bytes → %s', (s, n, want) => {
    expect(truncateUtf8(s, n)).toBe(want);
  });
});

describe('isoTime', () => {
  it('equals toISOString', () => {
    const dates = [0, 1, 999, 86_399_999, 951_782_400_000, 1_764_410_400_123, 4_102_444_799_999, -1].map((t) => new Date(t));
    for (let t = 0; t < 4e12; t += 97_654_321_987) dates.push(new Date(t));
    for (const d of dates) expect(isoTime(d)).toBe(d.toISOString());
  });
});
