import { describe, expect, it } from 'vitest';
import { changedDirectories } from './directories.ts';
import { analyzeCommandLine } from './index.ts';

describe('changedDirectories', () => {
  it.each([
    ['cd /x && git st', ['/x']],
    ['cd a; cd b; git st', ['a', 'b', 'a/b']],
    ['cd a; cd /b', ['a', '/b']],
    ['cd -P -- ../r && git st', ['../r']],
    ['pushd /x >/dev/null', ['/x']],
    ['cd "$D"', [null]],
    ['cd -', [null]],
    ['pushd +1', [null]],
    ['cd', []],
    ['sudo cd /x', ['/x']],
    ['echo cd /x', []],
    ['git status', []],
  ] as [string, (string | null)[]][])('%s', (line, want) => {
    expect(changedDirectories(analyzeCommandLine(line))).toEqual(want);
  });
});
