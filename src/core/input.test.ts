/**
 * parsePolicyInput and docs/contracts/policy-io.schema.json, checked against the same fixtures:
 * every valid fixture passes both, every invalid one is refused by both, and every output the
 * core produces for the fixtures is a valid PolicyOutput.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import { DECISIONS, POLICY_IO_VERSION, PolicyError, TRIGGERS } from './contract.ts';
import { evaluate } from './evaluate.ts';
import { parsePolicyInput } from './input.ts';
import type { CompiledPolicy } from './policy.ts';
import { checkSchema } from './schema-walker.testing.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const read = (p: string): unknown => JSON.parse(fs.readFileSync(p, 'utf8'));
const schema = read(path.join(here, '../../docs/contracts/policy-io.schema.json')) as Record<string, unknown>;
const defs = schema['$defs'] as Record<string, Record<string, unknown>>;
const inputSchema = defs['PolicyInput']!;
const outputSchema = defs['PolicyOutput']!;
const dir = (d: string): string[] => fs.readdirSync(path.join(here, 'fixtures', d)).filter((f) => f.endsWith('.json')).sort();

const INVALID: Record<string, PolicyError['code']> = {
  'not-object': 'bad_input',
  'version-2': 'unsupported_version',
  'version-number': 'unsupported_version',
  'version-missing': 'unsupported_version',
  'trigger-unknown': 'unknown_trigger',
  'trigger-missing': 'unknown_trigger',
  'shell-not-object': 'bad_input',
  'command-not-string': 'bad_input',
  'tool-name-missing': 'bad_input',
  'env-not-strings': 'bad_input',
  'roots-not-strings': 'bad_input',
  'harness-not-string': 'bad_input',
  'aliases-not-strings': 'bad_input',
};

describe('parsePolicyInput and the JSON Schema agree', () => {
  it.each(dir('inputs'))('valid: %s', (f) => {
    const raw = read(path.join(here, 'fixtures/inputs', f));
    expect(checkSchema(schema, raw, inputSchema)).toEqual([]);
    expect(parsePolicyInput(raw)).toEqual(raw);
  });

  it('every invalid fixture has an expected error code', () => {
    expect(dir('invalid').map((f) => f.slice(0, -5))).toEqual(Object.keys(INVALID).sort());
  });

  it.each(dir('invalid'))('invalid: %s', (f) => {
    const raw = read(path.join(here, 'fixtures/invalid', f));
    expect(checkSchema(schema, raw, inputSchema).length).toBeGreaterThan(0);
    let caught: unknown;
    try {
      parsePolicyInput(raw);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PolicyError);
    expect((caught as PolicyError).code).toBe(INVALID[f.slice(0, -5)]);
  });

  it('the schema names the same version, triggers and decisions as the code', () => {
    expect(defs['Version']!['const']).toBe(POLICY_IO_VERSION);
    expect(defs['Trigger']!['enum']).toEqual([...TRIGGERS]);
    expect(defs['Decision']!['enum']).toEqual([...DECISIONS]);
  });

  it('every output for the fixtures is a valid PolicyOutput', () => {
    const policy = { ...(read(path.join(here, 'fixtures/policy.json')) as CompiledPolicy), grammars: { ...BUILTIN_GRAMMARS } };
    for (const f of dir('inputs')) {
      const out = evaluate(parsePolicyInput(read(path.join(here, 'fixtures/inputs', f))), policy);
      expect(checkSchema(schema, out, outputSchema), f).toEqual([]);
      expect(checkSchema(schema, JSON.parse(JSON.stringify(out))), f).toEqual([]);
    }
  });

  it('ignores unknown fields and keeps known ones only', () => {
    const input = parsePolicyInput({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'ls', extra: 1 }, future: true });
    expect(input).toEqual({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: 'ls' } });
  });

  it('the walker itself refuses what it should', () => {
    expect(checkSchema(schema, { policy_io_version: '1', decision: 'maybe' }, outputSchema).join('\n')).toMatch(/decision: must be one of/);
    expect(() => checkSchema({ pattern: 'x' }, 'y')).toThrow(/does not support/);
  });
});

describe('parsePolicyInput: tool paths, MCP calls and the action context (additive to "1")', () => {
  const base = { policy_io_version: '1', trigger: 'pre_shell_tool' };
  it('reads them', () => {
    const input = parsePolicyInput({
      ...base,
      tool: { name: 'Read', paths: [{ path: '.env', access: 'read' }], mcp: { server: 'pg', tool: 'query', arguments: { sql: 'x' } } },
      context: { cwd: '/p', home: '/h', project_roots: ['/p'], temp_dirs: ['/tmp'], tmpdir: '/tmp', locations: { harness_settings: ['/h/.x/settings.json', '.x/settings.json'] } },
    });
    expect(input.tool?.paths).toEqual([{ path: '.env', access: 'read' }]);
    expect(input.tool?.mcp).toEqual({ server: 'pg', tool: 'query', arguments: { sql: 'x' } });
    expect(input.context).toEqual({ cwd: '/p', home: '/h', project_roots: ['/p'], temp_dirs: ['/tmp'], tmpdir: '/tmp', locations: { harness_settings: ['/h/.x/settings.json', '.x/settings.json'] } });
  });
  it.each([
    [{ tool: { name: 'R', paths: 'x' } }, 'tool.paths must be'],
    [{ tool: { name: 'R', paths: [{ path: 1, access: 'read' }] } }, 'tool.paths[0].path must be a string'],
    [{ tool: { name: 'R', paths: [{ path: 'x', access: 'exec' }] } }, 'tool.paths[0].access must be one of read, write, delete, metadata'],
    [{ tool: { name: 'R', mcp: { server: 'pg' } } }, 'tool.mcp.tool must be a string'],
    [{ context: { cwd: 3 } }, 'context.cwd must be a string'],
    [{ context: { project_roots: [1] } }, 'context.project_roots must be a list of strings'],
    [{ context: { locations: ['/x'] } }, 'context.locations must be an object of string lists'],
    [{ context: { locations: { a: '/x' } } }, 'context.locations.a must be a list of strings'],
  ])('refuses %j', (extra, message) => {
    expect(() => parsePolicyInput({ ...base, ...extra })).toThrow(message);
  });
});
