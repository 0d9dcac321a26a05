/**
 * The project an action happens in, for allow-once entries, project rules and the audit log:
 * the harness's workspace root that holds the working directory; else the nearest directory at
 * or above it holding `.git` or `.buckler`; else the working directory itself. Never the home
 * directory or `/` (a repository there would make every directory one project). A few stats.
 */
import fs from 'node:fs';
import path from 'node:path';

const MARKERS = ['.git', '.buckler'];
/** Directories walked up at most. */
const MAX_DEPTH = 40;

function within(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function projectRoot(cwd: string, home: string | undefined, workspaceRoots: readonly string[] = []): string {
  const start = path.resolve(cwd);
  for (const r of workspaceRoots) {
    if (r !== '' && path.isAbsolute(r) && within(start, path.resolve(r))) return path.resolve(r);
  }
  const stop = home === undefined ? undefined : path.resolve(home);
  let dir = start;
  for (let i = 0; i < MAX_DEPTH; i++) {
    if (dir === stop || path.dirname(dir) === dir) break;
    for (const m of MARKERS) if (fs.existsSync(path.join(dir, m))) return dir;
    dir = path.dirname(dir);
  }
  return start;
}
