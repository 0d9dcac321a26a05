/**
 * What identifies one input file's content without reading it (its stat), for the compiled-pack
 * cache key (cache.ts) and the pack sources' listings (sources.ts `fileState`, project-rules.ts).
 * A type only: the pack sources do the reading.
 */
export interface FileState {
  path: string;
  /** null: the file does not exist (a config.toml that may appear later). */
  stat: { ino: number; size: number; mtimeMs: number; ctimeMs: number } | null;
}
