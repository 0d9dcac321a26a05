/**
 * Test-only: makes sure dist/buckler.cjs is built from the current sources, building it once
 * when it is missing or older than any file under src/ or scripts/ (`npm test` builds first, so
 * this usually does nothing). A lock directory keeps parallel test files from building at once.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const BUNDLE = path.join(ROOT, 'dist', 'buckler.cjs');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const stale = (): boolean =>
  !fs.existsSync(BUNDLE) || fs.statSync(BUNDLE).mtimeMs < Math.max(newest(path.join(ROOT, 'src')), newest(path.join(ROOT, 'scripts')));

export function ensureBuilt(): string {
  if (!stale()) return BUNDLE;
  const lock = path.join(ROOT, 'dist', '.build-lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (waited > 60_000) fs.rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    if (stale()) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return BUNDLE;
}
