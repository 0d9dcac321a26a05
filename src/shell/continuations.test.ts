/**
 * Line continuations (backslash-newline) wherever bash removes them: between `$` and `(`, `{`,
 * `((`, `[`, a name or a special parameter; inside names; inside double quotes, unquoted
 * here-document bodies and here-document delimiters (`<<E\⏎OF` is the unquoted delimiter EOF);
 * between `<`/`>` and `(`; inside `((` and `))`. Each row says which git commands the analysis
 * finds; where bash is installed, the same text is run by bash with a fake `git` on PATH that
 * logs its arguments, and bash must run exactly those git commands (benign look-alikes: none).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeCommandLine } from './index.ts';
import { errorCode } from './show.testing.ts';

type Row = [text: string, git: string[]];

const hidden: Row[] = [
  ['echo $\\\n(git push -f)', ['git push -f']],
  ['echo $\\\n\\\n(git push -f)', ['git push -f']],
  ['echo "$\\\n(git push -f)"', ['git push -f']],
  ['echo "a\\\nb $\\\n(git push -f)"', ['git push -f']],
  ['echo ${x:-$\\\n(git push -f)}', ['git push -f']],
  ['echo "${x:-$\\\n(git push -f)}"', ['git push -f']],
  ['x=$\\\n(git push -f)', ['git push -f']],
  ['echo `echo $\\\n(git push -f)`', ['git push -f']],
  ['echo $\\\n(( $(git push -f) ))', ['git push -f']],
  ['echo $(\\\n( $(git push -f) ))', ['git push -f']],
  ['echo $(( $(git push -f) )\\\n)', ['git push -f']],
  ['cat <\\\n(git push -f)', ['git push -f']],
  ['cat >\\\n(git push -f) </dev/null', ['git push -f']],
  ['G=git; $\\\n{G} push -f', ['git push -f']],
  ['G=git; $\\\nG push -f', ['git push -f']],
  ['G=git; ${\\\nG} push -f', ['git push -f']],
  ['GI=x; GIT=git; $GI\\\nT push -f', ['git push -f']],
  ['GI=x; GIT=git; ${GI\\\nT} push -f', ['git push -f']],
  ['cat <<EOF\n$\\\n(git push -f)\nEOF', ['git push -f']],
  ['cat <<EOF\nx \\\n$(git push -f)\nEOF', ['git push -f']],
  ['cat <<E\\\nOF\n$(git push -f)\nEOF', ['git push -f']],
  ['cat <<E\\\nOF\n$(git push -f)\nE\\\nOF', ['git push -f']],
  ['cat <<-E\\\nOF\n\t$(git push -f)\n\tEOF', ['git push -f']],
  ['cat <<E\\\nOF\n$\\\n(git push -f)\nEOF\necho done', ['git push -f']],
  ['# a comment ends at the newline $\\\n(git push -f)', ['git push -f']],
  ["bash -c 'echo $\\\n(git push -f)'", ['git push -f']],
  ["eval 'echo \"$\\\n(git push -f)\"'", ['git push -f']],
];

const benign: Row[] = [
  ["echo '$\\\n(git push -f)'", []],
  ["echo $'\\\n(git push -f)'", []],
  ["echo $\\\n'(git push -f)'", []],
  ['echo $\\\n"(git push -f)"', []],
  ['echo "\\$\\\n(git push -f)"', []],
  ['echo $\\\n x', []],
  ['echo "$\\\n"', []],
  ["cat <<'EOF'\n$\\\n(git push -f)\nEOF", []],
  ["cat <<'E'\\\nOF\n$(git push -f)\nEOF", []],
  ['cat <<"E"\\\nOF\n$(git push -f)\nEOF', []],
  ['cat <<E\\\\\nOF\n$(git push -f)\nE\\', []],
  ['cat <<EOF\n\\$\\\n(git push -f)\nEOF', []],
  ['echo $\\\n((1+2))', []],
  ['(\\\n(1+2))', []],
];

/** The git commands the analysis reports, as `git …` (wrappers dropped). */
function gitCommands(text: string): string[] {
  return analyzeCommandLine(text)
    .filter((c) => c.argv[0] === 'git')
    .map((c) => c.argv.join(' '));
}

describe('line continuations: the analysis', () => {
  it.each([...hidden, ...benign])('%j → %j', (text, git) => {
    expect(gitCommands(text)).toEqual(git);
  });

  it('a continuation inside `$((`/`))` keeps the arithmetic reading', () => {
    expect(analyzeCommandLine('echo $\\\n((1+2))')[0]?.dynamic).toEqual([1]);
    expect(analyzeCommandLine('(\\\n(x = 1 ))')).toEqual([]);
  });

  it.each<[string, string]>([
    ['echo \\$\\\n(git push -f)', 'syntax'], // an escaped `$`, then `(`: bash rejects it too
    ['echo $\\\n(git push -f', 'unterminated'],
    ['cat <\\\n(git push -f', 'unterminated'],
  ])('%j → %s', (text, code) => {
    expect(errorCode(text)).toBe(code);
  });
});

// ---- the same rows through real bash ----------------------------------------------------------

const bash = spawnSync('bash', ['-c', 'echo ok'], { encoding: 'utf8' }).stdout === 'ok\n';
const dir = bash ? fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-cont-')) : '';
afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

/** The git commands bash runs for `text`, with a fake git that logs its arguments. */
function bashRuns(text: string): string[] {
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'log');
  if (!fs.existsSync(bin)) {
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'git'), '#!/bin/sh\necho "git $*" >> "$GIT_LOG"\n', { mode: 0o755 });
  }
  fs.writeFileSync(log, '');
  try {
    execFileSync('bash', ['-c', text], {
      cwd: dir,
      env: { PATH: `${bin}:/usr/bin:/bin`, GIT_LOG: log, HOME: dir },
      stdio: ['ignore', 'ignore', 'ignore'],
      timeout: 10_000,
    });
  } catch {
    // A failing command (`1+2: command not found`) still tells which git commands ran.
  }
  return fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
}

describe.skipIf(!bash)('line continuations: bash runs the same git commands', () => {
  it.each([...hidden, ...benign])('%j', (text, git) => {
    expect(bashRuns(text)).toEqual(git);
  });
});
