// Builds what `bin/buckler` and every harness hook run: CommonJS bundles in dist/.
//
// - dist/buckler.cjs: the entry, a tiny loader that runs dist/main.cjs through a V8 code cache.
// - dist/main.cjs: the whole hook path (driver, adapters, core, shell, packs runtime), minified,
//   as one CommonJS function expression that the loader calls.
//   CJS, not ESM: on Node 20 the ESM loader alone costs 5–9 % of start-up
//   (../shared/reference/parsers-and-startup.md §1.1).
// - dist/cli-<module>.cjs: every other command, one bundle each: the modules the command table
//   (src/cli/command-table.ts) names. src/cli/main.ts `import()`s them; here those imports become
//   require()s of the sibling file, so the hook never reads or compiles their code
//   (docs/performance.md). A dynamic import in main.ts of anything else but the hook's own module
//   fails the build: a command missing from the table would otherwise land in the hook bundle.
// - js-yaml and smol-toml stay external: they are require()d from node_modules only when packs
//   or config.toml are (re)compiled, never on a warm hook.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['js-yaml', 'smol-toml'],
  define: { __BUCKLER_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  // src/paths.ts reads import.meta.url only when __filename is absent (ESM source under
  // vitest); in these CJS bundles __filename is always defined.
  logOverride: { 'empty-import-meta': 'silent' },
  legalComments: 'none',
};

/** The command table, evaluated (it imports nothing): which modules run commands, and the hook's. */
async function commandTable() {
  const out = await build({ ...common, plugins: [], entryPoints: ['src/cli/command-table.ts'], write: false, minify: false });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(mod, mod.exports, () => {
    throw new Error('the command table must not require anything');
  });
  return mod.exports;
}
const TABLE = await commandTable();
const COMMANDS = TABLE.COMMAND_TABLE.map((c) => c.module).filter((m) => m !== null);
const HOOK_MODULE = TABLE.HOOK.module;

/** main.ts's `import('./check.ts')` → `require('./cli-check.cjs')`, resolved next to the bundle. */
const lazyCommands = {
  name: 'lazy-commands',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+\.ts$/ }, (args) => {
      if (!args.importer.endsWith('/src/cli/main.ts') || args.kind !== 'dynamic-import') return undefined;
      const name = args.path.slice(2, -3);
      if (name === HOOK_MODULE) return undefined;
      if (!COMMANDS.includes(name)) return { errors: [{ text: `src/cli/main.ts imports ./${name}.ts, which no entry of src/cli/command-table.ts names: add it to the table` }] };
      return { path: `./cli-${name}.cjs`, external: true };
    });
  },
};

/**
 * A command's `--help` (src/cli/show-help.ts) `import()`s the help module: in the command
 * bundles that becomes a require() of dist/cli-help.cjs, so the help and the registries it fills
 * its texts from stay out of every command's own bundle.
 */
const lazyHelp = {
  name: 'lazy-help',
  setup(b) {
    b.onResolve({ filter: /^\.\/help\.ts$/ }, (args) => (args.importer.endsWith('/src/cli/show-help.ts') && args.kind === 'dynamic-import' ? { path: './cli-help.cjs', external: true } : undefined));
  },
};

/**
 * Node built-ins as tiny ESM modules: `export default require("node:fs")`, plus the names our
 * sources import by name. Left to esbuild, every `import fs from 'node:fs'` in every module
 * becomes `__toESM(require("node:fs"))`, which copies each property of the module onto a new
 * object — measured at about 3.5 ms of a hook's start-up across the modules on its path.
 */
function namedImports() {
  const names = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        for (const m of readFileSync(file, 'utf8').matchAll(/^import \{([^}]*)\} from '(node:[a-z/_]+)'/gm)) {
          const set = names.get(m[2]) ?? new Set();
          for (const n of m[1].split(',').map((x) => x.trim()).filter((x) => x && !x.startsWith('type '))) set.add(n);
          names.set(m[2], set);
        }
      }
    }
  };
  walk('src');
  return names;
}
const NAMED = namedImports();
const builtins = {
  name: 'node-builtins',
  setup(b) {
    // Only import statements: the require() inside the generated module stays a plain require.
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'node-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const names = [...(NAMED.get(args.path) ?? [])];
      const lines = [`const m = require(${JSON.stringify(args.path)});`, 'export default m;'];
      if (names.length > 0) lines.push(`export const { ${names.join(', ')} } = m;`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};
common.plugins = [builtins];

/**
 * src/grammars/builtin-texts.ts, evaluated now: the hook bundle gets every builtin program's data
 * as a JSON string literal, parsed only when a command of that program is read, instead of the
 * modules that build all the objects on every start (that module's comment; docs/performance.md).
 */
async function builtinTexts() {
  const out = await build({ ...common, plugins: [], entryPoints: ['src/grammars/builtin-texts.ts'], write: false, minify: false });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(mod, mod.exports, () => {
    throw new Error('builtin program data must not require anything');
  });
  const { BUILTIN_TEXTS, BUILTIN_TEXTS_ID } = mod.exports;
  return [
    '// Generated by scripts/build.mjs from src/grammars/builtin-texts.ts.',
    `export const BUILTIN_TEXTS = Object.freeze(${JSON.stringify(BUILTIN_TEXTS)});`,
    `export const BUILTIN_TEXTS_ID = ${JSON.stringify(BUILTIN_TEXTS_ID)};`,
    // One object literal of getters (see builtinGetters in the source): created in one step.
    `export function builtinGetters(read) { return { ${Object.keys(BUILTIN_TEXTS).map((n) => `get ${JSON.stringify(n)}() { return read(this, ${JSON.stringify(n)}); }`).join(', ')} }; }`,
  ].join('\n');
}
const BUILTIN_TEXTS_MODULE = await builtinTexts();
const precomputed = {
  name: 'builtin-texts',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]grammars[\\/]builtin-texts\.ts$/ }, () => ({ contents: BUILTIN_TEXTS_MODULE, loader: 'js' }));
  },
};

// Built into a scratch directory, then moved into dist/ one file at a time (each rename is
// atomic): a hook or test that starts while a build runs never finds dist/buckler.cjs missing.
const OUT = `dist/.build-${process.pid}`;
rmSync(OUT, { recursive: true, force: true });
await Promise.all([
  // Minified: at this size, reading and compiling the file is most of the hook's own cost; the
  // minified bundle measured 1.30× against 1.99× `node -e 0` unminified, in interleaved runs
  // (docs/performance.md). Stack traces never reach users, so names are not needed.
  // `dynamic-import: false` lowers main.ts's import() of the command bundles to require(): a
  // real import() inside the loader's vm.Script would need a callback Node 20 cannot provide;
  // import()s inside the bundle (the driver, the pack compiler, the audit log) become lazily
  // initialised modules of the bundle itself. The banner and footer wrap it in Node's CommonJS
  // function wrapper at build time, so the loader compiles the file as read, without copying it
  // into a second, wrapped string; `node dist/main.cjs` alone therefore runs nothing.
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: `${OUT}/main.cjs`, plugins: [builtins, lazyCommands, precomputed], minify: true, banner: { js: '(function (exports, require, module, __filename, __dirname) {' }, footer: { js: '\n})' }, supported: { 'dynamic-import': false } }),
  ...COMMANDS.map((c) => build({ ...common, entryPoints: [`src/cli/${c}.ts`], outfile: `${OUT}/cli-${c}.cjs`, plugins: [builtins, lazyHelp], supported: { 'dynamic-import': false } })),
]);
// The entry: runs dist/main.cjs through a V8 code cache (src/cli/loader.ts). The cache's file
// name carries a digest of main.cjs: V8 itself checks cached data only against the source's
// length, so a rebuilt bundle of the same length must never meet the old cache.
const bundleId = createHash('sha256').update(readFileSync(`${OUT}/main.cjs`)).digest('hex').slice(0, 16);
await build({ ...common, entryPoints: ['src/cli/loader.ts'], outfile: `${OUT}/buckler.cjs`, banner: { js: '#!/usr/bin/env node' }, define: { ...common.define, __BUCKLER_BUNDLE_ID__: JSON.stringify(bundleId) } });
chmodSync(`${OUT}/buckler.cjs`, 0o755);

// main.cjs first and the entry last, so a loader that starts meanwhile never runs an older bundle
// under the new bundle's cache name; then whatever the old build left (stale code caches
// included) goes.
mkdirSync('dist', { recursive: true });
const built = readdirSync(OUT);
const order = ['main.cjs', ...built.filter((f) => f !== 'main.cjs' && f !== 'buckler.cjs'), 'buckler.cjs'];
for (const f of order) renameSync(`${OUT}/${f}`, `dist/${f}`);
rmSync(OUT, { recursive: true, force: true });
for (const f of readdirSync('dist')) {
  if (!built.includes(f) && !f.startsWith('.build-')) rmSync(`dist/${f}`, { recursive: true, force: true });
}
