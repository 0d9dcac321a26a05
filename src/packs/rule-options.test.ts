/**
 * A rule's options are read as the program's reader reads a command's; what it could never see
 * as written is a warning with the fix. Table-driven over the builtin program data.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS, mergeGrammar } from '../grammars/index.ts';
import { checkRuleOptions, subcommandWarning } from './rule-options.ts';

describe('checkRuleOptions', () => {
  it.each<[string, string[], string[] | undefined, string[], string[], RegExp | null]>([
    // program, rule options, subcommand → normalised options, warning
    ['git', ['--force', '-f'], ['push'], ['--force', '-f'], [], null],
    ['git', ['--force-with-lease=main'], ['push'], ['--force-with-lease'], ['x'], /matches --force-with-lease with any value/],
    ['rm', ['-r'], undefined, ['-r'], [], null],
    ['terraform', ['-auto-approve'], ['destroy'], ['-auto-approve'], ['x'], /can never match: terraform destroy reads it as the options -a -u -t .*single_dash_long: true, inherit_options: true.*words_any: \["-auto-approve"\]/],
    ['gh', ['-XDELETE'], ['api'], ['-XDELETE'], ['x'], /can never match: gh api reads it as the option -X with the value DELETE \(-X takes a value\)\. Use flags_any: \["-X"\]/],
    ['gh', ['--method=DELETE'], ['api'], ['--method'], ['x'], /matches --method with any value/],
    ['curl', ['-XDELETE'], undefined, ['-XDELETE'], ['x'], /option -X with the value DELETE/],
  ])('%s %j', (program, flags, sub, normalised, warns, warning) => {
    const r = checkRuleOptions('flags_any', flags, [program], sub, BUILTIN_GRAMMARS);
    expect(r.flags).toEqual(normalised);
    expect(r.warnings.length).toBe(warns.length);
    if (warning) expect(r.warnings[0]).toMatch(warning);
  });

  it('a program whose data says so reads whole-word options after one dash: no warning', () => {
    const grammars = { ...BUILTIN_GRAMMARS, terraform: mergeGrammar(undefined, { single_dash_long: true, inherit_options: true, nested: true }) };
    expect(checkRuleOptions('flags_any', ['-auto-approve'], ['terraform'], ['destroy'], grammars).warnings).toEqual([]);
  });

  it('without a program there is no reader to compare with', () => {
    expect(checkRuleOptions('flags_all', ['-auto-approve'], undefined, undefined, BUILTIN_GRAMMARS)).toEqual({ flags: ['-auto-approve'], warnings: [] });
  });
  // The shipped packs read cleanly: builtin.test.ts expects no problem at all, warnings included.
});

describe('subcommandWarning', () => {
  it.each<[string, string[], RegExp | null]>([
    ['git', ['push'], null],
    ['git', ['remote', 'remove'], null],
    ['git', ['pussh'], /subcommand "pussh" is not a git command \(did you mean push\?\)/],
    // gh's data does not list every command: nothing to say.
    ['gh', ['nosuch'], null],
    ['rm', ['x'], null],
  ])('%s %j', (program, words, warning) => {
    const w = subcommandWarning([program], words, BUILTIN_GRAMMARS);
    if (warning) expect(w).toMatch(warning);
    else expect(w).toBeNull();
  });
});
