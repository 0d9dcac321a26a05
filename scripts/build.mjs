// Builds the one CommonJS bundle that `bin/buckler` and every harness hook run.
// CJS, not ESM: on Node 20 the ESM loader alone costs 5–9 % of start-up
// (../shared/reference/parsers-and-startup.md §1.1). js-yaml and smol-toml stay
// external: they are require()d from node_modules only when packs are (re)compiled.
import { build } from 'esbuild';
import { readFileSync, chmodSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/buckler.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['js-yaml', 'smol-toml'],
  banner: { js: '#!/usr/bin/env node' },
  define: { __BUCKLER_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  legalComments: 'none',
});
chmodSync('dist/buckler.cjs', 0o755);
