/**
 * End to end through the built bundle (`buckler check --json`): line continuations that hide a
 * force push are seen through (and their benign look-alikes stay allowed), and inputs whose
 * analysis would multiply are denied with a message that says why (issue #10).
 */
import { describe, expect, it } from 'vitest';
import { checkJson, e2eDir } from './e2e.testing.ts';

const home = e2eDir('buckler-bounds-');

function check(command: string): { decision: string; rule: string | null; error?: { code: string; message: string }; agent_message?: string } {
  return checkJson(command, home).output as ReturnType<typeof check>;
}

describe('line continuations (built CLI)', () => {
  it.each<[string, string, string | null]>([
    ['echo $\\\n(git push -f)', 'deny', 'agent-git/no-force-push'],
    ['echo "$\\\n(git push -f)"', 'deny', 'agent-git/no-force-push'],
    ['G=git; $\\\n{G} push -f', 'deny', 'agent-git/no-force-push'],
    ['GI=x; GIT=git; $GI\\\nT push -f', 'deny', 'agent-git/no-force-push'],
    ['cat <<EOF\n$\\\n(git push -f)\nEOF', 'deny', 'agent-git/no-force-push'],
    ['cat <<E\\\nOF\n$(git push -f)\nEOF', 'deny', 'agent-git/no-force-push'],
    ['cat <\\\n(git push -f)', 'deny', 'agent-git/no-force-push'],
    // Benign look-alikes: quoted, escaped, or a quoted here-document delimiter.
    ["echo '$\\\n(git push -f)'", 'allow', null],
    ['echo "\\$\\\n(git push -f)"', 'allow', null],
    ["cat <<'E'\\\nOF\n$(git push -f)\nEOF", 'allow', null],
    ["echo 'git push -f' > notes.txt", 'allow', null],
    ['echo a\\\nb', 'allow', null],
  ])('%j → %s', (command, decision, rule) => {
    const out = check(command);
    expect(out.decision).toBe(decision);
    expect(out.rule).toBe(rule);
    expect(out.error).toBeUndefined();
  });
});

describe('bounded analysis (built CLI)', () => {
  const fill = (unit: string, prefix = ''): string => prefix + unit.repeat(Math.floor((65_000 - prefix.length) / unit.length));

  it.each<[string, string]>([
    ['64 KiB of {1..1000}', fill(' {1..1000}', 'git push -f')],
    ['a 15 KB variable run by eval again and again', fill(';eval "$x"', `x='${'git status;'.repeat(1400)}'`)],
    ['find -exec find -exec …', `${fill('find . -exec ')}git push ;`],
  ])('%s → deny, too_complex, with the reason', (_name, command) => {
    const out = check(command);
    expect(out.decision).toBe('deny');
    expect(out.error?.code).toBe('parse_error');
    expect(out.error?.message).toMatch(/^command needs too much analysis: .* went past the limit of \d+ units of work/);
    expect(out.agent_message).toMatch(/spell out large brace expansions/);
  });

  it('a plain brace expansion is still judged by its words', () => {
    expect(check('git push {-f,origin}').decision).toBe('deny');
    expect(check('mkdir -p src/{a,b}/{c,d}').decision).toBe('allow');
  });
});
