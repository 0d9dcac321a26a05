/**
 * The message helpers are hand-written for speed (no regular expression on the hook path); they
 * must give exactly what the regular expressions they replace give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayCommand, renderTemplate, splitTemplate, type TemplateContext } from './render.ts';

const PLACEHOLDER = /\{(command|program|subcommand|pack|rule)\}/g;
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./~^-]+$/;
const reference = (argv: string[], dynamic: number[] = []): string => {
  const text = argv.map((w, i) => (PLAIN_WORD.test(w) || dynamic.includes(i) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

const ctx: TemplateContext = { command: 'git push {rule}', program: 'git', subcommand: 'push', pack: 'agent-git', rule: 'agent-git/x' };
/** Strings made mostly of the characters that matter here. */
const templateText = fc.string({ unit: fc.constantFrom('{', '}', 'command', 'rule', 'pack', 'program', 'subcommand', 'x', ' ', '{}', '{{'), maxLength: 12 });
const word = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '_', '@', '%', '+', '=', ':', ',', '.', '/', '~', '^', '-', ' ', "'", '"', '$', '*', 'é', '\n', ''), maxLength: 6 });

describe('splitTemplate', () => {
  it.each([
    ['no placeholder', 'plain text'],
    ['one', 'Blocked `{command}`.'],
    ['all five, adjacent', '{command}{program}{subcommand}{pack}{rule}'],
    ['unknown names stay', '{cmd} {command} {Rule} {}'],
    ['nested braces', '{{command}} {rule}}'],
    ['unclosed', 'x {command'],
    ['empty', ''],
  ])('%s: same parts as the regular expression', (_, t) => {
    expect(splitTemplate(t)).toEqual(t.split(PLACEHOLDER));
  });
  it('agrees with the regular expression on 3,000 generated templates', () => {
    fc.assert(fc.property(templateText, (t) => {
      expect(splitTemplate(t)).toEqual(t.split(PLACEHOLDER));
    }), { numRuns: 3000, seed: 11 });
  });
  it('renders values in one pass: a value holding a placeholder is not expanded again', () => {
    expect(renderTemplate('{command} ({rule})', ctx)).toBe('git push {rule} (agent-git/x)');
  });
});

describe('displayCommand', () => {
  it.each([
    [['git', 'push', '--force'], []],
    [['echo', 'two words', "it's"], []],
    [['x', ''], []],
    [['$GIT', 'push'], [0]],
    [['a'.repeat(300)], []],
  ] as [string[], number[]][])('%j is quoted like the regular expression did', (argv, dyn) => {
    expect(displayCommand(argv, dyn)).toBe(reference(argv, dyn));
  });
  it('agrees with the regular expression on 3,000 generated argv', () => {
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), (argv) => {
      expect(displayCommand(argv)).toBe(reference(argv));
    }), { numRuns: 3000, seed: 12 });
  });
});
