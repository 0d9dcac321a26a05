/**
 * Downloaded now, run later (issue 21, route 9): the files a command line downloads or decodes
 * before it runs (`curl -o x.sh URL`, `wget URL/i.sh`, `base64 -d p > x.sh`) are recorded in
 * `downloads.json` in the state directory (protected by agent-tamper like every store there):
 * the path and the producing command, then, after the action, the file's device, inode, size
 * and mtime. Running such a file in a later call (`bash x.sh`, `python3 x.py`, also after a
 * rename: matched by device and inode) is judged like the same line would be
 * (agent-remote-exec's `download-then-run`). Bounded: at most 256 entries of at most 16 words,
 * each kept 24 hours.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PolicyInput, PolicyOutput } from '../core/contract.ts';
import type { ScriptSource } from '../shell/index.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { lockFileFor, withLock } from '../files/lock.ts';
import { readSmallFile } from './small-file.ts';

export interface DownloadEntry {
  /** Absolute path the file was (or will be) written at. */
  path: string;
  /** The command that produced it (argv, at most 16 words of at most 256 characters). */
  argv: string[];
  /** When it was recorded (ms since the epoch). */
  at: number;
  dev?: number;
  ino?: number;
  size?: number;
  mtimeMs?: number;
}

export const MAX_ENTRIES = 256;
export const KEEP_MS = 24 * 60 * 60 * 1000;
const MAX_STORE_BYTES = 256 * 1024;

/** Programs whose output written to a file is code from elsewhere: downloaders and decoders. */
const PRODUCERS = new Set([
  'curl', 'wget', 'wget2', 'fetch', 'http', 'https', 'xh', 'xhs', 'lwp-request', 'aria2c',
  'base64', 'base32', 'basenc', 'openssl', 'xxd', 'uudecode', 'gunzip', 'zcat', 'bunzip2', 'bzcat', 'unxz', 'xzcat', 'unzstd', 'zstdcat',
]);
/** A line that may download or decode: the only lines worth a second look (cheap test first). */
export const MAY_PRODUCE = /\b(?:curl|wget2?|fetch|https?|xhs?|lwp-request|aria2c|base(?:64|32|nc)|openssl|xxd|uudecode|gunzip|zcat|bunzip2|bzcat|unxz|xzcat|unzstd|zstdcat)\b/;

/**
 * Substrings every line MAY_PRODUCE matches holds one of: tested first with `includes`, so that
 * a line without any (most lines) never compiles that regular expression (about 8 KB of a hook's
 * young generation, docs/performance.md).
 */
const PRODUCER_PARTS = ['curl', 'wget', 'fetch', 'http', 'xh', 'lwp-request', 'aria2c', 'base', 'openssl', 'xxd', 'uudecode', 'gunzip', 'zcat', 'bunzip2', 'unxz', 'unzstd', 'zstdcat'];

/** Whether a line may download or decode (MAY_PRODUCE), without compiling it for a line that cannot. */
export function mayProduce(text: string): boolean {
  for (let i = 0; i < PRODUCER_PARTS.length; i++) if (text.includes(PRODUCER_PARTS[i]!)) return MAY_PRODUCE.test(text);
  return false;
}

export function downloadsFile(stateHome: string): string {
  return path.join(stateHome, 'downloads.json');
}

/** The store's live entries (none when missing, malformed, not a regular file or too large). */
export function readDownloads(file: string, now: number): DownloadEntry[] {
  const r = readSmallFile(file, MAX_STORE_BYTES);
  if (r.kind !== 'text') return [];
  let doc: unknown;
  try {
    doc = JSON.parse(r.text);
  } catch {
    return [];
  }
  const list = (doc as { downloads?: unknown } | null)?.downloads;
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is DownloadEntry => isEntry(e) && now - e.at < KEEP_MS && e.at <= now + 60_000);
}

function isEntry(e: unknown): e is DownloadEntry {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as Record<string, unknown>;
  const num = (k: string): boolean => x[k] === undefined || typeof x[k] === 'number';
  return typeof x['path'] === 'string' && Array.isArray(x['argv']) && x['argv'].every((a) => typeof a === 'string') && typeof x['at'] === 'number' && num('dev') && num('ino') && num('size') && num('mtimeMs');
}

/** The producers of the file at `abs` (with its device and inode, when known), if recorded. */
export function producersOf(entries: readonly DownloadEntry[], abs: string, st?: { dev: number; ino: number }): ScriptSource[] {
  const out: ScriptSource[] = [];
  for (const e of entries) {
    const same = e.path === abs || (st !== undefined && e.ino !== undefined && e.dev === st.dev && e.ino === st.ino);
    if (same) out.push({ argv: e.argv.slice(), dynamic: [], how: 'file' });
  }
  return out;
}

/**
 * After a hook decided: before an action that downloads or decodes into files, records them;
 * after an action, fills in the device, inode, size and mtime of recorded files now written.
 * `withPaths` decides the input again listing each command's paths (only for lines that may
 * download). Never throws: a store that cannot be written changes no decision.
 */
export function noteDownloads(input: PolicyInput, output: PolicyOutput, withPaths: () => PolicyOutput, stateHome: () => string, now = Date.now()): void {
  try {
    const text = input.shell?.command;
    if (text === undefined || !mayProduce(text)) return;
    const file = downloadsFile(stateHome());
    if (input.trigger === 'pre_shell_exec' || input.trigger === 'pre_shell_tool') {
      if (output.decision === 'deny') return;
      const found = produced(withPaths(), now, input.shell?.cwd ?? process.cwd());
      if (found.length > 0) update(file, now, (list) => [...list.filter((e) => !found.some((f) => f.path === e.path)), ...found]);
    } else if (input.trigger === 'post_tool_success') {
      if (readDownloads(file, now).some((e) => e.ino === undefined)) update(file, now, (list) => list.map(withStat));
    }
  } catch {
    // The store is a help, never a reason to fail a hook.
  }
}

/** The files the line's downloaders and decoders write. */
function produced(out: PolicyOutput, now: number, cwd: string): DownloadEntry[] {
  const found: DownloadEntry[] = [];
  for (const c of out.commands) {
    if (!PRODUCERS.has(c.argv[0] ?? '')) continue;
    const argv = c.argv.slice(0, 16).map((a) => a.slice(0, 256));
    const written = (c.paths ?? []).filter((p) => p.access === 'write' && p.path !== null && !p.path.startsWith('/dev/')).map((p) => p.path as string);
    // `wget URL`, `curl -O URL`: the file is named after the URL's last segment.
    if (written.length === 0) for (const n of remoteNames(c.argv)) written.push(path.resolve(cwd, n));
    for (const p of written) found.push({ path: p, argv, at: now });
  }
  return found;
}

/** The files `wget URL` (without -O) and `curl -O URL` name after the URL. */
export function remoteNames(argv: readonly string[]): string[] {
  const prog = argv[0];
  const opts = argv.slice(1).filter((a) => a.startsWith('-'));
  const byName = prog === 'wget' || prog === 'wget2'
    ? !opts.some((o) => o === '-O' || o.startsWith('--output-document') || /^-[a-zA-Z]*O/.test(o))
    : prog === 'curl' && opts.some((o) => o === '--remote-name' || o === '--remote-name-all' || /^-[a-zA-Z]*O/.test(o));
  if (!byName) return [];
  const out: string[] = [];
  for (const a of argv.slice(1)) {
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/(?:[^?#]*\/)?([^/?#]+)(?:[?#].*)?$/i.exec(a);
    if (m && m[1] !== '.' && m[1] !== '..') out.push(m[1] as string);
  }
  return out;
}

function withStat(e: DownloadEntry): DownloadEntry {
  if (e.ino !== undefined) return e;
  try {
    const st = fs.lstatSync(e.path);
    if (!st.isFile()) return e;
    return { ...e, dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return e;
  }
}

function update(file: string, now: number, change: (list: DownloadEntry[]) => DownloadEntry[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  withLock(lockFileFor(file), () => {
    const list = change(readDownloads(file, now)).slice(-MAX_ENTRIES);
    writeFileAtomic(file, `${JSON.stringify({ downloads: list })}\n`, { mode: 0o600 });
  });
}
