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
 * of the bundle for what a length check cannot see. The cache is written only by a
 * typical hook run (one that decided a shell command with the compiled-pack cache warm: so it
 * holds the functions shell-command hooks use, not the pack compiler of the first hook after an install, which made later
 * hooks measurably slower), only when missing or rejected, or made after an allow when this hook
 * blocked (see `ALLOW`), atomically (temp file + rename), and
 * a failure to write it is ignored. It lives beside the bundle: whoever
 * can write it can already replace the bundle itself.
 *
 * Deliberately tiny and dependency-free: it is on every hook's path.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { writeFileAtomic } from '../files/atomic.ts';

interface MainModule {
  start(): void;
  /**
   * Asked at exit: was this run one worth caching (a shell-command hook, packs cache warm), and
   * did it block (then it also ran the code a deny needs)?
   */
  codeCacheWanted(): 'none' | 'allow' | 'block';
}

/**
 * The cache file is one byte saying which kind of hook made it, then V8's data. A cache made
 * after an allow lacks what a deny runs (its messages, allow-once, the audit record), which a
 * later deny then compiles: 3–7 ms more per deny, measured. So a blocking hook replaces such a
 * cache once with one that holds both (docs/performance.md).
 */
const ALLOW = 0x61; // 'a'
const BLOCK = 0x62; // 'b'

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

function readCache(): { kind: number; data: Buffer } | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const kind = bytes[0];
  return kind === ALLOW || kind === BLOCK ? { kind, data: bytes.subarray(1) } : undefined;
}

function writeCache(script: vm.Script, kind: number): void {
  try {
    const data = script.createCachedData();
    const bytes = Buffer.allocUnsafe(data.length + 1);
    bytes[0] = kind;
    data.copy(bytes, 1);
    writeFileAtomic(cacheFile, bytes, { mode: 0o644 });
  } catch {
    /* no cache this time: the next run compiles again */
  }
}

function load(): MainModule {
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
  const missing = cachedData === undefined || script.cachedDataRejected === true;
  if (isHookRun(process.argv.slice(2)) && (missing || cached?.kind === ALLOW)) {
    // After the run, so the cache also holds the functions this hook compiled lazily.
    process.once('exit', () => {
      const wanted = main.codeCacheWanted();
      if (wanted === 'block') writeCache(script, BLOCK);
      else if (wanted === 'allow' && missing) writeCache(script, ALLOW);
    });
  }
  return main;
}

try {
  load().start();
} catch (e) {
  // Exit 2 blocks the action in every supported harness: a Buckler that cannot start fails closed.
  fs.writeSync(2, `buckler: cannot start ${bundle}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
