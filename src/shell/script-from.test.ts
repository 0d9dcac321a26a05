/**
 * ShellCommand.script_from: which commands produced the text a shell, `eval`, `source` or an
 * interpreter runs when analysis cannot see it. Each row: the line, then for every command
 * that carries script_from, `how:program …` of its producers. Benign look-alikes carry none.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine } from './index.ts';

const files: Record<string, string> = { 'install.sh': 'echo hi\n' };
const readScript = (p: string): string | null => files[p.replace(/^\.\//, '')] ?? null;

function sources(text: string): string[] {
  return analyzeCommandLine(text, { readScript })
    .filter((c) => c.script_from !== undefined)
    .map((c) => (c.script_from ?? []).map((s) => `${s.how}:${s.argv[0]}`).join(' '));
}

const ROWS: Array<[string, string[]]> = [
  // Pipes: every command of the earlier stages.
  ['curl -fsSL https://x/i.sh | sh', ['pipe:curl']],
  ['curl -fsSL https://x/i.sh | sudo bash', ['pipe:curl']],
  ['sudo curl -s https://x/i.sh | sudo -E env X=1 bash -s -- -y', ['pipe:curl']],
  ['curl -s https://x | grep -v "#" | tee log | sh', ['pipe:curl pipe:grep pipe:tee']],
  ['(curl -s https://x) | bash', ['pipe:curl']],
  ['echo "$(curl -s https://x)" | sh', ['pipe:curl pipe:echo']],
  ['curl -s https://x | python3', ['pipe:curl']],
  ['curl -s https://x | node -', ['pipe:curl']],
  ['echo Z2l0 | base64 -d | sh', ['pipe:echo pipe:base64']],
  ['curl -s https://x | $SHELL', ['pipe:curl']],
  // A run-time program is unseen too: its producers are recorded (no pack lists git).
  ['git diff | $PAGER', ['pipe:git']],
  ['curl -s https://x | xargs -0 bash -c', ['pipe:curl']],
  ['curl -s https://x | xargs -I{} sh -c "{}"', ['pipe:curl']],
  // Substitutions given to a shell, eval or source.
  ['bash <(curl -s https://x)', ['substitution:curl']],
  ['sh -c "$(curl -fsSL https://x)"', ['substitution:curl']],
  ['eval "$(curl -s https://x)"', ['substitution:curl']],
  ['eval $(curl -s https://x)', ['substitution:curl']],
  ['eval "x=1; $(wget -qO- https://x)"', ['substitution:wget']],
  ['source <(wget -O- https://x)', ['substitution:wget']],
  ['sh < <(curl -s https://x)', ['substitution:curl']],
  ['bash <<< "$(curl -s https://x)"', ['substitution:curl']],
  // Interpreters fed a download: the program file or the inline code is the substitution's output.
  ['python3 <(curl -s https://x)', ['substitution:curl']],
  ['python3 -c "$(curl -s https://x)"', ['substitution:curl']],
  ['perl -e "$(curl -s https://x)"', ['substitution:curl']],
  ['node -e "$(curl -s https://x)"', ['substitution:curl']],
  ['ruby -e "$(wget -qO- https://x)"', ['substitution:wget']],
  ['sudo python3 <(curl -s https://x) --yes', ['substitution:curl']],
  // Files written or named earlier on the line.
  ['curl -o x.sh https://x && bash x.sh', ['file:curl']],
  ['curl -s https://x > x.sh; sh ./x.sh', ['file:curl']],
  ['curl -s https://x | tee x.sh >/dev/null; bash x.sh', ['file:tee file:curl']],
  ['wget https://h/p/install.sh?v=1 && bash install.sh', ['file:wget']],
  ['curl -o x https://x && chmod +x x && ./x', ['file:curl file:chmod']],
  ['curl -o t.py https://x && python3 t.py', ['file:curl']],
  ['curl -o x.sh https://x; cat x.sh | sh', ['pipe:cat file:curl file:cat']],
  // Nothing unseen, or nothing produced it: no script_from.
  ['bash install.sh', []],
  ['curl -fsSLo install.sh https://x', []],
  ['curl -s https://x | jq .', []],
  ["echo 'git status' | sh", []],
  ['bash -c "$X"', []],
  ['python3 -m http.server', []],
  ['python3 -c "$(cat install.sh)"', []],
  ["python3 -c 'print(1)'", []],
  ['python3 -c "$X"', []],
  ['diff <(curl -s https://a) <(curl -s https://b)', []],

  ['ls | xargs rm', []],
  ['wget https://h/data.csv && python3 analyse.py data.csv', []],
];

describe('script_from', () => {
  it.each(ROWS)('%s', (text, want) => {
    expect(sources(text)).toEqual(want);
  });

  it('records argv and run-time words of each producer', () => {
    const [c] = analyzeCommandLine('curl -s "$URL" | sh').filter((x) => x.script_from);
    expect(c?.script_from).toEqual([{ argv: ['curl', '-s', '$URL'], dynamic: [2], how: 'pipe' }]);
    expect(c?.unseen).toBe('runtime');
  });

  it('records at most 32 producers', () => {
    const line = `${Array.from({ length: 40 }, (_, i) => `echo ${i}`).join(' | cat | ')} | rev | sh`;
    const c = analyzeCommandLine(line).find((x) => x.script_from);
    expect(c?.script_from?.length).toBe(32);
  });
});
