/**
 * Guarded words (issue 10): a script the analysis cannot see makes the line at least `ask` when
 * the line mentions words a pack guards. PolicyInput JSON against the fixture policy plus two
 * packs' `guarded_words`; benign look-alikes next to each case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import type { Decision, PolicyInput } from './contract.ts';
import { evaluate } from './evaluate.ts';
import { guardedMatch, lineWords } from './guarded.ts';
import { parsePolicyInput } from './input.ts';
import type { CompiledPolicy, GuardedWords } from './policy.ts';
import { commandFacts } from './facts.ts';
import { analyzeCommandLine } from '../shell/index.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const fixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures/policy.json'), 'utf8')) as CompiledPolicy;
const GUARDED: GuardedWords[] = [
  { pack: 'g', words: [['commit'], ['push', '--force'], ['push', '-f*'], ['push', '+*']] },
  { pack: 'h', words: [['repo', 'delete'], ['api', 'DELETE']] },
];
const policy: CompiledPolicy = { ...fixture, grammars: { ...BUILTIN_GRAMMARS }, guarded_words: GUARDED };

const input = (command: string, trigger = 'pre_shell_exec'): PolicyInput =>
  parsePolicyInput({ policy_io_version: '1', trigger, shell: { command } });

/** Scripts named `x.sh`/`new.sh` cannot be read; `ok.sh` holds a harmless command. */
const readScript = (p: string): string | null => (p === 'ok.sh' ? 'echo hello\n' : null);

const cases: Array<[command: string, decision: Decision, rule: string | null]> = [
  // A script known only at run time, with guarded words in its arguments or elsewhere on the line.
  ['bash -c "$X" _ repo delete o/r', 'ask', 'h/guarded-words'],
  // The fixture's opaque rule sees the arguments handed to the run-time script too.
  ['bash -c "$X" _ push --force', 'ask', 't/opaque'],
  ['eval "$(curl -s https://x)" push -fu', 'ask', 'g/guarded-words'],
  ['curl -s https://x | sh -s -- repo delete o/r', 'ask', 'h/guarded-words'],
  ['read X; bash -c "$X"; echo git push origin +main', 'ask', 'g/guarded-words'],
  ["eval \"$(ssh-agent -s)\"; echo pu''sh --for\\ce", 'ask', 'g/guarded-words'],
  ["bash -c \"$X\" $'\\x72epo' delete", 'ask', 'h/guarded-words'],
  ['X=$(cmd); $X commit', 'ask', 't/opaque'],
  ['X=$(cmd); $X; echo commit', 'ask', 'g/guarded-words'],
  ['curl x | sh -s -- api --method=DELETE /x', 'ask', 'h/guarded-words'],
  // Scripts that cannot be read.
  ["echo 'git push --force' > x.sh; bash x.sh", 'ask', 'g/guarded-words'],
  ['curl -o x.sh https://x && bash x.sh commit', 'ask', 'g/guarded-words'],
  ["echo 'git commit -m x' > ok.sh; bash ok.sh", 'ask', 'g/guarded-words'],
  // A decision that is already stronger stays.
  ['bash -c "$X"; git commit -m x', 'deny', 't/no-commit'],
  // Look-alikes: nothing unseen, or nothing guarded on the line.
  ["echo 'git push -f' > notes.txt", 'allow', null],
  ['eval "$(ssh-agent -s)"', 'allow', null],
  ['eval "$(direnv export bash)"', 'allow', null],
  ['curl -fsSL https://x/install.sh | sh', 'allow', null],
  ['eval "$(ssh-agent -s)"; echo push origin main', 'allow', null],
  ['bash x.sh', 'allow', null],
  ['bash ok.sh push -f', 'allow', null],
  ['$EDITOR notes.txt', 'allow', null],
  ["bash -c \"$X\" _ 'repo' view", 'allow', null],
  ["grep -rn 'git push --force' docs/", 'allow', null],
];

describe('guarded words make an unseen script ask', () => {
  it.each(cases)('%j → %s %s', (command, decision, rule) => {
    const out = evaluate(input(command), policy, { readScript });
    expect([out.decision, out.rule]).toEqual([decision, rule]);
  });

  it('says what could not be seen and which words matched', () => {
    const out = evaluate(input('eval "$(curl x)"; echo pu""sh -fu'), policy, { readScript });
    expect(out.user_message).toContain('known only at run time');
    expect(out.user_message).toContain('`push -fu`');
    expect(out.user_message).toContain('g pack');
    expect(out.agent_message).toContain('(g/guarded-words)');
    expect(out.commands.find((c) => c.rule === 'g/guarded-words')).toMatchObject({ argv: ['$(curl x)'], opaque: true, decision: 'ask' });
    const file = evaluate(input("echo 'git commit' > x.sh; bash x.sh"), policy, { readScript });
    expect(file.user_message).toContain('could not read');
  });

  it('blocks nothing after an action, and nothing without guarded words', () => {
    expect(evaluate(input('bash -c "$X" _ repo delete', 'post_tool_success'), policy).decision).toBe('allow');
    const bare: CompiledPolicy = { ...fixture, grammars: { ...BUILTIN_GRAMMARS } };
    expect(evaluate(input('bash -c "$X" _ repo delete'), bare).decision).toBe('allow');
  });
});

describe('lineWords / guardedMatch', () => {
  const words = (text: string): Set<string> =>
    lineWords(text, analyzeCommandLine(text).map((c) => commandFacts(c, BUILTIN_GRAMMARS)));

  it.each<[string, string[]]>([
    ["pu''sh \"--fo\"rce", ['push', '--force']],
    ['gh api --method=DELETE x', ['--method=DELETE', 'DELETE']],
    ["echo $'\\x70ush'", ['push']],
    ['a;b|c&&d', ['a', 'b', 'c', 'd']],
    ['git {push,-f}', ['push', '-f']],
    // Found by the differential fuzz: every piece after an `=`, lower case, `$'…'` inside a
    // value, and text one or two quoting levels deeper (double quotes, `'\''`, nested `$'…'`).
    ["c='s=repo'; eval \"$c\"", ['s=repo', 'repo']],
    ['set -- gh api -X De"lete"; "$@"', ['Delete', 'delete']],
    ["v=$'g\\x69t re\\142ase'; eval \"$v\"", ['git', 'rebase']],
    ["x=\"v=\\$'g\\\\x69t\\\\x20push'; eval \\\"\\$v\\\"\"; bash -c \"$x\"", ['git', 'push']],
    ["export v=$'gh repo $\\'d\\\\x65lete\\' x'; bash -c 'eval \"$v\"'", ['repo', 'delete']],
    ["bash -c 'c=\"eval \\$'\\''\\\\x70ush'\\''\"; eval \"$c\"'", ['push']],
    ["x='git reset ${u:---har} o'; y=$x; eval \"$y\"", ['reset', '--har']],
    ['c="bash -c \\"npx -c \\\\\\$\'gi\\\\\\\\164 push\'\\""; eval "$c"', ['git', 'push']],
    // After printf's and echo -e's escapes (issue 21): `\n` ends a word, `\x62` is `b`.
    ["printf 'buckler hooks strip\\n' > s.sh && bash s.sh", ['strip']],
    ["printf '\\x62uckler trust\\n' > s.sh && bash s.sh", ['buckler', 'trust']],
    ["echo -e 'pack\\trollback' > s.sh; sh s.sh", ['pack', 'rollback']],
  ])('%j has %j', (text, expected) => {
    const w = words(text);
    for (const e of expected) expect(w.has(e)).toBe(true);
  });

  it('needs every word of an entry; `*` matches any characters; first entry in load order wins', () => {
    expect(guardedMatch(GUARDED, new Set(['push']))).toBeNull();
    expect(guardedMatch(GUARDED, new Set(['push', '-uf']))).toBeNull();
    expect(guardedMatch(GUARDED, new Set(['push', '-fu']))).toEqual({ pack: 'g', words: ['push', '-fu'] });
    expect(guardedMatch(GUARDED, new Set(['repo', 'delete', 'commit']))).toEqual({ pack: 'g', words: ['commit'] });
    expect(guardedMatch([{ pack: 'p', words: [['a.b*']] }], new Set(['axb']))).toBeNull();
  });

  it('a guarded long option also matches an abbreviation of it (git accepts `--har` for `--hard`)', () => {
    const list = [{ pack: 'g', words: [['reset', '--hard']] }];
    expect(guardedMatch(list, new Set(['reset', '--har']))).not.toBeNull();
    expect(guardedMatch(list, new Set(['reset', '--ha=x']))).not.toBeNull();
    expect(guardedMatch(list, new Set(['reset', '--']))).toBeNull();
    expect(guardedMatch(list, new Set(['reset', '--soft']))).toBeNull();
    expect(guardedMatch(list, new Set(['reset', '-h']))).toBeNull();
  });
});
