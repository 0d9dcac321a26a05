import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from './index.ts';
import { readArgv } from './reader.ts';
import { markHolds, roleMarks } from './role-marks.ts';
import type { MarkTest } from './types.ts';

describe('markHolds', () => {
  it.each<[MarkTest, string, boolean]>([
    [{ prefix: '+' }, '+main', true],
    [{ prefix: '+' }, 'main', false],
    [{ prefix: '+' }, ' +main', false],
    [{ strip: '+', prefix: ':', min_length: 2 }, ':old', true],
    [{ strip: '+', prefix: ':', min_length: 2 }, '+:old', true],
    [{ strip: '+', prefix: ':', min_length: 2 }, ':', false],
    [{ strip: '+', prefix: ':', min_length: 2 }, '+:', false],
    [{ strip: '+', prefix: ':', min_length: 2 }, 'main:old', false],
    [{ strip: '+', prefix: ':', min_length: 2 }, '++:old', false],
    [{ trim: true, ignore_case: true, equals: ['DELETE'] }, ' delete ', true],
    [{ trim: true, ignore_case: true, equals: ['DELETE'] }, 'DeLeTe', true],
    [{ trim: true, ignore_case: true, equals: ['DELETE'] }, 'DELETES', false],
    [{ ignore_case: true, equals: ['DELETE'] }, ' DELETE', false],
    [{ equals: ['DELETE'] }, 'delete', false],
    [{ ignore_case: true, prefix: 'prod' }, 'PRODUCTION', true],
    [{}, 'anything', true],
  ])('%j on %j is %s', (test, word, holds) => {
    expect(markHolds(test, word)).toBe(holds);
  });
});

describe('roleMarks', () => {
  it('gives ROLE.MARK for marks some word carries, only for declared roles', () => {
    const kinds = { a: { marks: { x: { prefix: 'x' }, y: { prefix: 'y' } } } };
    expect([...roleMarks(new Map([['a', ['1', 'x2']], ['b', ['x']]]), kinds)]).toEqual(['a.x']);
    expect(roleMarks(new Map([['a', ['x']]]), undefined).size).toBe(0);
    expect(roleMarks(new Map(), kinds).size).toBe(0);
  });
});

/** What the core computed before the marks were data (the reference the data must agree with). */
function formerFacts(refspecs: readonly string[], methods: readonly string[]): string[] {
  const out: string[] = [];
  if (refspecs.some((p) => (p.startsWith('+') ? p.slice(1) : p).length > 1 && (p.startsWith('+') ? p.slice(1) : p).startsWith(':'))) out.push('refspec.delete');
  if (refspecs.some((p) => p.startsWith('+'))) out.push('refspec.force');
  if (methods.some((m) => m.trim().toUpperCase() === 'DELETE')) out.push('http_method.delete');
  return out.sort();
}

describe('the builtin role_kinds of git and gh', () => {
  const parts = ['', '+', ':', '++', '+:', 'main', 'x', ' ', 'DELETE', 'delete', 'De'];
  const words = parts.flatMap((a) => parts.map((b) => a + b)).filter((w) => w !== '' && !w.startsWith('-'));
  it('agree with the former hard-coded refspec and method facts on generated words', () => {
    let n = 0;
    for (const w of words) {
      const push = readArgv(['git', 'push', 'origin', w], [], BUILTIN_GRAMMARS);
      expect([...push.marks].sort(), `git push origin ${JSON.stringify(w)}`).toEqual(formerFacts(push.roles.get('refspec') ?? [], []));
      const api = readArgv(['gh', 'api', '-X', w, 'repos/x'], [], BUILTIN_GRAMMARS);
      expect([...api.marks].sort(), `gh api -X ${JSON.stringify(w)}`).toEqual(formerFacts([], api.roles.get('http_method') ?? []));
      n++;
    }
    expect(n).toBeGreaterThan(100);
  });
  it.each<[string[], string[]]>([
    [['git', 'push', 'origin', '+main'], ['refspec.force']],
    [['git', 'push', 'origin', ':old'], ['refspec.delete']],
    [['git', 'push', 'origin', '+:old'], ['refspec.delete', 'refspec.force']],
    [['git', 'push', 'origin', ':'], []],
    [['git', 'push', 'origin', 'main:main'], []],
    [['gh', 'api', '--method=delete', 'repos/x'], ['http_method.delete']],
    [['gh', 'api', '-XGET', 'repos/x'], []],
    [['git', 'log', '+main'], []],
  ])('%j carries %j', (argv, marks) => {
    expect([...readArgv(argv, [], BUILTIN_GRAMMARS).marks].sort()).toEqual(marks);
  });
});
