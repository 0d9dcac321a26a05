import { describe, expect, it } from 'vitest';
import { gh } from './gh.ts';
import { git } from './git.ts';
import { grammarProblems, normaliseGrammar } from './validate.ts';

describe('grammarProblems', () => {
  it('accepts the builtin grammars', () => {
    expect(grammarProblems(git, 'git')).toEqual([]);
    expect(grammarProblems(gh, 'gh')).toEqual([]);
  });
  it.each<[unknown, string]>([
    [[], 'must be a mapping'],
    [{ value_options: '-n' }, '"value_options" must be a list of strings'],
    [{ value_options: ['n'] }, 'must start with -'],
    [{ nested: 'yes' }, '"nested" must be true or false'],
    [{ flavour: 1 }, 'unknown field "flavour"'],
    [{ subcommands: { delete: { value_options: [1] } } }, 'program "x" delete: "value_options" must be a list of strings'],
    [{ subcommands: { delete: { inherit_options: true } } }, 'unknown field "inherit_options"'],
    [{ synonyms: { '-f': 1 } }, '"synonyms" must map strings to strings'],
    [{ inline_aliases: { option: '-c' } }, '"inline_aliases" must be'],
    [{ env_runs: { MY_HOOK: 'code' } }, '"env_runs" must map variable names to shell or script'],
    [{ env_runs: { 'not a name': 'shell' } }, '"env_runs" must map variable names to shell or script'],
    [{ env_runs: ['MY_HOOK'] }, '"env_runs" must map variable names to shell or script'],
    [{ runs: { shell_assignments: 'yes' } }, '"shell_assignments" must be true or false'],
    [{ role_kinds: ['refspec'] }, '"role_kinds" must map role names to { marks: … }'],
    [{ role_kinds: { refspec: { force: { prefix: '+' } } } }, '"role_kinds.refspec" must be { marks: { MARK: test }, target?: name | url }'],
    [{ role_kinds: { refspec: { marks: { force: { start: '+' } } } } }, '"role_kinds.refspec.marks.force": unknown field "start"'],
    [{ role_kinds: { refspec: { marks: { force: { min_length: -1 } } } } }, '"role_kinds.refspec.marks.force.min_length" must be a whole number'],
    [{ role_kinds: { refspec: { marks: { force: { equals: 'DELETE' } } } } }, '"role_kinds.refspec.marks.force.equals" must be a list of strings'],
    [{ role_kinds: { refspec: { marks: { 'a.b': {} } } } }, 'a mark name is letters, digits'],
  ])('reports %j', (raw, problem) => {
    expect(grammarProblems(raw, 'x').join('\n')).toContain(problem);
  });
  it('accepts env_runs and shell_assignments', () => {
    expect(grammarProblems({ env_runs: { MY_HOOK: 'shell', MY_RC: 'script' }, runs: { shell_assignments: true } }, 'x')).toEqual([]);
  });
  it('turns empty subcommand entries into empty grammars', () => {
    const g = normaliseGrammar({ subcommands: { delete: null, get: { subcommands: { pods: null } } } });
    expect(g.subcommands).toEqual({ delete: {}, get: { subcommands: { pods: {} } } });
  });
});
