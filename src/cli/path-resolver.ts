/**
 * Where a path the core found also leads on disk, for the hook (docs/security.md, "Links"): the
 * core judges every path at its name and at what this returns, and the stricter decision wins.
 *
 * - Symbolic links: the longest existing prefix of the path is resolved (`realpath`), the rest
 *   appended; with `follow` false the last component is kept as it is (`rm link` removes the link).
 * - Hard links: a regular file with more than one link that shares its inode with a file in a
 *   named location (Buckler's directories, the harnesses' settings and trust stores) leads to
 *   that file: writing one writes the other.
 *
 * Bounded per event: at most 64 paths and 2 ms; past that, paths are judged by name only (a
 * documented limit). A link made by a process already running, between this check and the
 * action, is not seen.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PathResolver } from '../core/paths.ts';

export const RESOLVE_MAX_PATHS = 64;
export const RESOLVE_MAX_MS = 2;
/** Files read from a named location's folder to learn their inodes (only when a hard-linked file is met). */
const MAX_PROTECTED_FILES = 256;

/** `locations`: the action context's named locations; `home` expands their `~`. */
export function pathResolver(locations: Readonly<Record<string, readonly string[]>> | undefined, home: string | undefined): PathResolver {
  let count = 0;
  let started = 0;
  let inodes: Map<string, string[]> | undefined;
  return (p, follow) => {
    // Date.now, not performance.now: the `performance` global loads perf_hooks (about 1 ms).
    if (count === 0) started = Date.now();
    else if (count >= RESOLVE_MAX_PATHS || Date.now() - started > RESOLVE_MAX_MS) return [];
    count++;
    const out: string[] = [];
    const real = realPrefix(follow ? p : path.posix.dirname(p));
    const resolved = real === null ? null : follow ? real : real === '/' ? `/${path.posix.basename(p)}` : `${real}/${path.posix.basename(p)}`;
    if (resolved !== null && resolved !== p) out.push(resolved);
    if (follow) {
      const st = statOf(resolved ?? p);
      if (st !== undefined && st.isFile() && st.nlink > 1) {
        inodes ??= protectedInodes(locations, home);
        for (const f of inodes.get(`${st.dev}:${st.ino}`) ?? []) if (f !== p && f !== resolved) out.push(f);
      }
    }
    return out;
  };
}

function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * The real path of the longest existing prefix of `p`, the rest appended; null when nothing
 * resolves. Existence is tested with `stat` without exceptions (a missing file is the usual case
 * for a write, and a thrown ENOENT costs tens of microseconds); one `realpath` on what exists.
 */
function realPrefix(p: string): string | null {
  let head = p;
  let rest = '';
  for (let i = 0; i < 64; i++) {
    if (statOf(head) !== undefined) {
      try {
        const r = fs.realpathSync.native(head);
        return rest === '' ? r : r === '/' ? `/${rest}` : `${r}/${rest}`;
      } catch {
        return null;
      }
    }
    const parent = path.posix.dirname(head);
    if (parent === head) return null;
    rest = rest === '' ? path.posix.basename(head) : `${path.posix.basename(head)}/${rest}`;
    head = parent;
  }
  return null;
}

/**
 * device:inode → the files of the named locations with that inode: the fixed files the patterns
 * name, and the files in the folders they name (`DIR/**`, two levels), bounded.
 */
function protectedInodes(locations: Readonly<Record<string, readonly string[]>> | undefined, home: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let budget = MAX_PROTECTED_FILES;
  const add = (file: string): void => {
    if (budget-- <= 0) return;
    const st = statOf(file);
    if (st === undefined || !st.isFile()) return;
    const key = `${st.dev}:${st.ino}`;
    const list = out.get(key);
    if (list === undefined) out.set(key, [file]);
    else if (!list.includes(file)) list.push(file);
  };
  const walk = (dir: string, depth: number): void => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) {
      if (budget <= 0) return;
      const f = `${dir}/${d.name}`;
      if (d.isFile()) add(f);
      else if (d.isDirectory() && depth > 0) walk(f, depth - 1);
    }
  };
  for (const patterns of Object.values(locations ?? {})) {
    for (const pat of patterns) {
      const abs = pat === '~' || pat.startsWith('~/') ? (home === undefined ? null : `${home}${pat.slice(1)}`) : pat;
      if (abs === null || !abs.startsWith('/')) continue;
      if (abs.endsWith('/**') && !/[*?{[]/.test(abs.slice(0, -3))) walk(abs.slice(0, -3), 1);
      else if (!/[*?{[]/.test(abs)) add(abs);
    }
  }
  return out;
}
