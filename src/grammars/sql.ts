/**
 * SQL text, read into statements: which of them drop or empty data. Pure and bounded (no I/O;
 * only the UTF-8 length helper): the text a database client is given (`psql -c TEXT`, `mysql -e TEXT`,
 * `sqlite3 DB TEXT`, a here-document) is split into statements at `;` outside strings,
 * quoted identifiers, dollar quotes and comments, and each statement's leading keywords are
 * classified. What is inside a string or a comment is never a statement (`SELECT 'DROP TABLE
 * x'`, `-- DROP TABLE x`).
 *
 * Destructive: `DROP DATABASE|SCHEMA|TABLE` (also `DROP … IF EXISTS`, `DROP TEMPORARY TABLE`),
 * `TRUNCATE`, `DELETE FROM t` and `UPDATE t SET …` without a `WHERE`.
 * Past 64 KiB of text or 200 statements the result is `too_long`: the caller asks, as for
 * anything it cannot read.
 *
 * Why not a parser (measured 2026-12-03, Node 20, 2 shared cores, 1 KB of INSERT/SELECT):
 * node-sql-parser (npm, 89 MB installed) took 376-591 ms to load, 126-156 ms for the first
 * parse and 18-22 ms per warm parse, and it rejects psql meta-commands (`\d users`). This
 * reader is ~5 KB unminified; 0.8 ms for the first read in a fresh process and 0.15-0.28 ms
 * per warm read of the same 1 KB (0.12-0.15 ms after switching to char codes) (sql.test.ts checks a loose bound). Only the reader fits the
 * hook's budget; it needs to know where statements end and their first keywords, no more.
 */
import { utf8Length } from './utf8.ts';

/** The destructive kinds, in the order docs list them (pack `sql:` values). */
export const SQL_KINDS = ['drop_database', 'drop_schema', 'drop_table', 'truncate', 'delete_all', 'update_all'] as const;
export type SqlKind = (typeof SQL_KINDS)[number];

export interface SqlStatement {
  /** The statement's first keyword, upper case (`SELECT`, `DROP`, `\`: a client meta-command). */
  keyword: string;
  /** Set when the statement drops or empties data. */
  destructive: SqlKind | null;
}

export type SqlReading =
  | { ok: true; statements: SqlStatement[]; destructive: SqlKind[] }
  /** Too much text to read within the bounds, or a string or comment never closed. */
  | { ok: false; reason: 'too_long' | 'unterminated' };

export const SQL_MAX_BYTES = 64 * 1024;
export const SQL_MAX_STATEMENTS = 200;

/**
 * The words of one statement outside strings and comments, upper case; a quoted identifier
 * is one word (`"users"` → `"USERS"`, kept as an identifier so it never reads as a keyword).
 */
type Words = string[];

/** Reads `text`: statements and which of them are destructive. */
export function readSql(text: string): SqlReading {
  // Length in UTF-16 units is a lower bound of the UTF-8 bytes; count bytes only near the bound.
  if (text.length > SQL_MAX_BYTES || (text.length * 3 > SQL_MAX_BYTES && utf8Length(text) > SQL_MAX_BYTES)) return { ok: false, reason: 'too_long' };
  const split = splitStatements(text);
  if (!Array.isArray(split)) return { ok: false, reason: split };
  const statements: SqlStatement[] = [];
  const destructive: SqlKind[] = [];
  for (const words of split) {
    if (words.length === 0) continue;
    if (statements.length >= SQL_MAX_STATEMENTS) return { ok: false, reason: 'too_long' };
    const kind = classify(words);
    statements.push({ keyword: words[0]!, destructive: kind });
    if (kind !== null) destructive.push(kind);
  }
  return { ok: true, statements, destructive };
}


function isWordChar(c: string): boolean {
  const k = c.charCodeAt(0);
  return (k >= 97 && k <= 122) || (k >= 65 && k <= 90) || (k >= 48 && k <= 57) || k === 95 || k === 36 || k > 127;
}

/** Statements as word lists; `'unterminated'` when a string, identifier or comment never ends. */
function splitStatements(text: string): Words[] | 'unterminated' | 'too_long' {
  const out: Words[] = [];
  let words: Words = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ';') {
      out.push(words);
      if (out.length > SQL_MAX_STATEMENTS) return 'too_long';
      words = [];
      i++;
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '\\') {
      // psql: a backslash command ends the statement before it and runs to the end of the line.
      if (words.length > 0) out.push(words);
      words = [];
      const end = text.indexOf('\n', i);
      out.push(['\\']);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '#' && words.length === 0) {
      // MySQL's `#` comment, only where no statement has begun (elsewhere it is an operator).
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      // Nested, as Postgres reads them (MySQL does not nest; a nested close only ends earlier there).
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      if (depth > 0) return 'unterminated';
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      // Strings ('…', doubled quote inside; E'…' and MySQL strings also take backslash
      // escapes) and quoted identifiers ("…", `…`).
      const backslash = c !== '"' && c !== '`';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = text[j]!;
        if (backslash && d === '\\') {
          j += 2;
          continue;
        }
        if (d === c) {
          if (text[j + 1] === c) {
            j += 2;
            continue;
          }
          closed = true;
          break;
        }
        j++;
      }
      if (!closed) return 'unterminated';
      words.push(c === "'" ? "'" : `"${text.slice(i + 1, j).toUpperCase()}"`);
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 66));
      if (m !== null) {
        const tag = m[0];
        const end = text.indexOf(tag, i + tag.length);
        if (end < 0) return 'unterminated';
        words.push("'");
        i = end + tag.length;
        continue;
      }
    }
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(text[j]!)) j++;
      words.push(text.slice(i, j).toUpperCase());
      i = j;
      continue;
    }
    words.push(c);
    i++;
  }
  out.push(words);
  return out;
}

const DROPPED: Record<string, SqlKind> = { DATABASE: 'drop_database', SCHEMA: 'drop_schema', TABLE: 'drop_table' };

function classify(w: Words): SqlKind | null {
  // `WITH x AS (…) DELETE FROM t`: the statement is what follows the common table expressions.
  let k = 0;
  if (w[0] === 'EXPLAIN') return null;
  if (w[0] === 'WITH') {
    let depth = 0;
    for (k = 1; k < w.length; k++) {
      if (w[k] === '(') depth++;
      else if (w[k] === ')') depth--;
      else if (depth === 0 && (w[k] === 'DELETE' || w[k] === 'UPDATE' || w[k] === 'SELECT' || w[k] === 'INSERT')) break;
    }
    if (k >= w.length) return null;
  }
  const first = w[k];
  if (first === 'DROP') {
    let j = k + 1;
    if (w[j] === 'TEMPORARY' || w[j] === 'TEMP') j++;
    return DROPPED[w[j] ?? ''] ?? null;
  }
  if (first === 'TRUNCATE') return 'truncate';
  if (first === 'DELETE' || first === 'UPDATE') {
    // Depth 0 only: a WHERE inside a subquery does not limit the outer statement.
    let depth = 0;
    for (let j = k + 1; j < w.length; j++) {
      if (w[j] === '(') depth++;
      else if (w[j] === ')') depth--;
      else if (depth === 0 && (w[j] === 'WHERE' || w[j] === 'LIMIT')) return null;
    }
    return first === 'DELETE' ? 'delete_all' : 'update_all';
  }
  return null;
}
