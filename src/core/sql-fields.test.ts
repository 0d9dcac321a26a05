/**
 * The segment conditions `sql` and `sql_unread` in the pure core: the words of a program's `sql`
 * role (program data) read by the statement reader (grammars/sql.ts). PolicyInput in, decision out.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import type { ProgramGrammar } from '../grammars/types.ts';
import type { PolicyInput } from './contract.ts';
import { evaluate } from './evaluate.ts';
import { POLICY_FORMAT, type CompiledPolicy, type SegmentMatcher } from './policy.ts';

// A made-up client: `-c TEXT` and its operands are SQL (the core knows roles, never programs).
const dbc: ProgramGrammar = { value_options: ['-c', '-h'], roles: { '-c': 'sql', operands: 'sql' } } as ProgramGrammar;
const policy = (segments: SegmentMatcher[]): CompiledPolicy => ({
  policy_format: POLICY_FORMAT,
  tier: 'baseline',
  packs: [],
  rules: [
    { id: 't/r', pack: 't', triggers: ['pre_shell_exec'], action: 'deny', priority: 50, tier: 'baseline', shell_segments: segments, tool_name: null, env: null, user_message: null, agent_message: null, additional_context: null },
  ],
  grammars: { ...BUILTIN_GRAMMARS, dbc },
  env_keys: [],
});
const decide = (segments: SegmentMatcher[], command: string): string =>
  evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command } } as PolicyInput, policy(segments)).decision;

const ALL: SegmentMatcher = { program: ['dbc'], sql: ['drop_database', 'drop_schema', 'drop_table', 'truncate', 'delete_all', 'update_all'] };
const UNREAD: SegmentMatcher = { program: ['dbc'], sql_unread: true };

describe('sql', () => {
  it.each<[string, string]>([
    ["dbc -c 'DROP TABLE users'", 'deny'],
    ["dbc -c 'drop table users'", 'deny'],
    ["dbc -c 'DROP/**/TABLE users'", 'deny'],
    ["dbc -c 'SELECT 1; DROP SCHEMA app CASCADE'", 'deny'],
    ["dbc -c 'BEGIN; delete from sessions; COMMIT'", 'deny'],
    ["dbc -c 'UPDATE users SET admin = true'", 'deny'],
    ["dbc -c 'TRUNCATE events'", 'deny'],
    ["dbc -c 'drop database shop'", 'deny'],
    ["dbc app.db 'DROP TABLE t'", 'deny'],
    ["sudo dbc -c 'DROP TABLE t'", 'deny'],
    ["bash -c \"dbc -c 'DROP TABLE t'\"", 'deny'],
    // look-alikes
    ["dbc -c \"SELECT 'drop table users'\"", 'allow'],
    ["dbc -c 'SELECT 1 -- DROP TABLE users'", 'allow'],
    ["dbc -c 'DELETE FROM users WHERE id = 3'", 'allow'],
    ["dbc -c 'UPDATE users SET a = 1 WHERE id = 3'", 'allow'],
    ["dbc -c 'SELECT * FROM \"drop table\"'", 'allow'],
    ["dbc -h 'DROP TABLE t'", 'allow'],
    ["echo 'DROP TABLE t'", 'allow'],
    ['dbc -c "$Q"', 'allow'],
  ])('%s → %s', (command, expected) => {
    expect(decide([ALL], command)).toBe(expected);
  });
  it('matches only the kinds listed', () => {
    expect(decide([{ program: ['dbc'], sql: ['delete_all'] }], "dbc -c 'DROP TABLE t'")).toBe('allow');
    expect(decide([{ program: ['dbc'], sql: ['delete_all'] }], "dbc -c 'DELETE FROM t'")).toBe('deny');
  });
});

describe('sql_unread', () => {
  it.each<[string, string]>([
    ['dbc -c "$Q"', 'deny'],
    ['dbc -c "DELETE FROM t WHERE id = $ID"', 'deny'],
    ['dbc --c=x -c "$(cat q.sql)"', 'deny'],
    ["dbc -c 'SELECT $$never closed'", 'deny'],
    ["dbc -c 'SELECT 1 /* never closed'", 'deny'],
    [`dbc -c '${'SELECT 1;'.repeat(201)}'`, 'deny'],
    ["dbc -c 'SELECT 1'", 'allow'],
    ['dbc -h "$HOST" -c \'SELECT 1\'', 'allow'],
    ["dbc -c 'DROP TABLE t'", 'allow'],
  ])('%s → %s', (command, expected) => {
    expect(decide([UNREAD], command)).toBe(expected);
  });
});
