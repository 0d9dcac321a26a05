/**
 * dist/buckler.cjs: what every hook and every `buckler` command starts. It runs the hook bundle
 * (dist/main.cjs) through a V8 code cache kept beside it, `.main.cjs.v8cache`.
 *
 * Why: compiling the bundle and the first run of the shell analyser are most of Buckler's own
 * start-up (docs/performance.md); with the cache V8 skips that compilation. Node 20 has no
 * `module.enableCompileCache` (22.1+), so this does by hand what `v8-compile-cache` does.
 *
 * Safety: V8 checks cached data against the source and its own version and flags, and rejects
 * it on any mismatch (then the bundle is simply compiled). The cache is written only by hook
 * runs (so it holds the functions a hook uses), only when missing or rejected, atomically
 * (temp file + rename), and a failure to write it is ignored. It lives beside the bundle: whoever
 * can write it can already replace the bundle itself.
 *
 * Deliberately tiny and dependency-free: it is on every hook's path.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

interface MainModule {
  start(): void;
}

const dir = __dirname;
const bundle = path.join(dir, 'main.cjs');
const cacheFile = path.join(dir, '.main.cjs.v8cache');

function isHookRun(args: string[]): boolean {
  const first = args[0];
  return first === undefined || first === '--driver' || first.startsWith('--driver=');
}

function readCache(): Buffer | undefined {
  try {
    return fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

function writeCache(script: vm.Script): void {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o644 });
    fs.renameSync(tmp, cacheFile);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      /* never created */
    }
  }
}

function load(): MainModule {
  const source = fs.readFileSync(bundle, 'utf8');
  const cachedData = readCache();
  // The CommonJS wrapper, as Node's own loader builds it.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new vm.Script(wrapped, cachedData ? { filename: bundle, cachedData } : { filename: bundle });
  const mod = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...a: unknown[]) => void;
  run.call(mod.exports, mod.exports, require('node:module').createRequire(bundle), mod, bundle, dir);
  if (isHookRun(process.argv.slice(2)) && (cachedData === undefined || script.cachedDataRejected === true)) {
    // After the run, so the cache also holds the functions this hook compiled lazily.
    process.once('exit', () => writeCache(script));
  }
  return mod.exports as unknown as MainModule;
}

try {
  load().start();
} catch (e) {
  // Exit 2 blocks the action in every supported harness: a Buckler that cannot start fails closed.
  fs.writeSync(2, `buckler: cannot start ${bundle}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
