/**
 * Project rules (docs/project-rules.md): `.buckler/rules.d/*.yaml` in a repository, loaded for
 * hooks whose action happens in that project. This file is the hook path's part: where the
 * files are, and the `listing()` that keys the compiled-pack cache. Reading, checking and
 * hashing them happens only when the cache misses (project-load.ts, through the compiler).
 *
 * The agent writes the repository's files, so until the person runs `buckler trust` there, the
 * rules can only tighten: deny/ask/nudge rules apply but never outrank another rule's decision
 * (CompiledRule.tighten), and `allow` rules and `programs:` are ignored. A trusted set (the
 * digest of its files recorded in the trust store) counts like user rules; any change to a
 * file makes it untrusted again.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileState } from './file-state.ts';
import type { PackSourceProvider, ProjectTrustOverride } from './source-contract.ts';
import { fileState } from './sources.ts';

export type { ProjectTrustOverride } from './source-contract.ts';

/** Where project rules live, under the project root. */
export const PROJECT_RULES_DIR = path.join('.buckler', 'rules.d');
/** At most this many bytes in one project rules file; a larger file is refused. */
export const MAX_PROJECT_FILE_BYTES = 64 * 1024;
/** At most this many project rules files; the ones after it (by name) are refused. */
export const MAX_PROJECT_FILES = 32;

export function projectRulesDir(root: string): string {
  return path.join(root, PROJECT_RULES_DIR);
}

/** The trust store: the digests of the project rule sets the person trusted (state directory). */
export function trustStoreFile(stateHome: string): string {
  return path.join(stateHome, 'trust.json');
}

const isPackFile = (name: string): boolean => name.endsWith('.yaml') || name.endsWith('.yml');

/**
 * The cache key's share of a project: null (one `stat`, nothing more) when the project has no
 * rules directory; else each rules file's stat, the directory's own, and the trust store's
 * (trusting or revoking changes the key).
 */
export function projectListing(root: string, trustFile: string): { dir: string; files: FileState[] | null } {
  const dir = projectRulesDir(root);
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  if (st === undefined) return { dir, files: null };
  const files: FileState[] = [fileState(dir), fileState(path.join(root, '.buckler')), fileState(trustFile)];
  if (st.isDirectory()) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir).filter(isPackFile).sort();
    } catch {
      names = [];
    }
    // lstat: a file swapped for a symlink (same size) changes the key.
    for (const n of names) files.push(lstateOf(path.join(dir, n)));
  }
  return { dir, files };
}

function lstateOf(file: string): FileState {
  try {
    const st = fs.lstatSync(file, { throwIfNoEntry: false });
    return { path: file, stat: st ? { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : null };
  } catch {
    return { path: file, stat: null };
  }
}

/**
 * The `project` pack source for the project at `root`: `listing()` on the hook path, `load()`
 * (project-load.ts, through the lazily imported compiler) when the cache misses.
 */
export function projectSource(root: string, trustFile: string, assume?: ProjectTrustOverride): PackSourceProvider {
  return {
    name: 'project',
    dir: projectRulesDir(root),
    listing: () => projectListing(root, trustFile),
    load: (ctx) => ctx.c.loadProject(root, trustFile, ctx, assume),
  };
}
