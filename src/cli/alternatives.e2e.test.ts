/**
 * End to end through the built bundle (`buckler check --json`), default packs: a dynamic word
 * with known literal alternatives is judged with each of them (a variable assigned in a body
 * that may not run, a `for` loop's words, `${x:-default}`), with benign look-alikes next to them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkJson, e2eDir, pick } from './e2e.testing.ts';

const home = e2eDir('buckler-alts-');
beforeAll(() => fs.mkdirSync(path.join(home, 'config'), { recursive: true }));

const check = (command: string): { decision: string; rule: string | null } => pick(checkJson(command, home));

const FORCE = 'agent-git/no-force-push';
const cases: Array<[string, string, string | null]> = [
  // Assigned in a body: known later in that body, one of its values after it.
  ['for i in 1; do v=--force; git push $v; done', 'deny', FORCE],
  ['if true; then v=--force; git push $v; fi', 'deny', FORCE],
  ['f() { v=-f; git push $v; }; f', 'deny', FORCE],
  ['f() { v=-f; }; f; git push $v', 'deny', FORCE],
  ['true && { v=-f; git push $v; }', 'deny', FORCE],
  ["true && { v='git push -f'; eval \"$v\"; }", 'deny', FORCE],
  ['if x; then v=-f; fi; git push $v', 'deny', FORCE],
  ['for v in --force; do git push $v; done', 'deny', FORCE],
  ['for v in push; do git $v -f; done', 'deny', FORCE],
  // A literal default.
  ['gh pr close ${u:--d} 42', 'deny', 'agent-gh/no-pr-close-delete-branch'],
  ['gh api -X ${u:-DELETE} repos/o/r', 'deny', 'agent-gh/no-api-delete'],
  ['git push ${x:-+main}', 'deny', FORCE],
  ['git push origin ${x:=--force}', 'deny', FORCE],
  ['git push ${x-"-f"}', 'deny', FORCE],
  ['sudo git push ${x:--f}', 'deny', FORCE],
  // Benign look-alikes.
  ['for f in *.txt; do cat "$f"; done', 'allow', null],
  ['${EDITOR:-vi} x', 'allow', null],
  ['echo ${x:--d}', 'allow', null],
  ['if true; then v=ok; echo "$v"; fi', 'allow', null],
  ['for v in a b; do git log $v; done', 'allow', null],
  ['git push ${x:-origin} main', 'allow', null],
];

describe('dynamic words with literal alternatives', () => {
  it.each(cases)('%s → %s', (command, decision, rule) => {
    expect(check(command)).toEqual({ decision, rule });
  });
});
