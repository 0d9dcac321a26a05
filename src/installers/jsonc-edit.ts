/**
 * Rewrites a JSON (or JSON-with-comments) text to hold a new value while keeping every byte
 * outside the entries that changed: comments, blank lines, spacing, key order. The change is
 * found by comparing the old and new values (objects by key, arrays by longest common
 * subsequence of equal items), then carried out one small text edit at a time — a value
 * replaced, a property or item inserted or removed — reading the text's positions again after
 * each (jsonc.ts). Inserted entries take the file's indent and line ending (json-text.ts).
 *
 * An insertion followed by the removal of the same entry gives the original bytes back, so a
 * strip after a merge leaves the file as it was even without the backup.
 */
import { isObject, sameJson, type JsonStyle } from './json-text.ts';
import { jsoncTree, parseJsonc, skipTrivia, type JNode } from './jsonc.ts';

type Step = string | number;

interface TextEdit {
  at: number;
  remove: number;
  insert: string;
}

function apply(text: string, edits: TextEdit[]): string {
  let out = text;
  // From the end, so earlier offsets stay valid; of two edits at one offset, the first listed ends first.
  const order = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.at - a.e.at || b.i - a.i);
  for (const { e } of order) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.remove);
  return out;
}

/** The node at `path` (an object's last property of a repeated key, as JSON.parse reads it). */
function nodeAt(root: JNode, path: readonly Step[]): JNode {
  let n = root;
  for (const s of path) {
    if (typeof s === 'number') n = (n.items as JNode[])[s] as JNode;
    else n = (n.props as NonNullable<JNode['props']>).filter((p) => p.key === s).at(-1)?.value as JNode;
  }
  return n;
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const from = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(from))?.[0] ?? '';
}

/** Whether `offset` is the first non-blank character of its line. */
function startsLine(text: string, offset: number): boolean {
  const from = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(from, offset));
}

/** `value` as JSON text whose lines after the first are indented by `base`. */
function render(value: unknown, base: string, style: JsonStyle): string {
  return JSON.stringify(value, null, style.indent).replace(/\n/g, style.eol + base);
}

/** A container's entries as [start, end) spans (properties: key to value end). */
function entries(n: JNode): { start: number; end: number }[] {
  return n.kind === 'object' ? (n.props ?? []) : (n.items ?? []);
}

/** The indent of a container's entries: an existing entry's, else the container's line plus one unit. */
function entryIndent(text: string, n: JNode, style: JsonStyle): string {
  const e = entries(n).find((x) => startsLine(text, x.start));
  return e !== undefined ? lineIndent(text, e.start) : lineIndent(text, n.start) + style.indent;
}

function multiLine(text: string, n: JNode): boolean {
  return text.slice(n.start, n.end).includes('\n');
}

/** The text of a new entry (`"key": value` or an item) at indent `indent`. */
function entryText(key: string | null, value: unknown, indent: string, style: JsonStyle): string {
  const v = render(value, indent, style);
  return key === null ? v : `${JSON.stringify(key)}:${style.indent === '' ? '' : ' '}${v}`;
}

/** Inserts an entry into container `n` before entry `k` (`k` = entry count: at the end). */
function insertEntry(text: string, n: JNode, k: number, key: string | null, value: unknown, style: JsonStyle): string {
  const list = entries(n);
  if (list.length === 0) {
    const open = n.start + 1;
    const close = n.end - 1;
    const inner = text.slice(open, close);
    if (style.indent === '' && !inner.includes('\n')) return apply(text, [{ at: open, remove: inner.trim() === '' ? inner.length : 0, insert: entryText(key, value, '', style) }]);
    const base = lineIndent(text, n.start);
    const indent = base + (style.indent === '' ? '  ' : style.indent);
    const item = entryText(key, value, indent, style);
    if (inner.trim() === '') return apply(text, [{ at: open, remove: inner.length, insert: `${style.eol}${indent}${item}${style.eol}${base}` }]);
    // Only comments inside: the entry goes after them, on its own line.
    const tail = /[ \t\r\n]*$/.exec(inner)?.[0] ?? '';
    return apply(text, [{ at: close - tail.length, remove: tail.length, insert: `${style.eol}${indent}${item}${style.eol}${base}` }]);
  }
  if (k < list.length) {
    const next = list[k] as { start: number };
    let ws = next.start;
    while (ws > 0 && /[ \t\r\n]/.test(text[ws - 1] as string)) ws--;
    const gap = text.slice(ws, next.start);
    const indent = gap.includes('\n') ? gap.slice(gap.lastIndexOf('\n') + 1) : lineIndent(text, next.start);
    return apply(text, [{ at: next.start, remove: 0, insert: `${entryText(key, value, indent, style)},${gap}` }]);
  }
  const last = list[list.length - 1] as { start: number; end: number };
  if (!multiLine(text, n)) {
    const sep = commaSpacing(text, n, style);
    return apply(text, [{ at: last.end, remove: 0, insert: `,${sep}${entryText(key, value, lineIndent(text, n.start), style)}` }]);
  }
  const indent = entryIndent(text, n, style);
  const item = entryText(key, value, indent, style);
  // A comment after the last entry on its line stays with it: the new line goes after it.
  const eolAt = lineEnd(text, last.end);
  const rest = text.slice(last.end, eolAt);
  if (eolAt < n.end - 1 && /^[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*)?$/.test(rest)) {
    return apply(text, [
      { at: last.end, remove: 0, insert: ',' },
      { at: eolAt, remove: 0, insert: `${style.eol}${indent}${item}` },
    ]);
  }
  return apply(text, [{ at: last.end, remove: 0, insert: `,${style.eol}${indent}${item}` }]);
}

/** Offset of the line break (`\r\n` or `\n`) ending the line that holds `offset`, or the text's end. */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  if (nl < 0) return text.length;
  return text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** What follows a comma in a one-line container: as its first comma does, else the style's. */
function commaSpacing(text: string, n: JNode, style: JsonStyle): string {
  const list = entries(n);
  if (list.length >= 2) {
    const comma = skipTrivia(text, (list[0] as { end: number }).end);
    return /^[ \t]*/.exec(text.slice(comma + 1))?.[0] ?? '';
  }
  return style.indent === '' ? '' : ' ';
}

/** Removes entry `k` of container `n`, with its comma. */
function removeEntry(text: string, n: JNode, k: number): string {
  const list = entries(n);
  const e = list[k] as { start: number; end: number };
  if (list.length === 1) {
    const inner = text.slice(n.start + 1, e.start) + text.slice(e.end, n.end - 1);
    if (inner.trim() === '') return apply(text, [{ at: n.start + 1, remove: n.end - 1 - (n.start + 1), insert: '' }]);
    // Comments stay; the entry goes with the blank run before it. A line comment before it must
    // not end up on the closing bracket's line (it would swallow the bracket): keep a line break.
    let ws = e.start;
    while (ws > n.start + 1 && /[ \t\r\n]/.test(text[ws - 1] as string)) ws--;
    const lineBefore = text.slice(text.lastIndexOf('\n', ws - 1) + 1, ws);
    const breakKept = !/\n/.test(text.slice(e.end, n.end - 1)) && /\/\//.test(stripStrings(lineBefore));
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    return apply(text, [{ at: ws, remove: e.end - ws, insert: breakKept ? eol + lineIndent(text, n.start) : '' }]);
  }
  if (k === 0) {
    const comma = skipTrivia(text, e.end);
    let to = comma + 1;
    while (to < text.length && /[ \t\r\n]/.test(text[to] as string)) to++;
    return apply(text, [{ at: e.start, remove: to - e.start, insert: '' }]);
  }
  const prev = list[k - 1] as { end: number };
  const comma = skipTrivia(text, prev.end);
  let ws = e.start;
  while (ws > comma + 1 && /[ \t\r\n]/.test(text[ws - 1] as string)) ws--;
  return apply(text, [
    { at: comma, remove: 1, insert: '' },
    { at: ws, remove: e.end - ws, insert: '' },
  ]);
}

/** A line with its strings blanked, to look for comment markers outside them. */
function stripStrings(line: string): string {
  return line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

/** Replaces the value at `n` with `value`, indented as the line it starts on. */
function replaceValue(text: string, n: JNode, value: unknown, style: JsonStyle): string {
  return apply(text, [{ at: n.start, remove: n.end - n.start, insert: render(value, lineIndent(text, n.start), style) }]);
}

/** Pairs of indexes (old, new) of equal items: a longest common subsequence. */
function commonItems(a: readonly unknown[], b: readonly unknown[]): [number, number][] {
  const ka = a.map((x) => JSON.stringify(x));
  const kb = b.map((x) => JSON.stringify(x));
  const w = b.length + 1;
  const t = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      t[i * w + j] = ka[i] === kb[j] ? (t[(i + 1) * w + j + 1] as number) + 1 : Math.max(t[(i + 1) * w + j] as number, t[i * w + j + 1] as number);
    }
  }
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (ka[i] === kb[j]) out.push([i++, j++]);
    else if ((t[(i + 1) * w + j] as number) >= (t[i * w + j + 1] as number)) i++;
    else j++;
  }
  return out;
}

class Editor {
  constructor(
    public text: string,
    readonly style: JsonStyle,
  ) {}

  private node(path: readonly Step[]): JNode {
    return nodeAt(jsoncTree(this.text), path);
  }

  reconcile(path: Step[], before: unknown, after: unknown): void {
    if (sameJson(before, after)) return;
    const n = this.node(path);
    if (isObject(before) && isObject(after) && n.kind === 'object') this.object(path, n, before, after);
    else if (Array.isArray(before) && Array.isArray(after) && n.kind === 'array') this.array(path, before, after);
    else this.text = replaceValue(this.text, n, after, this.style);
  }

  private object(path: Step[], n: JNode, before: Record<string, unknown>, after: Record<string, unknown>): void {
    const keys = (n.props ?? []).map((p) => p.key);
    const has = (o: object, k: string): boolean => Object.hasOwn(o, k);
    const kept = Object.keys(before).filter((k) => has(after, k));
    const keptAfter = Object.keys(after).filter((k) => has(before, k));
    // Repeated keys, or kept keys in another order: the object is written anew.
    if (new Set(keys).size !== keys.length || kept.join('\0') !== keptAfter.join('\0')) {
      this.text = replaceValue(this.text, n, after, this.style);
      return;
    }
    for (const k of Object.keys(before)) {
      if (has(after, k)) continue;
      const cur = this.node(path);
      this.text = removeEntry(this.text, cur, (cur.props ?? []).findIndex((p) => p.key === k));
    }
    for (const k of kept) this.reconcile([...path, k], before[k], after[k]);
    const order = Object.keys(after);
    order.forEach((k, i) => {
      if (has(before, k)) return;
      const cur = this.node(path);
      const props = cur.props ?? [];
      // Before the next key that follows it in the new value and is already there, else at the end.
      const nextKey = order.slice(i + 1).find((x) => props.some((p) => p.key === x));
      const at = nextKey === undefined ? props.length : props.findIndex((p) => p.key === nextKey);
      this.text = insertEntry(this.text, cur, at, k, after[k], this.style);
    });
  }

  private array(path: Step[], before: unknown[], after: unknown[]): void {
    const common = commonItems(before, after);
    // Walk the gaps between equal items; in each gap, pair old and new items in order (edited in
    // place), then remove the old items left over and insert the new ones left over.
    let at = 0; // index in the current text's array
    let i = 0;
    let j = 0;
    for (const [ci, cj] of [...common, [before.length, after.length] as [number, number]]) {
      const olds = before.slice(i, ci);
      const news = after.slice(j, cj);
      const paired = Math.min(olds.length, news.length);
      for (let p = 0; p < paired; p++) {
        this.reconcile([...path, at], olds[p], news[p]);
        at++;
      }
      for (let p = paired; p < olds.length; p++) this.text = removeEntry(this.text, this.node(path), at);
      for (let p = paired; p < news.length; p++) {
        this.text = insertEntry(this.text, this.node(path), at, null, news[p], this.style);
        at++;
      }
      at++; // the equal item
      i = ci + 1;
      j = cj + 1;
    }
  }
}

/**
 * `text` (no byte-order mark) changed to hold `after`, every byte outside the changed entries
 * kept. Throws when the text does not read as `after` once edited (never expected: a guard).
 */
export function editJsonText(text: string, after: unknown, style: JsonStyle): string {
  const before = parseJsonc(text);
  const ed = new Editor(text, style);
  ed.reconcile([], before, after);
  if (!sameJson(parseJsonc(ed.text), after)) throw new Error('editing the JSON text in place did not give the intended value');
  return ed.text;
}
