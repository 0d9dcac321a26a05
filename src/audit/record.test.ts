import { describe, expect, it } from 'vitest';
import type { CommandPath, PolicyInput, PolicyOutput } from '../core/contract.ts';
import { AUDIT_RECORD_VERSION, MAX_AUDIT_PATHS, MAX_COMMAND_BYTES, MAX_FIELD_BYTES, buildAuditRecord, encodeAuditRecord, isoTime, truncateUtf8 } from './record.ts';

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

  it('records a trust change: its project, digest and files, capped; absent otherwise', () => {
    const files = Array.from({ length: 40 }, (_, i) => (i === 0 ? `${'x'.repeat(300)}.yaml` : `f${i}.yaml`));
    const r = buildAuditRecord(
      { input: null, harness: 'cli', output: output({ decision: 'allow', rule: null }), project: '/w/app', trust: { action: 'grant', digest: 'sha256:ab', files } },
      NOW,
    );
    expect(r).toMatchObject({ harness: 'cli', decision: 'allow', rule: null, command: null, project: '/w/app', trust: { action: 'grant', digest: 'sha256:ab' } });
    expect(r.trust?.files).toHaveLength(32);
    expect(Buffer.byteLength(r.trust?.files[0] ?? '')).toBe(256);
    expect(buildAuditRecord({ input: input('ls'), output: output() }, NOW)).not.toHaveProperty('trust');
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

  describe('paths', () => {
    const rm = (paths: CommandPath[]): PolicyOutput['commands'][number] => ({ argv: ['rm'], decision: 'ask', rule: null, paths });
    it('lists each path the line touches with its access and scope, once, files only', () => {
      const r = buildAuditRecord(
        {
          input: input('cd .. && rm -rf project/.git > /dev/null; rm -rf "$D"; cat ~/notes'),
          output: output({
            commands: [
              { argv: ['cd', '..'], decision: 'allow', rule: null },
              rm([
                { written: 'project/.git', path: '/home/dev/project/.git', access: 'delete', scope: 'project', recursive: true },
                { written: '/dev/null', path: '/dev/null', access: 'write', scope: 'system', pseudo: true },
              ]),
              rm([{ written: '"$D"', path: null, access: 'delete', scope: 'runtime', recursive: true }]),
              { argv: ['cat', '~/notes'], decision: 'allow', rule: null, paths: [{ written: '~/notes', path: '/home/dev/notes', access: 'read', scope: 'home' }] },
              rm([{ written: '.git', path: '/home/dev/project/.git', access: 'delete', scope: 'project', recursive: true }]),
            ],
          }),
        },
        NOW,
      );
      expect(r.paths).toEqual([
        { path: '/home/dev/project/.git', access: 'delete', scope: 'project', recursive: true },
        { path: '"$D"', access: 'delete', scope: 'runtime', recursive: true },
        { path: '/home/dev/notes', access: 'read', scope: 'home' },
      ]);
      expect(Object.keys(r)).toEqual(['record_version', 'time', 'harness', 'event', 'trigger', 'decision', 'pack', 'rule', 'bypass', 'command', 'tool', 'paths']);
    });

    it('takes the paths the caller listed (the hook decides again with paths) over the output', () => {
      const r = buildAuditRecord(
        { input: input('rm ~/.bashrc'), output: output(), paths: [{ written: '~/.bashrc', path: '/home/dev/.bashrc', access: 'delete', scope: 'home' }] },
        NOW,
      );
      expect(r.paths).toEqual([{ path: '/home/dev/.bashrc', access: 'delete', scope: 'home' }]);
      expect(buildAuditRecord({ input: input('ls'), output: output({ decision: 'allow', rule: null }), paths: [] }, NOW)).not.toHaveProperty('paths');
    });

    it('redacts secrets in paths, cuts long ones and keeps at most MAX_AUDIT_PATHS, and says so', () => {
      const token = `ghp_${'a1B2'.repeat(9)}`;
      const long = `/tmp/${'x'.repeat(400)}`;
      const many: CommandPath[] = Array.from({ length: MAX_AUDIT_PATHS + 3 }, (_, i) => ({ written: `f${i}`, path: `/p/f${i}`, access: 'write', scope: 'project' }));
      const r = buildAuditRecord(
        {
          input: input('x'),
          output: output(),
          paths: [{ written: token, path: `/home/dev/project/${token}`, access: 'read', scope: 'project' }, { written: long, path: long, access: 'write', scope: 'temp' }, ...many],
        },
        NOW,
      );
      expect(r.paths).toHaveLength(MAX_AUDIT_PATHS);
      expect(r.paths?.[0]?.path).toBe('/home/dev/project/[REDACTED]');
      expect(JSON.stringify(r)).not.toContain(token);
      expect(Buffer.byteLength(r.paths?.[1]?.path ?? '')).toBe(MAX_FIELD_BYTES);
      expect(r.redacted).toEqual([{ field: 'paths', kinds: ['github_token'], count: 1 }]);
      const total = Buffer.byteLength('/home/dev/project/[REDACTED]') + long.length + many.reduce((n, p) => n + (p.path as string).length, 0);
      expect(r.truncated).toEqual([{ field: 'paths', bytes: total }]);
    });
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
