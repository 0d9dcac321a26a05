import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { unifiedDiff } from './diff.ts';

/** Applies a unified diff produced by unifiedDiff to `before` (test oracle). */
function patch(before: string, diff: string): string {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let pos = 0;
  const lines = diff.split('\n').slice(2);
  for (let k = 0; k < lines.length; k++) {
    const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[k] as string);
    if (!m) continue;
    const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
    while (pos < start) out.push(a[pos++] as string);
    for (k++; k < lines.length && !(lines[k] as string).startsWith('@@') && lines[k] !== ''; k++) {
      const l = lines[k] as string;
      if (l[0] === ' ') {
        out.push(a[pos++] as string);
      } else if (l[0] === '-') pos++;
      else out.push(l.slice(1));
    }
    k--;
  }
  while (pos < a.length) out.push(a[pos++] as string);
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

describe('unifiedDiff', () => {
  it('shows an addition with context', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nX\ne\nf\ng\nh\n';
    expect(unifiedDiff(before, after, 'f.json')).toBe('--- f.json\n+++ f.json\n@@ -2,6 +2,7 @@\n b\n c\n d\n+X\n e\n f\n g\n');
  });

  it('shows a new file and a removed file', () => {
    expect(unifiedDiff(null, 'x\n', 'f')).toBe('--- /dev/null\n+++ f\n@@ -0,0 +1,1 @@\n+x\n');
    expect(unifiedDiff('x\n', null, 'f')).toBe('--- f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x\n');
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'f')).toBe('');
  });

  it('turns the first text into the second when applied', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', '{', '}', '  "x": 1,'), { maxLength: 30 }).map((l) => (l.length ? `${l.join('\n')}\n` : ''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const d = unifiedDiff(a, b, 'f');
        expect(d === '' ? a : patch(a, d)).toBe(b);
      }),
      { numRuns: 300 },
    );
  });
});
