import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempNameFor, writeFileAtomic } from './atomic.ts';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-atomic-')));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.chmodSync(dir, 0o700);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates or replaces the file with exactly the bytes, and leaves no temporary file', () => {
    const file = path.join(dir, 'a.json');
    writeFileAtomic(file, '{"a":1}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    writeFileAtomic(file, Buffer.from([0, 1, 2]));
    expect([...fs.readFileSync(file)]).toEqual([0, 1, 2]);
    expect(fs.readdirSync(dir)).toEqual(['a.json']);
  });

  it('sets the mode exactly when given (the umask does not apply)', () => {
    const file = path.join(dir, 'm');
    writeFileAtomic(file, 'x', { mode: 0o640 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });

  it('flushes the file before the rename and the directory after it', () => {
    const file = path.join(dir, 'f');
    const order: string[] = [];
    const fsync = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      order.push(fs.fstatSync(fd).isDirectory() ? 'fsync dir' : 'fsync file');
    });
    const rename = vi.spyOn(fs, 'renameSync');
    rename.mockImplementation((a, b) => {
      order.push('rename');
      rename.mockRestore();
      fs.renameSync(a, b);
    });
    writeFileAtomic(file, 'x');
    expect(fsync).toHaveBeenCalledTimes(2);
    expect(order).toEqual(['fsync file', 'rename', 'fsync dir']);
  });

  it('a beforeRename that throws cancels the write: target untouched, no temporary file', () => {
    const file = path.join(dir, 'keep');
    fs.writeFileSync(file, 'old');
    expect(() =>
      writeFileAtomic(file, 'new', {
        beforeRename: () => {
          throw new Error('changed');
        },
      }),
    ).toThrow('changed');
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['keep']);
  });

  it('throws the file system error when the directory is missing, writing nothing', () => {
    expect(() => writeFileAtomic(path.join(dir, 'no', 'such'), 'x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('names temporary files beside the target, hidden, and differently each time', () => {
    const a = tempNameFor('/x/y/config.json');
    expect(path.dirname(a)).toBe('/x/y');
    expect(path.basename(a)).toMatch(/^\.config\.json\.buckler-[a-z0-9]+\.tmp$/);
    expect(tempNameFor('/x/y/config.json')).not.toBe(a);
  });
});

describe('one atomic write for all of src/', () => {
  const SRC = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ts') ? [path.join(d, e.name)] : []));

  it('no source file outside src/files writes a file by writeFileSync, renameSync or copyFileSync', () => {
    const offenders = walk(SRC)
      .filter((f) => !/\.(test|testing)\.ts$/.test(f) && !f.startsWith(path.join(SRC, 'files') + path.sep))
      .filter((f) => /\.\s*(writeFileSync|renameSync|copyFileSync|writeFile|rename|copyFile)\s*\(|\{[^}]*\b(writeFileSync|renameSync|copyFileSync)\b[^}]*\}\s*from/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});
