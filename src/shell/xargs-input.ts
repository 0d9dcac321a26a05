/**
 * What `xargs` makes of standard input that is literal on the line (`echo … | xargs …`): its
 * input items, and the commands it runs with them. The program data says which programs read
 * their arguments so (`runs.stdin_args`) and which options leave the input unknown.
 */
import type { ArgWord } from './word-value.ts';
import { literalArg } from './word-value.ts';
import type { Stdin } from './context.ts';

/** Input items at most this many are expanded one by one; more stay run-time. */
export const MAX_XARGS_ITEMS = 64;
/** Characters the substituted items may add to the commands xargs makes; more stay run-time. */
export const MAX_XARGS_CHARS = 64 * 1024;

/**
 * GNU/BSD xargs input items from literal standard input: blank-separated words (`lines`: whole
 * lines, leading blanks removed, as with `-I`), with xargs' own quotes and backslashes removed;
 * with `nul` (`-0`), the text between NUL bytes as it is (blanks, newlines and quotes included).
 * Null when the input is not literal, an item is malformed, or there are too many.
 */
export function xargsItems(stdin: Stdin | null, lines: boolean, nul = false): string[] | null {
  // `xargs CMD </dev/null`: no input at all.
  if (stdin?.kind === 'file' && !stdin.path.dynamic && stdin.path.value === '/dev/null') return [];
  if (stdin === null || stdin.kind !== 'text' || stdin.dynamic) return null;
  if (nul) {
    const parts = stdin.text === '' ? [] : stdin.text.split('\0');
    if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    return parts.length > MAX_XARGS_ITEMS ? null : parts;
  }
  const items: string[] = [];
  let cur = '';
  let inItem = false;
  const text = stdin.text;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\n' || (!lines && (c === ' ' || c === '\t'))) {
      if (inItem) items.push(cur);
      cur = '';
      inItem = false;
      continue;
    }
    if (lines && !inItem && (c === ' ' || c === '\t')) continue;
    inItem = true;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end === -1 || text.slice(i + 1, end).includes('\n')) return null;
      cur += text.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text.charAt(++i);
    } else cur += c;
  }
  if (inItem) items.push(cur);
  return items.length > MAX_XARGS_ITEMS ? null : items;
}

/**
 * The commands xargs runs: with a replacement string (`-I{}`), one per item with the item put
 * into every word holding it; without, one with the items appended (a superset of any `-n`/`-L`
 * batching). Null past MAX_XARGS_CHARS of substituted text.
 */
export function xargsCommands(argv: readonly ArgWord[], repl: string | null, items: readonly string[]): ArgWord[][] | null {
  if (repl === null) return [[...argv, ...items.map((v) => literalArg(v, argv[0]?.start))]];
  if (repl === '') return null;
  let size = 0;
  for (const item of items) for (const w of argv) size += (w.value.split(repl).length - 1) * item.length;
  if (size > MAX_XARGS_CHARS) return null;
  return items.map((item) => argv.map((w) => (w.value.includes(repl) ? { ...w, value: w.value.split(repl).join(item) } : w)));
}
