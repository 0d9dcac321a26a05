import { describe, expect, it } from 'vitest';
import { place } from './pieces.ts';

describe('place: where the lines of a YAML string start', () => {
  const yaml = ['steps:', '  - run: make test', '  - run: |', '      echo one', '', '      echo two', '  - name: x', '    run: >-', '      folded', '  - "quoted: yes"'];
  it.each([
    ['a plain value on its key line', 2, 'make test', [[2, 10]]],
    ['a literal block below its key', 3, 'echo one\n\necho two\n', [[4, 7], [5, 1], [6, 7]]],
    ['a folded block', 8, 'folded', [[9, 7]]],
    ['a quoted item', 10, 'quoted: yes', [[10, 6]]],
  ] as const)('%s', (_, line, text, want) => expect(place(yaml, line, text)).toEqual(want));
});
