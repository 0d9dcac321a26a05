import { describe, expect, it } from 'vitest';
import { syslogText } from './system-log.ts';

describe('syslogText: one printable line', () => {
  it.each<[string, Record<string, string | number | null | undefined>, string]>([
    ['plain fields', { uid: 1000, decision: 'deny', rule: 'agent-git/no-force-push' }, 'uid=1000 decision=deny rule=agent-git/no-force-push'],
    ['empty ones left out', { uid: 1, rule: null, was: undefined, grant: '' }, 'uid=1'],
    ['spaces quoted', { command: 'git push --force' }, 'command="git push --force"'],
    ['control characters become spaces', { command: 'a\nb\u0007c' }, 'command="a b c"'],
    ['quotes escaped', { command: 'echo "x"' }, 'command="echo \\"x\\""'],
  ])('%s', (_name, fields, want) => {
    expect(syslogText(fields)).toBe(want);
  });

  it('cuts a long line', () => {
    const t = syslogText({ command: 'x'.repeat(5000) }, 100);
    expect(t).toHaveLength(100);
    expect(t.endsWith('…')).toBe(true);
  });
});
