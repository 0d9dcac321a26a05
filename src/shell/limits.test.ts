/**
 * Blow-up guards: pathological nesting and size finish quickly with the right answer or the
 * right error (`too_deep`, `too_large`). No timing assertions; the per-test timeout is the watchdog.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine } from './index.ts';
import { errorCode, show } from './show.testing.ts';

const WATCHDOG = 10_000;
const nest = (n: number, open: string, mid: string, close: string): string => open.repeat(n) + mid + close.repeat(n);
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const bashC = (n: number, inner: string): string => {
  let s = inner;
  for (let i = 0; i < n; i++) s = `bash -c ${sq(s)}`;
  return s;
};

describe('depth: 8 levels of substitution / bash -c / eval', () => {
  it.each<[string, string, string]>([
    ['$( ×8', `echo ${nest(8, '$(', 'git push', ')')}`, 'ok'],
    ['$( ×9', `echo ${nest(9, '$(', 'git push', ')')}`, 'too_deep'],
    ['$( ×5000', `echo ${nest(5000, '$(', 'x', ')')}`, 'too_deep'],
    ['<( ×9', `cat ${nest(9, '<(', 'git push', ')')}`, 'too_deep'],
    ['backticks ×9', 'echo ' + '`echo \\`echo \\\\\\`echo \\\\\\\\\\\\\\`x\\\\\\\\\\\\\\`\\\\\\`\\``', 'ok'],
    ['bash -c ×8', bashC(8, 'git push'), 'ok'],
    ['bash -c ×9', bashC(9, 'git push'), 'too_deep'],
    ['eval ×40', `${'eval '.repeat(40)}git push`, 'too_deep'],
    ['eval ×9', `${'eval '.repeat(9)}git push`, 'too_deep'],
    ['mixed ×9', `bash -c ${sq(`eval ${sq(`echo $(${bashC(6, 'git push')})`)}`)}`, 'too_deep'],
  ])('%s → %s', (_name, text, code) => {
    expect(errorCode(text)).toBe(code);
  }, WATCHDOG);

  it('reports the innermost command at the deepest accepted level', () => {
    expect(show(bashC(8, 'git push')).at(-1)).toBe(`[${Array(8).fill('bash -c').join(' > ')}] git push`);
  });

  it('honours a custom maxDepth', () => {
    expect(errorCode(bashC(3, 'x'), { maxDepth: 2 })).toBe('too_deep');
    expect(errorCode(bashC(3, 'x'), { maxDepth: 3 })).toBe('ok');
  });
});

describe('structural nesting', () => {
  it.each<[string, string, string]>([
    ['( ( ( ×5000', nest(5000, '( ', 'x', ' )'), 'too_deep'],
    ['(((( ×5000 (arithmetic)', nest(5000, '(', '1', ')'), 'ok'],
    ['{ ×5000', nest(5000, '{ ', 'x', '; }'), 'too_deep'],
    ['if ×3000', nest(3000, 'if a; then ', 'x', '; fi'), 'too_deep'],
    ['while ×3000', nest(3000, 'while a; do ', 'x', '; done'), 'too_deep'],
    ['[[ ( ×5000', `[[ ${nest(5000, '( ', 'a', ' )')} ]]`, 'too_deep'],
    ['${x:- ×5000', `echo ${nest(5000, '${x:-', 'y', '}')}`, 'too_deep'],
    ['$(( ×200', `echo ${nest(200, '$((', '1', '))')}`, 'too_deep'],
    ['arithmetic parens ×3000', `echo $((${nest(3000, '(', '1', ')')}))`, 'ok'],
    ['{ ×60', nest(30, '{ ', 'x', '; }'), 'ok'],
  ])('%s → %s', (_name, text, code) => {
    expect(errorCode(text)).toBe(code);
  }, WATCHDOG);

  it('`$((` read as `$( (` is retried once per offset, not exponentially', () => {
    // T(k+1) = $(( (T(k)) ) ): every level first looks like arithmetic, then is a subshell.
    let t = 'git push';
    for (let i = 0; i < 40; i++) t = `$(( (${t}) ) )`;
    const cmds = analyzeCommandLine(`echo ${t}`, { maxDepth: 64, maxNesting: 1000 });
    expect(cmds[0]?.argv).toEqual(['git', 'push']);
    expect(cmds[0]?.via).toHaveLength(40);
  }, WATCHDOG);

  it('deep `$((` arithmetic with a raised nesting bound stays linear', () => {
    const cmds = analyzeCommandLine(`echo ${nest(500, '$((', '$(git push)', '))')}`, { maxNesting: 2000 });
    expect(cmds[0]?.argv).toEqual(['git', 'push']);
  }, WATCHDOG);
});

describe('size', () => {
  const mb = 'a'.repeat(1 << 20);

  it('rejects 1 MiB by default, at once', () => {
    expect(errorCode(`echo ${mb}`)).toBe('too_large');
  });

  it('parses 1 MiB when allowed', () => {
    const big = { maxBytes: 4 << 20, maxWork: Infinity };
    expect(analyzeCommandLine(`echo ${mb}`, big)[0]?.argv[1]).toHaveLength(1 << 20);
    expect(analyzeCommandLine(`echo '${mb}'`, big)).toHaveLength(1);
  }, WATCHDOG);

  it('parses a 440 KB script of 40,000 lines when allowed', () => {
    expect(analyzeCommandLine('git status\n'.repeat(40_000), { maxBytes: 4 << 20, maxWork: Infinity })).toHaveLength(40_000);
  }, WATCHDOG);

  it('counts bytes, not characters', () => {
    // 'é' is 2 bytes in UTF-8: 35,000 of them are under the 64 KiB cap in characters, over it in bytes.
    expect(errorCode(`echo ${'é'.repeat(30_000)}`)).toBe('ok');
    expect(errorCode(`echo ${'é'.repeat(35_000)}`)).toBe('too_large');
  });

  it('handles a long pipeline, many here-documents and a long list', () => {
    const big = { maxBytes: 4 << 20, maxWork: Infinity };
    expect(analyzeCommandLine(Array(20_000).fill('cat').join(' | '), big)).toHaveLength(20_000);
    expect(analyzeCommandLine(`${'cat <<E\n'.repeat(1000)}${'E\n'.repeat(1000)}`, big)).toHaveLength(1000);
    expect(analyzeCommandLine(Array(20_000).fill('a').join(' && '), big)).toHaveLength(20_000);
  }, WATCHDOG);

  it('bounds brace expansion', () => {
    expect(errorCode(`echo ${'{a,b}'.repeat(20)}`)).toBe('too_large');
    expect(errorCode('echo {1..100000}')).toBe('too_large');
    expect(analyzeCommandLine(`echo ${'{a,b}'.repeat(9)}`)[0]?.argv).toHaveLength(513);
  });
});
