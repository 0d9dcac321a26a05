import { describe, expect, it } from 'vitest';
import { packageScripts, scriptsRun } from './package-json.ts';

describe('packageScripts', () => {
  it.each([
    ['{"scripts":{"lint":"eslint .","n":1}}', [['lint', 'eslint .']]],
    ['{"name":"x"}', []],
    ['{"scripts":[]}', []],
  ] as const)('%s', (text, want) => {
    expect([...(packageScripts(text) ?? new Map())]).toEqual(want);
  });

  it.each(['', 'not json', '[1]', 'null', '"x"'])('not a package: %j → null', (text) => {
    expect(packageScripts(text)).toBeNull();
  });
});

describe('scriptsRun: pre, the script, post', () => {
  const scripts = new Map([
    ['pretest', 'a'],
    ['test', 'b'],
    ['posttest', 'c'],
    ['prebuild', 'd'],
    ['lint', 'e'],
  ]);
  it.each([
    ['test', ['pretest', 'test', 'posttest']],
    ['lint', ['lint']],
    ['build', []],
    ['nope', []],
  ] as const)('%s', (name, want) => {
    expect(scriptsRun(scripts, name).map((s) => s.name)).toEqual(want);
  });
});
