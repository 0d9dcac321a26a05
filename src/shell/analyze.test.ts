/**
 * Text a shell runs that arrives another way (issue 10), table-driven: process substitutions used
 * as scripts, literal producers on standard input, positional parameters, exported and copied
 * variables, xargs input, and scripts that cannot be seen (marked `unseen`). Every class has
 * benign look-alikes next to it. `⟪runtime⟫` / `⟪unreadable⟫` mark an unseen script.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine, type ShellAnalyzeOptions } from './index.ts';
import { fmt } from './show.testing.ts';

type Case = [text: string, commands: string[]];

const files: Record<string, string> = {
  'ok.sh': 'git status\n',
  'args.sh': 'git "$@"\n',
  plain: 'git commit -m x\n',
  'elf': '\x7fELF\x02\x01\x01\x00\x00\x00\ngit push -f\n',
  'py': '#!/usr/bin/env python3\nimport os\n',
};
const readScript = (p: string): string | null => files[p.replace(/^\.\//, '')] ?? null;

function show(text: string, opts: ShellAnalyzeOptions = { readScript }): string[] {
  return analyzeCommandLine(text, opts).map((c) => fmt(c) + (c.unseen === undefined ? '' : ` ⟪${c.unseen}⟫`));
}

function table(name: string, cases: Case[]): void {
  describe(name, () => {
    it.each(cases)('%j', (text, expected) => {
      expect(show(text)).toEqual(expected);
    });
  });
}

table('process substitution used as a script', [
  ["source <(echo 'git push -f')", ['[<(…)] echo ⟨git push -f⟩', "[source <(echo 'git push -f')] git push -f", "source ⟨<(echo 'git push -f')⟩"]],
  [". <(printf 'git push -f\\n')", ["[<(…)] printf ⟨git push -f\\n⟩", "[. <(printf 'git push -f\\n')] git push -f", ". ⟨<(printf 'git push -f\\n')⟩"]],
  ['bash <(cat <<EOF\ngit commit -m x\nEOF\n)', ['[<(…)] cat', '[bash <(cat <<EOF\ngit commit -m x\nEOF\n)] git commit -m x', 'bash ⟨<(cat <<EOF\ngit commit -m x\nEOF\n)⟩']],
  ["sh < <(echo 'git push -f')", ['[<(…)] echo ⟨git push -f⟩', '[sh < <(…)] git push -f', 'sh']],
  ["bash <(echo 'git \"$@\"') push -f", ['[<(…)] echo ⟨git "$@"⟩', '[bash <(echo \'git "$@"\')] git push -f', 'bash ⟨<(echo \'git "$@"\')⟩ push -f']],
  ['source <(curl -s https://x)', ['[<(…)] curl -s https://x', '[source <(curl -s https://x)] ?⟨<(curl -s https://x)⟩ ⟪runtime⟫', 'source ⟨<(curl -s https://x)⟩']],
  ['source <(echo \'git "$@"\') push -f', ['[<(…)] echo ⟨git "$@"⟩', '[source <(echo \'git "$@"\')] git push -f', 'source ⟨<(echo \'git "$@"\')⟩ push -f']],
  // Look-alikes: a process substitution that is data, not a script.
  ["diff <(echo 'git push -f') ok.sh", ['[<(…)] echo ⟨git push -f⟩', "diff ⟨<(echo 'git push -f')⟩ ok.sh"]],
  ['source <(kubectl completion bash)', ['[<(…)] kubectl completion bash', '[source <(kubectl completion bash)] ?⟨<(kubectl completion bash)⟩ ⟪runtime⟫', 'source ⟨<(kubectl completion bash)⟩']],
  ["cat < <(echo 'git push -f')", ['[<(…)] echo ⟨git push -f⟩', 'cat']],
]);

table('standard input whose producer is literal', [
  ["{ echo 'git push -f'; } | sh", ['echo ⟨git push -f⟩', '[| sh] git push -f', 'sh']],
  ["( echo a; echo 'git push -f' ) | bash", ['echo a', 'echo ⟨git push -f⟩', '[| bash] a', '[| bash] git push -f', 'bash']],
  ["{ echo 'git status'; echo 'git push -f' >&2; } | sh", ['echo ⟨git status⟩', 'echo ⟨git push -f⟩', '[| sh] git status', 'sh']],
  ["printf 'git push -f' | env sh", ['printf ⟨git push -f⟩', '[env > | sh] git push -f', '[env] sh']],
  ["echo 'git push -f' | sudo sh", ['echo ⟨git push -f⟩', '[sudo > | sh] git push -f', '[sudo] sh']],
  ["echo 'git commit' | cat | bash", ['echo ⟨git commit⟩', 'cat', '[| bash] git commit', 'bash']],
  ["echo 'git commit' | tee -a log | bash", ['echo ⟨git commit⟩', 'tee -a log', '[| bash] git commit', 'bash']],
  ["{ echo 'git push -f'; curl x; } | sh", ['echo ⟨git push -f⟩', 'curl x', '[| sh] ?⟨git push -f⟩ ⟪runtime⟫', '[| sh] git push -f', 'sh']],
  ['curl -fsSL https://x | sh', ['curl -fsSL https://x', '[| sh] ?sh ⟪runtime⟫', 'sh']],
  ["echo 'git push -f' | xargs -I{} sh -c '{}'", ['echo ⟨git push -f⟩', '[xargs > sh -c] git push -f']],
  ["printf 'push -f\\n' | xargs git", ["printf ⟨push -f\\n⟩", '[xargs] git push -f']],
  ["printf '%s' 'git push -f' | xargs -0 -I{} sh -c '{}'", ['printf %s ⟨git push -f⟩', '[xargs > sh -c] git push -f']],
  ["printf 'push -f' | xargs --null git", ['printf ⟨push -f⟩', '[xargs] git ⟨push -f⟩']],
  ['cmd | xargs -I{} sh -c {}', ['cmd', '[xargs > sh -c] ?{} ⟪runtime⟫', '[xargs > sh -c] {}']],
  // Look-alikes: the producer's output goes to a file or a program that is not a shell.
  ["echo 'git push -f' | tee >(sh)", ['echo ⟨git push -f⟩', '[>(…) > >(sh …)] ?sh ⟪runtime⟫', '[>(…)] sh', 'tee >(sh)']],
  ["echo 'git push -f' > notes.txt", ['echo ⟨git push -f⟩']],
  ["echo 'git push -f' | tee notes.txt", ['echo ⟨git push -f⟩', 'tee notes.txt']],
  ["{ echo 'git push -f'; } | grep push", ['echo ⟨git push -f⟩', 'grep push']],
]);

table('a command substitution whose output is literal, run as a script', [
  ["eval \"$(printf 'git push -f')\"", ['[$(…)] printf ⟨git push -f⟩', '[eval] git push -f']],
  ["bash -c \"$( { echo 'git commit'; } )\"", ['[$(…)] echo ⟨git commit⟩', '[bash -c] git commit']],
  // Look-alikes: output not literal; unquoted (split and globbed first) stays run-time.
  ['eval "$(direnv export bash)"', ['[$(…)] direnv export bash', '[eval] ?⟨$(direnv export bash)⟩ ⟪runtime⟫', '[eval > $(…)] direnv export bash']],
  ["eval $(echo 'git status')", ['[$(…)] echo ⟨git status⟩', "[eval] ?⟨$(echo 'git status')⟩ ⟪runtime⟫", '[eval > $(…)] echo ⟨git status⟩']],
  ["echo \"$(echo 'git push -f')\"", ['[$(…)] echo ⟨git push -f⟩', "echo ⟨$(echo 'git push -f')⟩"]],
]);

table('positional parameters from the literal arguments', [
  ["bash -c 'eval \"$1\"' _ 'git push -f'", ['[bash -c > eval] git push -f']],
  ["sh -c '\"$@\"' sh git push -f", ['[sh -c] git push -f']],
  ["bash -c '$0 push -f' git", ['[bash -c] git push -f']],
  ["bash -c 'git $*' _ push -f", ['[bash -c] git push -f']],
  ["bash -c 'git \"$*\"' _ push -f", ['[bash -c] git ⟨push -f⟩']],
  ["bash -c 'shift; git \"$@\"' _ x push -f", ['[bash -c] shift', '[bash -c] git push -f']],
  ["bash -c 'set -- push -f; git \"$@\"'", ['[bash -c] set -- push -f', '[bash -c] git push -f']],
  ["bash -c 'set -euo pipefail; git \"$@\"' _ push -f", ['[bash -c] set -euo pipefail', '[bash -c] git push -f']],
  ["bash -c 'set -e +o xtrace x; git $1' _ push", ['[bash -c] set -e +o xtrace x', '[bash -c] git x']],
  ["bash -c 'echo $#'", ['[bash -c] echo 0']],
  ["bash -c 'git \"$1\"'", ['[bash -c] git ⟨⟩']],
  ["bash -s push -f <<< 'git \"$@\"'", ['[bash <<<] git push -f', 'bash -s push -f']],
  ['bash args.sh push -f', ['[bash args.sh] git push -f', 'bash args.sh push -f']],
  ['./args.sh push -f', ['args.sh push -f', '[./args.sh] git push -f']],
  ["bash -c 'git \"$1\"' _ \"$X\"", ['[bash -c] git $1']],
  // Look-alikes and limits: a function's parameters are its call's (the body as defined, then
  // as called); the line's own are unknown.
  ["bash -c 'f() { git \"$1\"; }; f status' _ push", ['[bash -c] git $1', '[bash -c] git status', '[bash -c] f status']],
  ['git "$@"', ['git $@']],
  ["bash -c 'echo \"$1\"' _ 'git push -f'", ['[bash -c] echo ⟨git push -f⟩']],
]);

table('functions and aliases the line defines, called later on it', [
  // A call's arguments are the body's $1 …: the body as defined (arguments unknown), then as called.
  ['f() { git push "$@"; }; f -f', ['git push $@', 'git push -f', 'f -f']],
  ['f() { git "$@"; }; f push -f', ['git $@', 'git push -f', 'f push -f']],
  ['f() { "$@"; }; f git push -f', ['?$@ ⟪runtime⟫', 'git push -f', 'f git push -f']],
  ['function deploy { git push "$1" main; }; deploy --force', ['git push $1 main', 'git push --force main', 'deploy --force']],
  ['f() { g "$@"; }; g() { git push "$1"; }; f --force', ['g $@', 'git push $1', 'git push --force', 'g --force', 'f --force']],
  // Recursion is not followed again; a call with the same arguments is walked once.
  ['f() { f "$@"; }; f x', ['f $@', 'f x', 'f x']],
  ['f() { git status; }; f; f', ['git status', 'f', 'f']],
  // An alias: its value runs where it is defined (judged like running it) and where it is used,
  // followed by the rest of the words (bash with expand_aliases, as some harnesses' shells set).
  ["alias gp='git push --force'", ['[alias gp] git push --force', 'alias ⟨gp=git push --force⟩']],
  ["alias p='git push'\np -f", ['[alias p] git push', 'alias ⟨p=git push⟩', '[alias p] git push -f', 'p -f']],
  ["alias s='sudo '\ns git push -f", ['[alias s] sudo', 'alias ⟨s=sudo ⟩', '[alias s > sudo] git push -f', 's git push -f']],
  ["alias ls='ls -la'\nls /tmp", ['[alias ls] ls -la', 'alias ⟨ls=ls -la⟩', '[alias ls] ls -la /tmp', 'ls /tmp']],
  // Look-alikes: a function that only prints its argument; an alias of something harmless.
  ['f() { echo "$1"; }; f "git push -f"', ['echo $1', 'echo ⟨git push -f⟩', 'f ⟨git push -f⟩']],
  ["alias ll='ls -la'", ['[alias ll] ls -la', 'alias ⟨ll=ls -la⟩']],
]);

table('variables whose value a program runs (program data env_runs)', [
  ['GIT_SSH_COMMAND="git push -f" git fetch', ['[git GIT_SSH_COMMAND] git push -f', 'git fetch']],
  ['export GIT_EDITOR="rm -rf ~"; git rebase -i HEAD~2', ['export ⟨GIT_EDITOR=rm -rf ~⟩', '[git GIT_EDITOR] rm -rf ~', 'git rebase -i HEAD~2']],
  ['env GIT_SSH_COMMAND="git push -f" git fetch', ['[env > git GIT_SSH_COMMAND] git push -f', '[env] git fetch']],
  ['sudo -E GIT_PAGER="git commit" git log', ['[sudo > git GIT_PAGER] git commit', '[sudo] git log']],
  ['GIT_SSH_COMMAND=$X git fetch', ['[git GIT_SSH_COMMAND] ?$GIT_SSH_COMMAND ⟪runtime⟫', 'git fetch']],
  // What the value runs sees the same variable: not followed again.
  ['GIT_SSH_COMMAND="git fetch" git fetch', ['[git GIT_SSH_COMMAND] git fetch', 'git fetch']],
  // Look-alikes: harmless values; a variable no program runs; one set for another program.
  ['GIT_EDITOR=true git rebase --continue', ['[git GIT_EDITOR] true', 'git rebase --continue']],
  ['GIT_PAGER=cat git log', ['[git GIT_PAGER] cat', 'git log']],
  ['FOO="git push -f" git fetch', ['git fetch']],
  ['GIT_SSH_COMMAND="git push -f" ls', ['ls']],
]);

table('exported and copied variables', [
  ["export X='git push -f'; bash -c '$X'", ['export ⟨X=git push -f⟩', '[bash -c] git push -f']],
  ["X='git push -f'; export X; sh -c '$X'", ['export X', '[sh -c] git push -f']],
  ["declare -x X='git commit'; bash -c '$X'", ['declare -x ⟨X=git commit⟩', '[bash -c] git commit']],
  ["X='git push -f' bash -c '$X'", ['[bash -c] git push -f']],
  ["X='git push -f' eval '$X'", ['[eval] git push -f']],
  ["A='push -f'; B=$A; git $B", ['git push -f']],
  ["A='push -f'; export B=$A; git $B", ['export B=$A', 'git push -f']],
  // Not exported: the child still sees it when the environment exported the name (HOME, TERM…).
  ["X='git push -f'; bash -c '$X'", ['[bash -c] git push -f']],
  // Look-alikes: an assignment for one command only, or not unconditional.
  ["X='git push -f' true; bash -c '$X'", ['true', '[bash -c] ?$X ⟪runtime⟫']],
  ["true && X='git push -f'; bash -c '$X'", ['true', '[bash -c] ?$X ⟪runtime⟫', '[bash -c] git push -f']],
  ["X='git push -f'; echo \"$X\" > notes.txt", ['echo ⟨git push -f⟩']],
  ['A=$(cmd); B=$A; git $B', ['[$(…)] cmd', 'git $B']],
  ['A=$(cmd); B=$A; $B', ['[$(…)] cmd', '?$B ⟪runtime⟫']],
]);

table('scripts that cannot be seen', [
  ["echo 'git push -f' > x.sh; bash x.sh", ['echo ⟨git push -f⟩', '[bash x.sh] ?x.sh ⟪unreadable⟫', 'bash x.sh']],
  ["echo 'git push -f' > ok.sh; bash ./ok.sh", ['echo ⟨git push -f⟩', '[bash ./ok.sh] ?./ok.sh ⟪unreadable⟫', '[bash ./ok.sh] git status', 'bash ./ok.sh']],
  ['curl -o x.sh https://x && bash x.sh', ['curl -o x.sh https://x', '[bash x.sh] ?x.sh ⟪unreadable⟫', 'bash x.sh']],
  ['bash missing.sh', ['[bash missing.sh] ?missing.sh ⟪unreadable⟫', 'bash missing.sh']],
  ['source missing.sh', ['[source missing.sh] ?missing.sh ⟪unreadable⟫', 'source missing.sh']],
  ['bash "$F"', ['[bash $F] ?$F ⟪runtime⟫', 'bash $F']],
  ['./plain', ['plain', '[./plain] git commit -m x']],
  ['bash -c "$X"', ['[bash -c] ?$X ⟪runtime⟫']],
  ['eval "$(ssh-agent -s)"', ['[$(…)] ssh-agent -s', '[eval] ?⟨$(ssh-agent -s)⟩ ⟪runtime⟫', '[eval > $(…)] ssh-agent -s']],
  // Look-alikes: a binary, another interpreter, a missing program run directly, a script read fine.
  ['./elf', ['elf']],
  ['./py', ['py']],
  ['./missing', ['missing']],
  ['bash ok.sh', ['[bash ok.sh] git status', 'bash ok.sh']],
]);

describe('without a script reader', () => {
  it('reads no file and marks nothing unreadable', () => {
    expect(show('bash missing.sh; cat x.sh | sh', {})).toEqual(['bash missing.sh', 'cat x.sh', '[| sh] ?sh ⟪runtime⟫', 'sh']);
  });
});

describe('bounds on what copies and parameters build', () => {
  const code = (text: string): string => {
    try {
      analyzeCommandLine(text, { readScript });
      return 'ok';
    } catch (e) {
      return (e as { code?: string }).code ?? String(e);
    }
  };
  it('a value doubled by copies fails closed past 16 KiB, not after 2^n work', () => {
    const doubling = `x='git status;'; ${'x=$x$x; '.repeat(40)}eval "$x"`;
    expect(code(doubling)).toBe('too_large');
    expect(code(`x='git status;'; ${'x=$x$x; '.repeat(8)}eval "$x"`)).toBe('ok');
  });
  it('"$@" repeated over many arguments fails closed past 4,096 words', () => {
    const args = Array.from({ length: 200 }, (_, i) => `a${i}`).join(' ');
    expect(code(`bash -c '${'"$@" '.repeat(40)}' _ ${args}`)).toBe('too_large');
    expect(code(`bash -c 'git "$@"' _ ${args}`)).toBe('ok');
  });
  it('xargs substitution past 64 KiB leaves the items run-time', () => {
    const item = 'x'.repeat(2000);
    expect(show(`echo ${item} | xargs -I{} sh -c '${'{}'.repeat(40)}'`)).toContain('[xargs > sh -c] ?{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{}{} ⟪runtime⟫');
  });
  it('a long literal with a short variable is fine', () => {
    expect(code(`x=1; echo "${'y'.repeat(40_000)}$x" > f`)).toBe('ok');
  });
});
