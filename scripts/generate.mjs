// Rewrites the blocks generated from the command table (src/cli/command-table.ts): agent-tamper's
// list of the Buckler commands an agent may run, and docs/cli.md's command lists. What each block
// holds: src/cli/generated.ts; src/cli/generated.test.ts fails while a file is stale.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(os.tmpdir(), 'buckler-generate-'));
try {
  const out = path.join(dir, 'generated.cjs');
  await build({ entryPoints: ['src/cli/generated.ts'], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: out, logLevel: 'warning' });
  const { GENERATED_FILES, regenerate } = createRequire(import.meta.url)(out);
  for (const file of GENERATED_FILES) {
    const text = readFileSync(file, 'utf8');
    const next = regenerate(text);
    if (next !== text) {
      writeFileSync(file, next);
      console.log(`updated ${file}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
