/**
 * `extendGrammar`: what a pack that is not the person's own config (a signed bundle, trusted
 * project rules) may do to program data: add, never change (docs/project-rules.md).
 */
import { describe, expect, it } from 'vitest';
import { extendGrammar, mergeGrammar } from './merge.ts';
import type { ProgramGrammar } from './types.ts';

const base = { strict: true, flags: ['-a'], runs: { command: true, no_run: ['--help'] }, subcommands: { build: {} } } as unknown as ProgramGrammar;

describe('extendGrammar', () => {
  const cases: Array<{ name: string; over: unknown; want: unknown; kept: string[] }> = [
    { name: 'a new list entry is added', over: { flags: ['-b'] }, want: { ...base, flags: ['-a', '-b'] }, kept: [] },
    { name: 'a new key is added', over: { options_first: true }, want: { ...base, options_first: true }, kept: [] },
    { name: 'a new subcommand is added', over: { subcommands: { deploy: {} } }, want: { ...base, subcommands: { build: {}, deploy: {} } }, kept: [] },
    { name: 'a value already there is kept', over: { strict: false }, want: base, kept: ['strict'] },
    { name: 'a nested value is kept, its path named', over: { runs: { command: false } }, want: base, kept: ['runs.command'] },
    { name: 'the same value is no change', over: { strict: true }, want: base, kept: [] },
    { name: 'a list where a mapping was is kept', over: { runs: ['x'] }, want: base, kept: ['runs'] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = extendGrammar(base, c.over as ProgramGrammar);
      expect(got.grammar).toEqual(c.want);
      expect(got.kept).toEqual(c.kept);
    });
  }
  it('a new program is taken whole', () => {
    expect(extendGrammar(undefined, { strict: false } as unknown as ProgramGrammar)).toEqual({ grammar: { strict: false }, kept: [] });
  });
  it('mergeGrammar (the person\'s own packs) replaces what extendGrammar keeps', () => {
    expect(mergeGrammar(base, { strict: false, runs: { command: false } } as unknown as ProgramGrammar)).toMatchObject({ strict: false, runs: { command: false, no_run: ['--help'] } });
  });
});
