import { describe, expect, it } from 'vitest';
import { makefilePieces, makeRecipes, recipeShell } from './makefile.ts';

const MK = [
  'CC ?= cc',
  'X := a:b',
  'include extra.mk',
  '.PHONY: all test',
  'all: app',
  'app: main.o util.o',
  '\t$(CC) -o $@ $^',
  'main.o: main.c',
  '\t@$(CC) -c main.c',
  'test: all ; ./t --quick',
  '\t-./run-tests \\',
  '\t  --verbose',
  'ifeq ($(X),y)',
  'ship:',
  '\tgit push --force',
  'else',
  'ship:',
  '\techo no',
  'endif',
  'app: CFLAGS = -g',
  'define RECIPE',
  '\tgit commit -m x',
  'endef',
  '%.o: %.c',
  '\t$(CC) -c $<',
].join('\n');

describe('makeRecipes', () => {
  it.each([
    [[], ['${__make} -c main.c', '${__make} -o ${__make} ${__make}']],
    [['test'], ['${__make} -c main.c', '${__make} -o ${__make} ${__make}', './t --quick', './run-tests \\\n  --verbose']],
    [['ship'], ['git push --force', 'echo no']],
    [['main.o'], ['${__make} -c main.c']],
  ] as const)('%j', (goals, want) => {
    expect(makeRecipes(MK, goals).lines.map((l) => l.text)).toEqual(want);
  });

  it('says which goals have no rule, and that the file includes others', () => {
    const r = makeRecipes(MK, ['install']);
    expect([r.missing, r.includes, r.defaultGoal]).toEqual([['install'], true, 'all']);
  });

  it('.DEFAULT_GOAL and a cycle of prerequisites', () => {
    const r = makeRecipes('.DEFAULT_GOAL := b\na: b\n\techo a\nb: a\n\techo b\n', []);
    expect(r.lines.map((l) => l.text)).toEqual(['echo a', 'echo b']);
  });
});

describe('recipeShell', () => {
  it.each([
    ['@echo $$HOME', 'echo $HOME'],
    ['-+$(MAKE) -C sub', '${__make} -C sub'],
    ['echo $(shell date +%s) ${X} $@', 'echo ${__make} ${__make} ${__make}'],
    ['echo $(call f,$(x),(y))', 'echo ${__make}'],
  ])('%j → %j', (line, want) => {
    expect(recipeShell(line)).toBe(want);
  });
});

describe('makefilePieces: every recipe line of every rule, where it stands', () => {
  it('recipes of all targets, both branches, inline ones; not define bodies or variables', () => {
    const pieces = makefilePieces(MK);
    expect(pieces.map((p) => [p.label, p.text, p.at[0]])).toEqual([
      ['recipe of app', '${__make} -o ${__make} ${__make}', [7, 2]],
      ['recipe of main.o', '${__make} -c main.c', [9, 3]],
      ['recipe of test', './t --quick', [10, 13]],
      ['recipe of test', './run-tests \\\n  --verbose', [11, 3]],
      ['recipe of ship', 'git push --force', [15, 2]],
      ['recipe of ship', 'echo no', [18, 2]],
      ['recipe of %.o', '${__make} -c ${__make}', [25, 2]],
    ]);
    expect(pieces[3]?.at).toEqual([
      [11, 3],
      [12, 2],
    ]);
  });

  it('a tab line that is no recipe is not one here either', () => {
    expect(makefilePieces('X = 1\n\techo not a recipe\nall:\n\techo yes\n').map((p) => p.text)).toEqual(['echo yes']);
  });
});
