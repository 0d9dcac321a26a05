import { describe, expect, it } from 'vitest';
import { dockerRuns, shellWord } from './dockerfile.ts';

const at = (text: string): Array<[string, string, number, number]> => dockerRuns(text).map((p) => [p.label, p.text, ...(p.at[0] as [number, number])]);

describe('dockerRuns', () => {
  it.each([
    ['FROM x\nRUN make install\n', [['RUN', 'make install', 2, 5]]],
    ['run  echo hi', [['RUN', 'echo hi', 1, 6]]],
    ['RUN --mount=type=cache,target=/c --network=none make', [['RUN', 'make', 1, 49]]],
    ['RUN a && \\\n    b\n', [['RUN', 'a && \\\n    b', 1, 5]]],
    ['RUN a \\\n# a comment line inside\n  b\n', [['RUN', 'a \\\n  b', 1, 5]]],
    ['RUN ["git", "commit", "-m", "an image"]', [['RUN (exec form)', "git commit -m 'an image'", 1, 5]]],
    ['RUN <<EOF\nset -e\ngit push --force\nEOF\nRUN ls', [['RUN', 'set -e\ngit push --force', 2, 1], ['RUN', 'ls', 5, 5]]],
    ['RUN cat <<EOF > /f\nhello\nEOF\n', [['RUN', 'cat <<EOF > /f\nhello\nEOF', 1, 5]]],
    // Look-alikes: not RUN, a comment, a CMD, a word in a label.
    ['# RUN git push --force\nCMD ["git", "push", "--force"]\nLABEL run="git push --force"\nENTRYPOINT git push\n', []],
    // Another shell: PowerShell lines are not shell text; a later SHELL back to bash is.
    ['SHELL ["pwsh", "-Command"]\nRUN Remove-Item x\nSHELL ["/bin/bash", "-c"]\nRUN rm x', [['RUN', 'rm x', 4, 5]]],
    ['# escape=`\nRUN del x', []],
  ] as const)('%j', (text, want) => {
    expect(at(text)).toEqual(want);
  });

  it('each continued line keeps its own line and column', () => {
    const [p] = dockerRuns('FROM x\nRUN apt-get update && \\\n    curl -fsSL https://x | sh\n');
    expect(p?.at).toEqual([
      [2, 5],
      [3, 1],
    ]);
  });
});

describe('shellWord', () => {
  it.each([
    ['git', 'git'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
  ])('%j → %j', (w, want) => expect(shellWord(w)).toBe(want));
});
