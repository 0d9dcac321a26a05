/**
 * Reads a local script a command runs (`bash ./deploy.sh`, `source x`) so shell analysis can
 * see what it would run. The core stays pure: this is injected as `EvaluateOptions.readScript`.
 *
 * Only small regular files: the file is opened non-blocking and checked on the open descriptor
 * (fstat), so a FIFO or device swapped in between a check and the read can never block a hook.
 */
import path from 'node:path';
import type { ScriptRead } from '../shell/index.ts';
import { downloadsFile, producersOf, readDownloads, type DownloadEntry } from './download-store.ts';
import { processPaths } from './process-paths.ts';
import { readSmallFile } from './small-file.ts';

/**
 * Scripts and project files (package.json, Makefile) larger than this are not read: the
 * command that runs them is an unseen script, which agent-tamper asks about (strict: denies).
 */
export const MAX_SCRIPT_BYTES = 1024 * 1024;

/**
 * Reads the files a command runs, relative to `cwd`: the text; null when something is there
 * that cannot be read (over the bound, a FIFO or device, unreadable); undefined when nothing is.
 */
export function scriptReader(cwd: string, env: NodeJS.ProcessEnv = process.env): (file: string) => ScriptRead {
  // Files downloaded or decoded by an earlier call (download-store.ts), read once per decision.
  let downloads: DownloadEntry[] | undefined;
  return (file) => {
    const abs = path.resolve(cwd, file);
    const r = readSmallFile(abs, MAX_SCRIPT_BYTES);
    if (r.kind === 'missing') return undefined;
    downloads ??= readDownloads(downloadsFile(processPaths(env).stateHome), Date.now());
    const from = downloads.length === 0 ? [] : producersOf(downloads, abs, r.kind === 'text' ? r : undefined);
    const text = r.kind === 'text' ? r.text : null;
    return from.length > 0 ? { text, from } : text;
  };
}

export { readSmallFile, type SmallFile } from './small-file.ts';
