/**
 * Edits the `[hooks.state."<key>"]` tables of Codex's config.toml as text, so every other byte
 * (comments, layout, the person's settings) stays as it was. Each edit is checked by parsing the
 * result: it must equal the parsed original with exactly the intended `hooks.state` entries
 * changed, or nothing is written (InstallerError 'malformed': a layout this editor does not
 * handle, such as an inline `hooks.state = {…}`).
 */
import type * as SmolToml from 'smol-toml';
import { lazyRequire } from '../../files/lazy-require.ts';
import { InstallerError } from '../errors.ts';
import { isObject, type JsonObject } from '../json-text.ts';

const smolToml = lazyRequire<typeof SmolToml>('smol-toml');

/** One trust table: its fields (`trusted_hash`, `enabled`, …). */
export type StateTable = Record<string, string | boolean | number>;

/** The parsed config.toml; throws InstallerError('malformed') naming `file`. */
export function parseToml(file: string, text: string): JsonObject {
  try {
    return smolToml().parse(text) as JsonObject;
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new InstallerError('malformed', file, `is not valid TOML (${why}); left unchanged`);
  }
}

/** `hooks.state` of a parsed config.toml, each entry that is a table. */
export function hookState(config: JsonObject): Map<string, JsonObject> {
  const hooks = config.hooks;
  const state = isObject(hooks) ? hooks.state : undefined;
  const out = new Map<string, JsonObject>();
  if (!isObject(state)) return out;
  for (const [k, v] of Object.entries(state)) if (isObject(v)) out.set(k, v);
  return out;
}

/** A TOML basic string. */
export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function tomlValue(v: string | boolean | number): string {
  return typeof v === 'string' ? tomlString(v) : String(v);
}

/** The dotted key of a `[table]` header line, or null (not a plain table header, or not understood). */
export function headerKey(line: string): string[] | null {
  const m = /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line);
  if (m === null) return null;
  const s = m[1] as string;
  const parts: string[] = [];
  let i = 0;
  const ws = (): void => {
    while (s[i] === ' ' || s[i] === '\t') i++;
  };
  for (;;) {
    ws();
    if (s[i] === '"') {
      let part = '';
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\') {
          const e = s[i + 1];
          const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
          if (e !== undefined && simple[e] !== undefined) {
            part += simple[e];
            i += 2;
          } else if (e === 'u' || e === 'U') {
            const len = e === 'u' ? 4 : 8;
            const hex = s.slice(i + 2, i + 2 + len);
            if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return null;
            part += String.fromCodePoint(parseInt(hex, 16));
            i += 2 + len;
          } else return null;
        } else part += s[i++];
      }
      if (s[i] !== '"') return null;
      i++;
      parts.push(part);
    } else if (s[i] === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return null;
      parts.push(s.slice(i + 1, end));
      i = end + 1;
    } else {
      const b = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
      if (b === null) return null;
      parts.push(b[0]);
      i += b[0].length;
    }
    ws();
    if (i >= s.length) return parts;
    if (s[i] !== '.') return null;
    i++;
  }
}

const isHeader = (line: string): boolean => /^\s*\[/.test(line);
const isBlankOrComment = (line: string): boolean => /^\s*(?:#.*)?$/.test(line);

interface Lines {
  lines: string[];
  eol: string;
  /** The text ended with a line ending. */
  finalEol: boolean;
}

function split(text: string): Lines {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const finalEol = text.endsWith('\n');
  const body = finalEol ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
  return { lines: body === '' ? [] : body.split(/\r?\n/), eol, finalEol };
}

function join(l: Lines): string {
  if (l.lines.length === 0) return '';
  return l.lines.join(l.eol) + (l.finalEol ? l.eol : '');
}

/** Where the `[hooks.state."<key>"]` table is: its header line and its last key line. */
function findTable(lines: string[], key: string): { start: number; end: number } | null {
  const start = lines.findIndex((line) => {
    const k = headerKey(line);
    return k !== null && k.length === 3 && k[0] === 'hooks' && k[1] === 'state' && k[2] === key;
  });
  if (start < 0) return null;
  let next = lines.findIndex((line, i) => i > start && isHeader(line));
  if (next < 0) next = lines.length;
  let end = start;
  for (let i = start + 1; i < next; i++) if (!isBlankOrComment(lines[i] as string)) end = i;
  return { start, end };
}

function removeTable(l: Lines, key: string): void {
  const t = findTable(l.lines, key);
  if (t === null) return;
  let { start, end } = t;
  // One blank line goes with it: the one after, or at the end of the file the one before.
  if (end + 1 < l.lines.length && /^\s*$/.test(l.lines[end + 1] as string)) end++;
  else if (end + 1 >= l.lines.length && start > 0 && /^\s*$/.test(l.lines[start - 1] as string)) start--;
  l.lines.splice(start, end - start + 1);
}

function appendTable(l: Lines, key: string, table: StateTable): void {
  if (l.lines.length > 0 && !/^\s*$/.test(l.lines[l.lines.length - 1] as string)) l.lines.push('');
  l.lines.push(`[hooks.state.${tomlString(key)}]`);
  for (const [k, v] of Object.entries(table)) l.lines.push(`${k} = ${tomlValue(v)}`);
  l.finalEol = true;
}

/** Sets one field in an existing table (replacing its line), or appends the table. */
function setField(l: Lines, key: string, field: string, value: string | boolean | number): void {
  const t = findTable(l.lines, key);
  if (t === null) {
    appendTable(l, key, { [field]: value });
    return;
  }
  const line = `${field} = ${tomlValue(value)}`;
  const re = new RegExp(`^\\s*${field}\\s*=`);
  for (let i = t.start + 1; i <= t.end; i++) {
    if (re.test(l.lines[i] as string)) {
      l.lines[i] = line;
      return;
    }
  }
  l.lines.splice(t.start + 1, 0, line);
}

/** What an entry of `hooks.state` becomes: a field set, the whole table replaced, or removed. */
export type StateEdit =
  | { key: string; op: 'set'; field: string; value: string | boolean | number }
  | { key: string; op: 'replace'; table: StateTable }
  | { key: string; op: 'remove' };

function canonical(v: unknown): string {
  const walk = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(walk) : isObject(x) && !(x instanceof Date) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, walk(x[k])])) : x;
  return JSON.stringify(walk(v));
}

/** What the parsed config must be after the edits. */
function expected(config: JsonObject, edits: readonly StateEdit[]): JsonObject {
  const next = JSON.parse(JSON.stringify(config)) as JsonObject;
  const hooks = (isObject(next.hooks) ? next.hooks : (next.hooks = {})) as JsonObject;
  const state = (isObject(hooks.state) ? hooks.state : (hooks.state = {})) as JsonObject;
  for (const e of edits) {
    if (e.op === 'remove') delete state[e.key];
    else if (e.op === 'replace') state[e.key] = { ...e.table };
    else state[e.key] = { ...(isObject(state[e.key]) ? (state[e.key] as JsonObject) : {}), [e.field]: e.value };
  }
  return next;
}

/** Drops `hooks.state` and `hooks` when the edits left them empty, so the comparison ignores them. */
function withoutEmpty(config: JsonObject): JsonObject {
  const c = JSON.parse(JSON.stringify(config)) as JsonObject;
  const hooks = c.hooks;
  if (isObject(hooks)) {
    if (isObject(hooks.state) && Object.keys(hooks.state).length === 0) delete hooks.state;
    if (Object.keys(hooks).length === 0) delete c.hooks;
  }
  return c;
}

/**
 * config.toml's text with `edits` made to `hooks.state`, everything else byte for byte as it was.
 * Throws InstallerError('malformed') when the file is not TOML or the edit cannot be made safely.
 */
export function editHookState(file: string, text: string, edits: readonly StateEdit[]): string {
  const before = text.trim() === '' ? {} : parseToml(file, text);
  const l = split(text);
  for (const e of edits) {
    if (e.op === 'remove') removeTable(l, e.key);
    else if (e.op === 'replace') {
      removeTable(l, e.key);
      appendTable(l, e.key, e.table);
    } else setField(l, e.key, e.field, e.value);
  }
  const out = join(l);
  let after: JsonObject;
  try {
    after = out.trim() === '' ? {} : (smolToml().parse(out) as JsonObject);
  } catch {
    after = { unparsable: true };
  }
  if (canonical(withoutEmpty(after)) !== canonical(withoutEmpty(expected(before, edits)))) {
    throw new InstallerError(
      'malformed',
      file,
      'holds hooks.state in a form Buckler does not edit (an inline table or dotted keys); left unchanged: trust Buckler\'s hooks in codex (/hooks) instead',
    );
  }
  return out;
}
