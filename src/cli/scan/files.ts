/**
 * `buckler scan`: which files of a repository hold what would run, and what kind each is. A
 * walk of the directory (no symbolic link followed; `.git` and `node_modules` left out), each
 * file classified by its name and place, and, for a file without an ending, its `#!` line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HOOK_FOLDERS, isShellScript, SHELL_SCRIPT_ENDINGS } from '../../shell/script-formats/shell-script.ts';

export type InputKind = 'package-json' | 'makefile' | 'shell-script' | 'github-actions' | 'gitlab-ci' | 'dockerfile' | 'git-hook';

export interface ScanFile {
  /** Absolute. */
  file: string;
  /** Relative to the scanned directory, with `/`. */
  rel: string;
  kind: InputKind;
}

/** Folders never walked into. */
export const SKIPPED_FOLDERS: readonly string[] = ['.git', 'node_modules'];
/** Files walked at most (a bound on a huge tree). */
export const MAX_FILES = 100_000;

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
/** Endings of documents about a file (`Dockerfile.md`), not the file. */
const DOCUMENTS = /\.(md|markdown|txt|rst|adoc|html)$/i;

/** The kind of input a file is by its path alone; 'maybe-shell' when only its `#!` line can tell. */
export function kindByName(rel: string): InputKind | 'maybe-shell' | null {
  const parts = rel.split('/');
  const base = parts[parts.length - 1] as string;
  const parent = parts.length >= 2 ? parts[parts.length - 2] : undefined;
  if (base === 'package.json') return 'package-json';
  if (MAKEFILES.includes(base) || base.endsWith('.mk')) return 'makefile';
  if (parts[parts.length - 3] === '.github' && parent === 'workflows' && /\.ya?ml$/.test(base)) return 'github-actions';
  if (/(^|\.)gitlab-ci\.ya?ml$/.test(base)) return 'gitlab-ci';
  if ((/^(Dockerfile|Containerfile)(\..+)?$/.test(base) && !DOCUMENTS.test(base)) || /\.(dockerfile|Dockerfile)$/.test(base)) return 'dockerfile';
  if (parent !== undefined && HOOK_FOLDERS.includes(parent) && (!base.includes('.') || base.endsWith('.sh'))) return 'git-hook';
  if (SHELL_SCRIPT_ENDINGS.some((e) => base.endsWith(e))) return 'shell-script';
  if (!base.includes('.')) return 'maybe-shell';
  return null;
}

/** A file's first bytes (its `#!` line), or '' when it cannot be read. */
function head(file: string): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const buf = Buffer.alloc(256);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Every file under `root` that holds something a repository runs, in a stable order. */
export function findInputs(root: string): ScanFile[] {
  const out: ScanFile[] = [];
  let seen = 0;
  const walk = (dir: string, rel: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (++seen > MAX_FILES) return;
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_FOLDERS.includes(e.name)) walk(abs, r);
        continue;
      }
      if (!e.isFile()) continue;
      const kind = kindByName(r);
      if (kind === null) continue;
      if (kind !== 'maybe-shell') out.push({ file: abs, rel: r, kind });
      else if (isShellScript(e.name, head(abs))) out.push({ file: abs, rel: r, kind: 'shell-script' });
    }
  };
  walk(root, '');
  return out;
}
