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

describe('copies of a recipe line', () => {
  const objs = (recipe: string, head = ''): string =>
    `${head}all: a.o b.o c.o\n` + ['a', 'b', 'c'].map((m) => `${m}.o: ${m}.c\n\t${recipe}\n\t@echo built ${m}\n`).join('');

  it.each([
    // One plain command whose program is a make variable: judged once for every copy.
    ['$(CC) $(CFLAGS) -c $< -o $@', '', ['${__make} ${__make} -c ${__make} -o ${__make}', 'echo built a', 'echo built b', 'echo built c']],
    ['$(MAKE) -C sub X=1', '', ['${__make} -C sub X=1', 'echo built a', 'echo built b', 'echo built c']],
    // Each copy is kept: a literal program, a redirection, a substitution, an operator, a quote, a glob.
    ['rm -f $@', '', ['rm -f ${__make}', 'echo built a', 'rm -f ${__make}', 'echo built b', 'rm -f ${__make}', 'echo built c']],
    ['$(CC) -c $< > $@.log', '', ['${__make} -c ${__make} > ${__make}.log', 'echo built a', '${__make} -c ${__make} > ${__make}.log', 'echo built b', '${__make} -c ${__make} > ${__make}.log', 'echo built c']],
    ['$(CC) $$(cat flags)', '', ['${__make} $(cat flags)', 'echo built a', '${__make} $(cat flags)', 'echo built b', '${__make} $(cat flags)', 'echo built c']],
    ['$(CC) -c x; bash x.sh', '', ['${__make} -c x; bash x.sh', 'echo built a', '${__make} -c x; bash x.sh', 'echo built b', '${__make} -c x; bash x.sh', 'echo built c']],
    ["$(CC) -D'X'", '', ["${__make} -D'X'", 'echo built a', "${__make} -D'X'", 'echo built b', "${__make} -D'X'", 'echo built c']],
    ['$(CC) *.c', '', ['${__make} *.c', 'echo built a', '${__make} *.c', 'echo built b', '${__make} *.c', 'echo built c']],
    // .ONESHELL: a target's lines share one shell, so every copy is kept.
    ['$(CC) -c $<', '.ONESHELL:\n', ['${__make} -c ${__make}', 'echo built a', '${__make} -c ${__make}', 'echo built b', '${__make} -c ${__make}', 'echo built c']],
  ])('%j', (recipe, head, want) => {
    expect(makeRecipes(objs(recipe, head), ['all']).lines.map((l) => l.text)).toEqual(want);
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
