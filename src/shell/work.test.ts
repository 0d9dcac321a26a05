/**
 * The work budget (work.ts): inputs within the 64 KiB text limit whose analysis would multiply
 * (brace expansion, variables expanded again and again, the same text parsed by eval or bash -c
 * many times, long wrapper chains, tens of thousands of commands) fail closed with
 * `too_complex`, after bounded work; realistic inputs of the same size do not. No timing
 * assertions: the per-test timeout is the watchdog (docs/performance.md has the figures).
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine, DEFAULT_LIMITS, ShellParseError } from './index.ts';
import { COMMAND_COST } from './work.ts';
import { errorCode } from './show.testing.ts';
import { realisticScript as script } from './realistic-script.testing.ts';

const WATCHDOG = 10_000;
const LIMIT = DEFAULT_LIMITS.maxBytes - 64;
/** `prefix`, then `unit` as many times as fits under the text limit, then `suffix`. */
const fill = (unit: string, prefix = '', suffix = ''): string =>
  prefix + unit.repeat(Math.floor((LIMIT - prefix.length - suffix.length) / unit.length)) + suffix;
// 15.4 KB: under the 16 KiB a word may take from variables (word-value.ts), so the budget answers.
const big = 'git status;'.repeat(1400);


describe('work budget: multiplying inputs fail closed (too_complex)', () => {
  it.each<[string, string]>([
    ['64 KiB of {1..1000} words', fill(' {1..1000}', 'echo')],
    ['64 KiB of {1..1000} words after git push -f', fill(' {1..1000}', 'git push -f')],
    ['64 KiB of commands with {1..1000}', fill('echo {1..1000};')],
    ['512-word {a,b} products, repeated', fill(' {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}', 'echo')],
    ['a 15 KB variable expanded again and again', fill(' $x', `x=${'x'.repeat(15_000)}; echo`)],
    ['eval of a 15 KB variable, repeated', fill(';eval "$x"', `x='${big}'`)],
    ['bash -c of a 15 KB variable, repeated', fill(';bash -c "$x"', `x='${big}'`)],
    ['run-time bash -c text, repeated', fill(';bash -c "$y $x"', `x='${big}'`)],
    ['git -c alias.x of a 15 KB variable, repeated', fill(';git -c alias.x="$a" x', `a='!${big}'`)],
    ['eval eval … of 64 KB', `${'eval '.repeat(7)}'${'git status;'.repeat(5900)}'`],
    ['find -exec find -exec …', fill('find . -exec ', '', 'git push ;')],
    // Found by the million-input fuzz: each level hands the long rest on (UNWRAP_WORD_COST).
    ['find -exec find … × 370 in backticks (15 KB)', `echo \`docker exec ctr ${'find . -maxdepth 0 -exec find . -maxdep '.repeat(370)}git push -f \\; \\;\``],
    ['env env env …', fill('env ', '', 'git push')],
    ['watch watch watch …', fill('watch ', '', 'git push')],
    ['32,000 commands', fill('a;')],
    ['16,000 command substitutions', fill('$(a)', 'echo ')],
    ['16,000 backticks', fill(' `a`', 'echo')],
    ['5,900 git commands', 'git status\n'.repeat(5900)],
    ['a 64 KB here-document run by bash', `bash <<E\n${'git status\n'.repeat(5900)}E`],
    ['echo … | sh | sh | sh …', fill(' | sh', 'echo git push -f')],
    ['curl … | python3 | python3 …', fill(' | python3', 'curl https://x/a.py')],
    ['3,000 commands naming a script, then 3,000 runs of it', `${'$E x.sh;'.repeat(3000)}${'bash x.sh;'.repeat(3000)}`],
    ['3,000 copies of a script, each run', fill('cp a x.sh; bash x.sh;')],
    ['python3 a.py; … (each file looked up in what the line wrote)', fill('python3 a.py;')],
  ])('%s', (_name, text) => {
    expect(text.length).toBeLessThanOrEqual(DEFAULT_LIMITS.maxBytes);
    expect(errorCode(text)).toBe('too_complex');
  }, WATCHDOG);

  it('a value doubled by export fails closed (the copy bound of word-value.ts answers first)', () => {
    expect(errorCode(`export x=abcdefgh; ${'export x=$x$x; '.repeat(40)}`)).toBe('too_large');
  });

  it('says what went past the budget, and why', () => {
    try {
      analyzeCommandLine(fill(' {1..1000}', 'echo'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ShellParseError);
      expect((e as ShellParseError).message).toMatch(/^command needs too much analysis: expanding words went past the limit of 1048576 units of work \(/);
    }
  });
});

describe('work budget: linear inputs of the same size still pass', () => {
  it.each<[string, string]>([
    ['a realistic 64 KB script', script(LIMIT)],
    ['64 KiB of unmatched {', fill('{', 'echo ')],
    ['64 KiB of {x without a closing brace', fill('{x', 'echo ', '}')],
    ['{{{…,…}}} 30,000 deep', `echo ${'{'.repeat(30_000)},${'}'.repeat(30_000)}`],
    ['a 60 KB brace alternative', `echo {${'a'.repeat(30_000)},${'b'.repeat(29_000)}}`],
    ['64 KiB of here-document bodies', `cat <<E\n${'$x '.repeat(21_000)}\nE`],
    ['a here-document of 21,000 continuation lines', `cat <<E\n${'x\\\n'.repeat(21_000)}E\n`],
    ['64 KiB of comments', fill('#a\n')],
    ['1,500 xargs sh -c', Array(1500).fill("xargs sh -c 'git status'").join(';')],
  ])('%s', (_name, text) => {
    expect(text.length).toBeLessThanOrEqual(DEFAULT_LIMITS.maxBytes);
    expect(errorCode(text)).toBe('ok');
  }, WATCHDOG);

  it('brace expansion is still exact', () => {
    expect(analyzeCommandLine('echo {a,b}{1..3} x{,y}z {a{b,c}')[0]?.argv).toEqual(
      ['echo', 'a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'xz', 'xyz', '{ab', '{ac'],
    );
  });
});

describe('work budget: options', () => {
  it('honours maxWork', () => {
    expect(errorCode('echo {1..100}', { maxWork: 1000 })).toBe('too_complex');
    expect(errorCode('echo {1..100}', { maxWork: 20_000 })).toBe('ok');
  });

  it('every command reported is charged, however it was found (redirections alone, alternatives, xargs, pipes into a shell, scripts written earlier)', () => {
    for (const text of [
      '> a; > b; { :; } > c; >> d',
      'if x; then f=-f; else f=-n; fi; git clean $f ${g:-.} ${h:-..}',
      'echo a b c | xargs -I{} rm {}; echo d e | xargs rm',
      'curl -s https://x/i.sh | tee i.sh | sh; bash i.sh; python3 -',
      'curl -o t.py https://x/t.py && python3 t.py; node - < t.js',
    ]) {
      const work = { used: 0 };
      const n = analyzeCommandLine(text, { work }).length;
      expect(n, text).toBeGreaterThan(2);
      expect(work.used, text).toBeGreaterThanOrEqual(n * COMMAND_COST);
    }
  });

  it('finding who wrote a script that runs is charged per command looked at', () => {
    // Each `bash x.sh` looks at every earlier command naming x.sh: 1,000 more units or so per run.
    const used = (runs: number): number => {
      const work = { used: 0 };
      analyzeCommandLine(`${'$E x.sh;'.repeat(1000)}${'bash x.sh;'.repeat(runs)}`, { work });
      return work.used;
    };
    const one = used(1);
    const two = used(2);
    const three = used(3);
    expect(two - one).toBeGreaterThan(1000);
    expect(three - two).toBeGreaterThan(1000);
  });

  it('a counter shared by several analyses bounds them together', () => {
    const work = { used: 0 };
    const text = 'git status\n'.repeat(1700);
    expect(errorCode(text, { work })).toBe('ok');
    expect(work.used).toBeGreaterThan(0);
    expect(errorCode(text, { work })).toBe('ok');
    expect(errorCode(text, { work })).toBe('too_complex');
  });

  it('script files larger than the work left are opaque, never read past the budget', () => {
    const body = `#!/bin/sh\n${'git status\n'.repeat(5000)}`; // 55 KB each
    const reads: string[] = [];
    const readScript = (p: string): string => {
      reads.push(p);
      return body;
    };
    const cmds = analyzeCommandLine(Array.from({ length: 16 }, (_, i) => `bash s${i}.sh`).join('; '), { readScript, maxWork: 1 << 22 });
    const opaque = cmds.filter((c) => c.opaque).map((c) => c.argv[0]);
    expect(reads).toHaveLength(16);
    expect(opaque.length).toBeGreaterThan(0);
    expect(opaque.at(-1)).toBe('s15.sh');
  }, WATCHDOG);
});
