/**
 * Dynamic words with known literal alternatives (word-value.ts `alts`): a variable assigned in a
 * body that may not run, a `for` loop's literal words, `${x:-default}`. The command is reported
 * as written (dynamic) and once more per combination of alternatives.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine } from './index.ts';
import { errorCode } from './show.testing.ts';
import { show } from './show.testing.ts';

describe('variable assigned in a conditional body', () => {
  it.each([
    ['for i in 1; do v=--force; git push $v; done', ['git push $v', 'git push --force']],
    ['if true; then v=--force; git push $v; fi', ['true', 'git push $v', 'git push --force']],
    ['f() { v=-f; git push $v; }; f', ['git push $v', 'git push -f', 'f']],
    // A function's assignments are global once it is called.
    ['f() { v=-f; }; f; git push $v', ['f', 'git push $v', 'git push -f']],
    ['f() { v=-f; }; g() { git push $v; }; f; g', ['git push $v', 'git push -f', 'f', 'g']],
    ['true && { v=-f; git push $v; }', ['true', 'git push $v', 'git push -f']],
    ['while x; do v=-f; git push $v; done', ['x', 'git push $v', 'git push -f']],
    ['case a in a) v=-f; git push $v;; esac', ['git push $v', 'git push -f']],
    ['(v=-f; true) & git push $v', ['true', 'git push $v']],
    // Once through the run-time text `$v` itself, once through the alternative of the word `"$v"`.
    ['true && { v="git push -f"; eval "$v"; }', ['true', '[eval] ?$v', '[eval] git push -f', '[eval] git push -f']],
    ['true && export v=-f; git push $v', ['true', 'export v=-f', 'git push $v', 'git push -f']],
    // After the body: one of the earlier value and the body's.
    ['v=a; if x; then v=-f; fi; git push $v', ['x', 'git push $v', 'git push -f', 'git push a']],
    ['if x; then v=-f; else v=--force; fi; git push $v', ['x', 'git push $v', 'git push --force', 'git push -f']],
    // Splitting as bash would: an unquoted value of several words.
    ['true && v="push -f"; git $v', ['true', 'git $v', 'git push -f']],
    ['true && v="push -f"; git "$v"', ['true', 'git $v', 'git ⟨push -f⟩']],
    ['for v in --force -n; do git push $v; done', ['git push $v', 'git push --force', 'git push -n']],
    ['for v in a b; do for w in c d; do git $v $w; done; done', ['git $v $w', 'git a c', 'git a d', 'git b c', 'git b d']],
    // Benign look-alikes: nothing to add.
    ['for f in *.txt; do cat "$f"; done', ['cat $f']],
    ['for f in $(ls); do cat "$f"; done', ['[$(…)] ls', 'cat $f']],
    ['if x; then v=ok; echo $v; fi', ['x', 'echo $v', 'echo ok']],
  ])('%s', (text, expected) => {
    expect(show(text)).toEqual(expected);
  });
});

describe('run-time word with a literal default', () => {
  it.each([
    ['gh pr close ${u:--d} 42', ['gh pr close ${u:--d} 42', 'gh pr close -d 42']],
    ['gh api -X ${u:-DELETE} /x', ['gh api -X ${u:-DELETE} /x', 'gh api -X DELETE /x']],
    ['git push ${x:-+main}', ['git push ${x:-+main}', 'git push +main']],
    ['git push ${x:=--force}', ['git push ${x:=--force}', 'git push --force']],
    ['git push ${x-"-f"}', ['git push ${x-"-f"}', 'git push -f']],
    ["git push ${x-'-f'}", ["git push ${x-'-f'}", 'git push -f']],
    ['git ${x:-push -f}', ['git ⟨${x:-push -f}⟩', 'git push -f']],
    ['git "${x:-push -f}"', ['git ⟨${x:-push -f}⟩', 'git ⟨push -f⟩']],
    ['git push --${x:-force}', ['git push --${x:-force}', 'git push --force']],
    ['${EDITOR:-vi} x', ['?${EDITOR:-vi} x', 'vi x']],
    // A variable assigned on the line: its value, or the default when bash uses it.
    ['x=origin; git push ${x:-+main}', ['git push ${x:-+main}', 'git push origin']],
    ['x=-f; git push ${x:-origin}', ['git push ${x:-origin}', 'git push -f']],
    ["x=''; git push ${x:--f}", ['git push ${x:--f}', 'git push -f']],
    ["x=''; git push ${x--f}", ['git push ${x--f}', 'git push']],
    ['true && x=-f; git push ${x:-origin}', ['true', 'git push ${x:-origin}', 'git push origin', 'git push -f']],
    // A default that is itself run-time: no literal alternative.
    ['git push ${x:-$y}', ['git push ${x:-$y}']],
    ['git push ${x:+-f}', ['git push ${x:+-f}']],
  ])('%s', (text, expected) => {
    expect(show(text)).toEqual(expected);
  });
});

describe('bounds', () => {
  it('keeps at most 4 alternatives per variable (the latest)', () => {
    const text = 'for i in 1; do v=a; v=b; v=c; v=d; v=e; done; git $v';
    expect(show(text).filter((s) => s.startsWith('git '))).toEqual(['git $v', 'git e', 'git d', 'git c', 'git b']);
  });

  it('judges at most 16 combinations per command, then each alternative once', () => {
    const pre = 'for a in 1 2 3; do for b in 4 5 6; do for c in 7 8 9; do :; done; done; done; ';
    const small = analyzeCommandLine(`${pre}git $a $b`).filter((c) => c.argv[0] === 'git');
    expect(small).toHaveLength(1 + 9);
    const big = analyzeCommandLine(`${pre}git $a $b $c`).filter((c) => c.argv[0] === 'git');
    // 27 combinations > 16: each word's alternatives with the others as written.
    expect(big.map((c) => c.argv.join(' '))).toEqual([
      'git $a $b $c',
      'git 1 $b $c',
      'git 2 $b $c',
      'git 3 $b $c',
      'git $a 4 $c',
      'git $a 5 $c',
      'git $a 6 $c',
      'git $a $b 7',
      'git $a $b 8',
      'git $a $b 9',
    ]);
  });

  it('a long command with alternatives in every word fails closed on the work budget, fast', () => {
    const words = Array.from({ length: 5_000 }, () => '$v').join(' ');
    expect(errorCode(`for v in a b; do :; done; git push ${words}`)).toBe('too_complex');
  });
});
