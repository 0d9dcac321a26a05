import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { packagePieces, packageScripts, scriptsRun } from './package-json.ts';

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

describe('packagePieces: each script where its value stands', () => {
  it('line and column of the value, not of an equal key or text elsewhere', () => {
    const text = '{\n  "description": "npm test",\n  "scripts": {\n    "test": "npm test",\n    "lint":"eslint ."\n  }\n}\n';
    expect(packagePieces(text)?.map((p) => [p.label, p.text, p.at[0]])).toEqual([
      ['script "test"', 'npm test', [4, 14]],
      ['script "lint"', 'eslint .', [5, 13]],
    ]);
    expect(packagePieces('not json')).toBeNull();
  });

  // The package.json files of packages installed here as dev dependencies (typescript:
  // Apache-2.0; vite, esbuild, ajv: MIT), read only: each value is found where it is written.
  it.each(['typescript', 'vite', 'esbuild', 'ajv'])('%s: every script found at its value', (name) => {
    const file = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..', 'node_modules', name, 'package.json');
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const pieces = packagePieces(text) ?? [];
    expect(pieces.length).toBe(Object.keys(JSON.parse(text).scripts).length);
    for (const p of pieces) {
      const [line, column] = p.at[0] as [number, number];
      expect(lines[line - 1]?.slice(column - 1), p.label).toMatch(new RegExp(`^${JSON.stringify(p.text).slice(1, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
    }
  });
});
