import { describe, expect, it } from 'vitest';
import { pipelines, statements } from './decide.ts';

const slices = (text: string, ranges: Array<[number, number]> | null): string[] | null => ranges?.map(([s, e]) => text.slice(s, e).trim()) ?? null;

describe('statements: the top-level commands of a piece', () => {
  it.each([
    ['a\nb; c', ['a', 'b;', 'c']],
    ['cd x && rm -rf y\n# note\nls', ['cd x && rm -rf y\n# note', 'ls']],
    ['cat <<EOF\nbody\nEOF\nnext', ['cat <<EOF\nbody\nEOF', 'next']],
    ['if x; then\n  y\nfi\nz', ['if x; then\n  y\nfi', 'z']],
  ])('%j', (text, want) => expect(slices(text, statements(text))).toEqual(want));

  it('null when the text does not parse', () => expect(statements('if then')).toBeNull());
});

describe('pipelines: inside one statement, compound commands and functions opened', () => {
  it.each([
    ['apt-get update && curl x | bash', ['apt-get update', 'curl x | bash']],
    ['if [ -n "$1" ]; then\n  git clean -fdx\nfi', ['[ -n "$1" ]', 'git clean -fdx']],
    ['f() { rm -rf /opt/x; }', ['rm -rf /opt/x']],
    ['for i in a b; do echo $i; done', ['echo $i']],
    ['git status', ['git status']],
  ])('%j', (text, want) => expect(slices(text, pipelines(text))).toEqual(want));
});
