import { describe, expect, it } from 'vitest';
import { lineFor } from './problems.ts';
import { YamlSyntaxError, parseYaml } from './yaml.ts';

const TEXT = `# comment
pack: p
rules:
  - id: a
    action: deny
    match:
      shell_segments:
        - program: git
          flags_any: ["-f"]
  - { id: b, action: allow }
  - id: c
    agent_message: >-
      folded
      text
    trigger: pre_shell_exec
`;

describe('parseYaml', () => {
  const { doc, lines, documents } = parseYaml(TEXT, 'p.yaml');

  it('gives the data', () => {
    expect(documents).toBe(1);
    expect((doc as { rules: unknown[] }).rules).toHaveLength(3);
  });

  it.each<[(string | number)[], number]>([
    [['pack'], 2],
    [['rules'], 3],
    [['rules', 0], 4],
    [['rules', 0, 'action'], 5],
    [['rules', 0, 'match', 'shell_segments', 0, 'flags_any'], 9],
    [['rules', 0, 'match', 'shell_segments', 0, 'flags_any', 0], 9],
    [['rules', 1], 10],
    [['rules', 1, 'action'], 10],
    [['rules', 2, 'agent_message'], 12],
    [['rules', 2, 'trigger'], 15],
    [['rules', 2, 'no-such-field'], 11],
  ])('line of %j is %i', (p, line) => {
    expect(lineFor(lines, p)).toBe(line);
  });

  it('an empty file is null; several documents are counted', () => {
    expect(parseYaml('', 'e.yaml').doc).toBeNull();
    expect(parseYaml('# only a comment\n', 'e.yaml').doc).toBeNull();
    expect(parseYaml('a: 1\n---\nb: 2\n', 'm.yaml')).toMatchObject({ doc: { a: 1 }, documents: 2 });
  });

  it.each([
    ['rules: [\n', 2],
    ['a: 1\na: 2\n', 2],
    ['a:\n  - b\n c: d\n', 3],
  ])('%j is not valid YAML, with its line', (text, line) => {
    let caught: unknown;
    try {
      parseYaml(text, 'bad.yaml');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(YamlSyntaxError);
    expect((caught as YamlSyntaxError).message).toMatch(/^not valid YAML: /);
    expect((caught as YamlSyntaxError).line).toBe(line);
  });
});
