/** The argument module, table-driven over specs of the command table's shape. */
import { describe, expect, it } from 'vitest';
import { parseArgv, UsageError, usageError } from './args.ts';
import { commandSpec, type CommandSpec } from './command-table.ts';

const spec = (name: string): CommandSpec => commandSpec(name)!;

describe('parseArgv', () => {
  it.each([
    ['log', ['--since', '1d', '--json'], { values: { since: '1d', json: true }, operands: [] }],
    ['log', ['--since=1d', '-n5'], { values: { since: '1d', limit: '5' }, operands: [] }],
    ['log', ['-n', '3', '--rule', 'a', '--rule', 'b'], { values: { limit: '3', rule: 'b' }, operands: [] }],
    ['check', ['--project', '/a', '--project=/b', 'git', 'push', '--force'], { values: { project: ['/a', '/b'] }, operands: ['git', 'push', '--force'] }],
    ['check', ['--json', '--', '--x', 'y'], { values: { json: true }, operands: ['--x', 'y'] }],
    ['test', ['a.yaml', '--trust-project', 'b.yaml'], { values: { 'trust-project': true }, operands: ['a.yaml', 'b.yaml'] }],
    ['allow', ['git', 'push', '--list'], { values: {}, operands: ['git', 'push', '--list'] }],
    ['evaluate', ['-i', '-'], { values: { input: '-' }, operands: [] }],
  ])('%s %j', (name, args, want) => {
    const p = parseArgv(spec(name), args);
    expect({ values: p.values, operands: p.operands }).toEqual(want);
    expect(p.help).toBe(false);
  });

  it.each([
    ['hooks', ['--harness', 'cursor', 'merge', '--dry-run'], 'merge'],
    ['hooks', ['status'], 'status'],
    ['pack', ['sign', 'dir', '--key', 'a', '--key', 'b', '--version', '1.0.0'], 'sign'],
  ])('finds the subcommand: %s %j', (name, args, sub) => {
    expect(parseArgv(spec(name), args).subcommand).toBe(sub);
  });

  it.each([
    ['log', ['-h']],
    ['log', ['--since', '1d', '--help']],
    ['pack', ['--help']],
    ['pack', ['help']],
    ['pack', ['sign', '--help']],
    ['hooks', ['--help']],
  ])('--help: %s %j', (name, args) => {
    expect(parseArgv(spec(name), args).help).toBe(true);
  });

  it.each([
    ['log', ['--bogus'], "unknown option '--bogus'"],
    ['log', ['-x'], "unknown option '-x'"],
    ['log', ['--since'], '--since needs a value (D)'],
    ['log', ['--json=yes'], '--json takes no value'],
    ['log', ['extra'], "unexpected argument 'extra'"],
    ['hooks', [], 'say merge, strip or status'],
    ['hooks', ['frob'], "unknown command 'frob' (merge, strip or status)"],
    ['pack', ['list', '--out', 'x'], "unknown option '--out'"],
    ['check', ['--frob', 'ls'], "unknown option '--frob'"],
  ])('refuses %s %j', (name, args, message) => {
    expect(() => parseArgv(spec(name), args)).toThrow(new UsageError(message));
  });

  it('a usage error is one line, exit 2', () => {
    let err = '';
    const io = { err: (s: string) => void (err += s) } as never;
    expect(usageError(io, 'pack sign', 'give DIR')).toBe(2);
    expect(err).toBe("buckler pack sign: give DIR (see 'buckler pack --help')\n");
  });
});
