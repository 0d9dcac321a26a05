import { describe, expect, it } from 'vitest';
import { readSql, SQL_MAX_BYTES, SQL_MAX_STATEMENTS, type SqlKind } from './sql.ts';

/** [SQL text, the destructive kinds it holds, in order] */
const rows: Array<[string, SqlKind[]]> = [
  ['DROP TABLE users', ['drop_table']],
  ['drop table users;', ['drop_table']],
  ['DrOp   TaBlE\n  users', ['drop_table']],
  ['DROP TABLE IF EXISTS users CASCADE', ['drop_table']],
  ['DROP TEMPORARY TABLE t', ['drop_table']],
  ['DROP DATABASE shop', ['drop_database']],
  ['DROP SCHEMA app CASCADE', ['drop_schema']],
  ['TRUNCATE events', ['truncate']],
  ['truncate table orders', ['truncate']],
  ['DELETE FROM users', ['delete_all']],
  ['delete from users;', ['delete_all']],
  ['UPDATE users SET admin = true', ['update_all']],
  ['UPDATE users SET admin = (SELECT true FROM x WHERE y)', ['update_all']],
  ['DELETE FROM t WHERE id IN (SELECT id FROM u)', []],
  ['WITH old AS (SELECT 1) DELETE FROM t', ['delete_all']],
  ['BEGIN; DROP SCHEMA app CASCADE; COMMIT', ['drop_schema']],
  ['SELECT 1; DROP TABLE a; DELETE FROM b; TRUNCATE c', ['drop_table', 'delete_all', 'truncate']],
  ['/* cleanup */ DROP TABLE x', ['drop_table']],
  ['-- first\nDROP TABLE x', ['drop_table']],
  ['DROP/**/TABLE x', ['drop_table']],
  ['/* a /* nested */ still comment */ DROP TABLE x', ['drop_table']],
  ['\\set ON_ERROR_STOP on\nDROP TABLE x', ['drop_table']],
  ['DO $$ BEGIN END $$; DROP TABLE x', ['drop_table']],
  // Look-alikes: allowed.
  ["SELECT 'DROP TABLE x'", []],
  ["SELECT 'it''s; DROP TABLE x'", []],
  ["SELECT E'\\'; DROP TABLE x'", []],
  ['SELECT "DROP TABLE x" FROM t', []],
  ['SELECT `drop table x` FROM t', []],
  ['-- DROP TABLE x\nSELECT 1', []],
  ['/* DROP TABLE x; */ SELECT 1', []],
  ['/* a /* DROP TABLE x */ DROP TABLE y */ SELECT 1', []],
  ['# DROP TABLE x\nSELECT 1', []],
  ['SELECT $$DROP TABLE x$$', []],
  ['SELECT $fn$ DROP TABLE x; $fn$', []],
  ['DELETE FROM users WHERE id = 3', []],
  ['delete from users where id=3', []],
  ['DELETE FROM t LIMIT 10', []],
  ['UPDATE users SET name = \'x\' WHERE id = 3', []],
  ['CREATE TABLE t (id int)', []],
  ['INSERT INTO t VALUES (1)', []],
  ['SELECT * FROM users', []],
  ['DROP INDEX idx_users', []],
  ['DROP VIEW v', []],
  ['EXPLAIN DELETE FROM t', []],
  ['\\d users', []],
  ['\\dt', []],
  ['', []],
  ['SELECT drop_table FROM t', []],
  ['SELECT 1 FROM t WHERE truncate = 1', []],
];

describe('readSql: destructive statements', () => {
  it.each(rows)('%j', (text, kinds) => {
    const r = readSql(text);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.destructive).toEqual(kinds);
  });

  it('names each statement by its first keyword', () => {
    const r = readSql('select 1; \\dt\nINSERT INTO t VALUES (2);;');
    expect(r.ok && r.statements.map((s) => s.keyword)).toEqual(['SELECT', '\\', 'INSERT']);
  });
});

describe('readSql: what it cannot read', () => {
  it.each([["SELECT 'x"], ['/* never closed'], ['SELECT "x'], ['SELECT $$ x'], ['/* /* */']])('%j is unterminated', (text) => {
    expect(readSql(text)).toEqual({ ok: false, reason: 'unterminated' });
  });

  it('more than 64 KiB is too long', () => {
    expect(readSql('SELECT 1 -- ' + 'x'.repeat(SQL_MAX_BYTES))).toEqual({ ok: false, reason: 'too_long' });
    // Multi-byte characters count as their UTF-8 bytes.
    expect(readSql('SELECT 1 -- ' + 'é'.repeat(SQL_MAX_BYTES / 2))).toEqual({ ok: false, reason: 'too_long' });
    expect(readSql('SELECT 1 -- ' + 'x'.repeat(SQL_MAX_BYTES - 20)).ok).toBe(true);
  });

  it(`more than ${SQL_MAX_STATEMENTS} statements is too long, even with a DROP early on`, () => {
    expect(readSql('DROP TABLE x;' + 'SELECT 1;'.repeat(SQL_MAX_STATEMENTS)).ok).toBe(false);
    expect(readSql('SELECT 1;'.repeat(SQL_MAX_STATEMENTS - 1) + 'DROP TABLE x')).toMatchObject({ ok: true, destructive: ['drop_table'] });
  });

  it('reads 1 KB of SQL fast enough for the hook', () => {
    const text = ("INSERT INTO t (a, b) VALUES (1, 'x; DROP TABLE y'); /* c */ SELECT * FROM t WHERE a = 2;\n").repeat(12).slice(0, 1024);
    readSql(text);
    const start = performance.now();
    for (let i = 0; i < 200; i++) readSql(text);
    const each = (performance.now() - start) / 200;
    // Measured ~0.01-0.03 ms; the bound leaves room for a loaded machine.
    expect(each).toBeLessThan(1);
  });
});
