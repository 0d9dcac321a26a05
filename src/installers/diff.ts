/**
 * A unified diff of two small texts (config files), for `--dry-run`. Longest common
 * subsequence over lines; texts too large for that get a one-line summary instead.
 */

const MAX_CELLS = 4_000_000;

function lines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((l) => l.replace(/\r$/, ''));
}

/** One line of the edit script; `a`/`b`: lines of each side consumed before it. */
type Op = { kind: ' ' | '-' | '+'; line: string; a: number; b: number };

function script(a: string[], b: string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) return null;
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? (lcs[(i + 1) * w + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string, a: i, b: j });
      i++;
      j++;
    } else if (i < n && (j >= m || (lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number))) {
      ops.push({ kind: '-', line: a[i] as string, a: i, b: j });
      i++;
    } else {
      ops.push({ kind: '+', line: b[j] as string, a: i, b: j });
      j++;
    }
  }
  return ops;
}

/**
 * Unified diff of `before` → `after` with 3 lines of context; '' when equal.
 * `null` for a side means the file does not exist (shown as /dev/null).
 */
export function unifiedDiff(before: string | null, after: string | null, name: string, context = 3): string {
  if (before === after) return '';
  const a = lines(before ?? '');
  const b = lines(after ?? '');
  const head = `--- ${before === null ? '/dev/null' : `${name}`}\n+++ ${after === null ? '/dev/null' : `${name}`}\n`;
  const ops = script(a, b);
  if (ops === null) return `${head}(${a.length} → ${b.length} lines; too large to show)\n`;
  const changed = ops.map((o, k) => (o.kind === ' ' ? -1 : k)).filter((k) => k >= 0);
  if (changed.length === 0) return `${head}(only line endings or the final newline differ)\n`;
  let out = head;
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, (changed[k] as number) - context);
    let end = Math.min(ops.length, (changed[k] as number) + context + 1);
    while (k + 1 < changed.length && (changed[k + 1] as number) - context <= end) {
      k++;
      end = Math.min(ops.length, (changed[k] as number) + context + 1);
    }
    k++;
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    const first = ops[start] as Op;
    out += `@@ -${aLen === 0 ? first.a : first.a + 1},${aLen} +${bLen === 0 ? first.b : first.b + 1},${bLen} @@\n`;
    for (const o of hunk) out += `${o.kind}${o.line}\n`;
  }
  return out;
}
