import { describe, expect, it } from 'vitest';
import { patchFiles, patchToolPaths } from './patch-paths.ts';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: docs/new.md',
  '+*** Delete File: not/a/header.txt',
  '+hello',
  '*** Update File: src/app.ts',
  '*** Move to: src/main.ts',
  '@@ function f()',
  '-*** Update File: also/not/a/header',
  '+x',
  '*** Delete File: .env',
  '*** Update File: src/app.ts',
  '*** End Patch',
].join('\n');

describe('patch paths', () => {
  it('reads every header, in order, and nothing from hunk bodies', () => {
    expect(patchFiles(PATCH)).toEqual([
      { op: 'add', path: 'docs/new.md' },
      { op: 'update', path: 'src/app.ts' },
      { op: 'move', path: 'src/main.ts' },
      { op: 'delete', path: '.env' },
      { op: 'update', path: 'src/app.ts' },
    ]);
  });
  it('accepts CRLF line ends and trims the path', () => {
    expect(patchFiles('*** Begin Patch\r\n*** Update File:  a b.txt \r\n*** End Patch\r\n')).toEqual([{ op: 'update', path: 'a b.txt' }]);
  });
  it('finds nothing in text that is not a patch', () => {
    expect(patchFiles('echo hi')).toEqual([]);
    expect(patchFiles('*** Update File: ')).toEqual([]);
  });
  it('gives the contract paths: written, deleted, a move deletes its source; each once per access', () => {
    expect(patchToolPaths(PATCH)).toEqual([
      { path: 'docs/new.md', access: 'write' },
      { path: 'src/app.ts', access: 'delete' },
      { path: 'src/main.ts', access: 'write' },
      { path: '.env', access: 'delete' },
      { path: 'src/app.ts', access: 'write' },
    ]);
    expect(patchToolPaths('*** Update File: a\n*** Update File: a\n')).toEqual([{ path: 'a', access: 'write' }]);
    expect(patchToolPaths('no patch')).toEqual([]);
  });
});
