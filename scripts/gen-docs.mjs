#!/usr/bin/env node
/**
 * Rewrites every generated block (harness lists in docs/*.md, scripts/setup.sh's harness data)
 * from the harness records in src/harnesses/. `--check`: change nothing, exit 1 when a block is
 * stale (src/harnesses/generated.test.ts checks the same).
 *
 *   node scripts/gen-docs.mjs [--check]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes('--check');

// The records are TypeScript: bundle the renderer in memory and load it.
const out = await build({
  entryPoints: [path.join(ROOT, 'src', 'harnesses', 'generated.ts')],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'silent',
});
const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);

let stale = 0;
for (const { file, blocks, syntax } of mod.GENERATED_FILES) {
  const full = path.join(ROOT, file);
  const before = fs.readFileSync(full, 'utf8');
  const after = mod.rewriteBlocks(before, blocks, syntax);
  if (after === before) continue;
  stale++;
  if (check) console.error(`${file}: generated blocks are stale; run node scripts/gen-docs.mjs`);
  else {
    fs.writeFileSync(full, after);
    console.log(`rewrote ${file}`);
  }
}
process.exit(check && stale > 0 ? 1 : 0);
