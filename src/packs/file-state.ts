/**
 * What identifies one input file's content without reading it (its stat), for the compiled-pack
 * cache key (cache.ts) and the pack sources' listings (sources.ts, project-rules.ts).
 */
import fs from 'node:fs';

/** What identifies one input file's content without reading it. */
export interface FileState {
  path: string;
  /** null: the file does not exist (a config.toml that may appear later). */
  stat: { ino: number; size: number; mtimeMs: number; ctimeMs: number } | null;
}

export function fileState(file: string): FileState {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return { path: file, stat: st ? { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : null };
  } catch {
    return { path: file, stat: null };
  }
}
