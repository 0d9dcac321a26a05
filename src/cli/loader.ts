/**
 * dist/buckler.cjs: what every hook and every `buckler` command starts. It runs the hook bundle
 * (dist/main.cjs) through a V8 code cache kept beside it, `.main-<digest of main.cjs>.v8cache`.
 *
 * Why: compiling the bundle and the first run of the shell analyser are most of Buckler's own
 * start-up (docs/performance.md); with the cache V8 skips that compilation. Node 20 has no
 * `module.enableCompileCache` (22.1+), so this does by hand what `v8-compile-cache` does.
 *
 * Safety: V8 checks cached data against the source's length and its own version and flags, and
 * rejects it on any mismatch (then the bundle is simply compiled); the file name carries a digest
 * of the bundle for what a length check cannot see. A failure to write it is ignored; it is
 * written atomically (temp file + rename). It lives beside the bundle: whoever can write it can
 * already replace the bundle itself.
 *
 * What it holds: the functions a hook compiled, which depend on the hook (a shell command or a
 * file read, an allow or a deny, the harness, a git alias read). A hook that needs functions the
 * cache lacks compiles them every time: 1.5–10 ms per hook, measured (docs/performance.md). So
 * the cache file starts with the parts of the hook path its code covers (`codeCacheWanted`, one
 * bit each), and a hook that went through a part the cache lacks writes it anew: with the
 * functions it read from the old cache (deserialised functions are compiled, so V8 writes them
 * again) and those it compiled, and the union of the parts. Each part is added once; then the
 * cache stays. Not written after the first hook following an install (which compiles the packs:
 * the pack compiler would weigh on every later hook) nor after a failure.
 *
 * Deliberately tiny and dependency-free: it is on every hook's path.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { writeFileAtomic } from '../files/atomic.ts';

interface MainModule {
  /**
   * Runs the command line; `done` hears how it ended. For a hook, `codeCache` says which parts of
   * the hook path the run went through, one bit each (0: none worth keeping in a code cache).
   */
  start(done?: (outcome: { codeCache: number }) => void): void;
}

/** The cache file: this marker byte, the parts its code covers (uint32, little-endian), then V8's data. */
const MARK = 0x63; // 'c'
const HEAD = 5;

const dir = __dirname;
const bundle = path.join(dir, 'main.cjs');
declare const __BUCKLER_BUNDLE_ID__: string;
/**
 * Named after a digest of main.cjs (scripts/build.mjs): V8 checks cached data only against the
 * source's length, so a rebuilt bundle of the same length must not find the old cache.
 */
const cacheFile = path.join(dir, `.main-${typeof __BUCKLER_BUNDLE_ID__ === 'string' ? __BUCKLER_BUNDLE_ID__ : 'dev'}.v8cache`);

function isHookRun(args: string[]): boolean {
  const first = args[0];
  return first === undefined || first === '--driver' || first.startsWith('--driver=');
}

function readCache(): { parts: number; data: Buffer } | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return bytes.length > HEAD && bytes[0] === MARK ? { parts: bytes.readUInt32LE(1), data: bytes.subarray(HEAD) } : undefined;
}

function writeCache(script: vm.Script, parts: number): void {
  try {
    const data = script.createCachedData();
    const bytes = Buffer.allocUnsafe(data.length + HEAD);
    bytes[0] = MARK;
    bytes.writeUInt32LE(parts >>> 0, 1);
    data.copy(bytes, HEAD);
    writeFileAtomic(cacheFile, bytes, { mode: 0o644 });
  } catch {
    /* no cache this time: the next run compiles again */
  }
}

function load(): void {
  // 'utf8' on purpose: Node reads and decodes it in one native call ('latin1' measured slower).
  const source = fs.readFileSync(bundle, 'utf8');
  const cached = readCache();
  const cachedData = cached?.data;
  // The bundle is built already wrapped in Node's CommonJS function wrapper (scripts/build.mjs):
  // wrapping it here would copy 128 KB of source into a second string on every start.
  const script = new vm.Script(source, cachedData ? { filename: bundle, cachedData } : { filename: bundle });
  const mod = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...a: unknown[]) => void;
  run.call(mod.exports, mod.exports, require, mod, bundle, dir);
  const main = mod.exports as unknown as MainModule;
  if (!isHookRun(process.argv.slice(2))) {
    main.start();
    return;
  }
  const had = cachedData === undefined || script.cachedDataRejected === true ? 0 : (cached?.parts ?? 0);
  let parts = 0;
  // After the run, so the cache also holds the functions this hook compiled lazily.
  process.once('exit', () => {
    if (parts !== 0 && (parts & ~had) !== 0) writeCache(script, parts | had);
  });
  main.start((outcome) => {
    parts = outcome.codeCache;
  });
}

try {
  load();
} catch (e) {
  // Exit 2 blocks the action in every supported harness: a Buckler that cannot start fails closed.
  fs.writeSync(2, `buckler: cannot start ${bundle}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
