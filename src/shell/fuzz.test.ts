/**
 * Property tests (fast-check, fixed seeds so runs are reproducible):
 *  - random token soup: analysis returns well-formed commands or throws ShellParseError, nothing else;
 *  - a command after any separator, following any valid prefix, is always found;
 *  - a command behind any chain of wrappers and nested shells is always found.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine } from './index.ts';
import { ShellParseError, type ShellCommand } from './types.ts';

const TOKENS = [
  'git', ' push', ' --force', 'a', ' b', 'EOF', 'x=1', ' ', '\t', '\n', ';', '&&', '||', '|', '|&', '&', '(', ')',
  '{ ', ' }', '$(', '$((', '))', '<(', '>(', '>', '<', '<<', '<<-', '<<<', '2>&1', '&>', "'", '"', "$'", '`', '\\',
  '#', '$', '${', '}', '[[ ', ' ]]', '((', 'if ', 'then ', 'elif ', 'else ', 'fi', 'for ', ' in ', 'do ', 'done',
  'while ', 'until ', 'case ', 'esac', ';;', ';&', 'function ', 'select ', 'coproc ', 'time ', '! ', '=~', '*', '?',
  '[', ']', '\\\n', '{a,b}', '$x', 'f()', '=', ',', ':', 'bash -c ', 'eval ', 'sudo ', 'env ', 'xargs ', '$[',
  '${ ', 'a[', '-S', '\u00e9', '\r',
];

const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((a) => a.join(''));

function wellFormed(cmds: ShellCommand[]): boolean {
  return cmds.every(
    (c) =>
      Array.isArray(c.argv) &&
      c.argv.length > 0 &&
      c.argv.every((a) => typeof a === 'string') &&
      c.dynamic.every((i) => Number.isInteger(i) && i >= 0 && i < c.argv.length) &&
      typeof c.opaque === 'boolean' &&
      c.via.every((v) => typeof v === 'string' && v !== ''),
  );
}

/** Counts outcomes so the report can say how many inputs were accepted and rejected. */
const outcome = { accepted: 0, rejected: 0 };

describe('token soup', () => {
  it('either analyses into well-formed commands or throws ShellParseError', () => {
    fc.assert(
      fc.property(soup, (text) => {
        try {
          const cmds = analyzeCommandLine(text);
          outcome.accepted++;
          return wellFormed(cmds);
        } catch (e) {
          outcome.rejected++;
          if (!(e instanceof ShellParseError)) throw e;
          return typeof e.offset === 'number' && e.offset >= 0 && e.offset <= text.length;
        }
      }),
      { numRuns: 4000, seed: 20261129 },
    );
    // Both sides of the grammar get exercised.
    expect(outcome.accepted).toBeGreaterThan(200);
    expect(outcome.rejected).toBeGreaterThan(200);
  });
});

// ---- valid prefixes ------------------------------------------------------------------------------

const word = fc.constantFrom('ls', 'echo', 'x', '"a b"', "'c;d'", '$HOME', '"$(pwd)"', '`date`', '${x:-y}', '$((1+2))', 'a\\ b', '{1,2}', '--', 'EOF', 'done', 'fi');
const simple = fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => `echo ${ws.join(' ')}`);

/** A command followed by `;`, unless it already ends with a newline (here-document, comment). */
const t = (c: string): string => (c.endsWith('\n') ? c : `${c};`);

const command: fc.Arbitrary<string> = fc.letrec<{ cmd: string }>((tie) => ({
  cmd: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    simple,
    simple.map((s) => `${s} >/dev/null 2>&1`),
    simple.map((s) => `x=$(${s})`),
    fc.tuple(tie('cmd'), tie('cmd')).map(([a, b]) => `{ ${t(a)} ${t(b)} }`),
    tie('cmd').map((a) => `(${a})`),
    fc.tuple(tie('cmd'), tie('cmd')).map(([a, b]) => `if ${t(a)} then ${t(b)} fi`),
    tie('cmd').map((a) => `for i in 1 2; do ${t(a)} done`),
    tie('cmd').map((a) => `while false; do ${t(a)} done`),
    tie('cmd').map((a) => `case x in x) ${a};; *) ;; esac`),
    tie('cmd').map((a) => `f() { ${t(a)} }`),
    tie('cmd').map((a) => `${a} # comment; git push --force\n`),
    fc.constantFrom("cat <<'EOF'\ngit push --force\nEOF\n", 'cat <<EOF\n$(ls)\nEOF\n', 'cat <<-X\n\tbody\n\tX\n'),
    tie('cmd').map((a) => `{ ${t(a)} } | cat`),
    tie('cmd').map((a) => `[[ -n "$(${a})" ]]`),
  ),
})).cmd;

const SEPARATORS = ['; ', '\n', ' && ', ' || ', ' & ', ' | ', ';\n', ' &\n'];

describe('a command after any separator is found', () => {
  it('following any valid prefix', () => {
    fc.assert(
      fc.property(command, fc.constantFrom(...SEPARATORS), (prefix, sep) => {
        // A prefix ending in a here-document or comment already ends with a newline.
        const text = `${prefix.replace(/\n$/, '')}${prefix.endsWith('\n') ? '\n' : sep}git push --force`;
        const found = analyzeCommandLine(text).some((c) => c.via.length === 0 && c.argv.join(' ') === 'git push --force');
        return found;
      }),
      { numRuns: 1500, seed: 7 },
    );
  });
});

// ---- wrappers ------------------------------------------------------------------------------------

/** Single-quotes a string for the shell. */
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const XARGS = 8;
const FIND = 24;
/** Program wrappers take a simple command; shell syntax wraps any command line. */
const PROGRAM: Array<(inner: string) => string> = [
  (c) => `sudo -u root ${c}`,
  (c) => `env -i A=1 ${c}`,
  (c) => `nice -n 5 ${c}`,
  (c) => `nohup ${c}`,
  (c) => `timeout -s KILL 5 ${c}`,
  (c) => `command ${c}`,
  (c) => `stdbuf -oL ${c}`,
  (c) => `setsid ${c}`,
  (c) => `xargs -I{} ${c}`,
  (c) => `bash -c ${sq(c)}`,
  (c) => `sh -ec ${sq(c)}`,
  (c) => `eval ${sq(c)}`,
  (c) => `strace -f -o /tmp/t ${c}`,
  (c) => `ltrace -o /tmp/t ${c}`,
  (c) => `nsenter -t 1 -m -u ${c}`,
  (c) => `unbuffer ${c}`,
  (c) => `caffeinate -i ${c}`,
  (c) => `flock -w 5 /tmp/l ${c}`,
  (c) => `chrt -f 10 ${c}`,
  (c) => `taskset -c 0 ${c}`,
  (c) => `ionice -c 3 ${c}`,
  (c) => `docker exec -u root box ${c}`,
  (c) => `podman exec -it box ${c}`,
  (c) => `kubectl exec -it pod -c main -- ${c}`,
  (c) => `find . -maxdepth 0 -exec ${c} \\;`,
  (c) => `runuser -u app -- ${c}`,
];
const SYNTAX: Array<(inner: string) => string> = [
  (c) => `time ${c}`,
  (c) => `echo ${sq(c)} | bash`,
  (c) => `bash <<< ${sq(c)}`,
  (c) => `x=$(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `true && ${c}`,
  (c) => `ssh -p 22 host ${sq(c)}`,
  (c) => `sg wheel -c ${sq(c)}`,
  (c) => `npx -c ${sq(c)}`,
  (c) => `npm exec --call=${sq(c)}`,
  (c) => `git submodule foreach --recursive ${sq(c)}`,
  (c) => `git rebase -x ${sq(c)} main`,
  (c) => `git bisect run ${sq(c)}`,
  (c) => `parallel -j 2 ::: ${sq(c)}`,
  (c) => `flock /tmp/l -c ${sq(c)}`,
  (c) => `script -qc ${sq(c)} /dev/null`,
  (c) => `su -c ${sq(c)} root`,
  (c) => `watch -n 1 ${sq(c)}`,
  (c) => `trap ${sq(c)} EXIT`,
];
/** The simple command a program wrapper can run: a command line goes through `bash -c`. */
interface Built {
  text: string;
  simple: boolean;
}
const WRAP: Array<(inner: Built) => Built> = [
  ...PROGRAM.map((w) => (b: Built): Built => ({ text: w(b.simple ? b.text : `bash -c ${sq(b.text)}`), simple: true })),
  ...SYNTAX.map((w) => (b: Built): Built => ({ text: w(b.text), simple: false })),
];

describe('a command behind wrappers is found', () => {
  it('through any chain of up to 4 wrappers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: WRAP.length - 1 }), { maxLength: 4 }), (chain) => {
        // `xargs -I{} xargs -I{} …`: the inner `-I{}` is itself replaced at run time (opaque).
        fc.pre(chain.filter((k) => k === XARGS).length < 2);
        // `find -exec … xargs -I{} …`: find replaces the `{}` of `-I{}` at run time (opaque) too.
        fc.pre(!(chain.includes(XARGS) && chain.includes(FIND)));
        const built = chain.reduce((inner, k) => (WRAP[k] ?? ((b: Built) => b))(inner), { text: 'git push --force', simple: true });
        return analyzeCommandLine(built.text).some((c) => c.argv.join(' ') === 'git push --force' && !c.opaque);
      }),
      { numRuns: 1500, seed: 11 },
    );
  });
});
