import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests (and the commands they spawn, which inherit the environment) keep the compiled-pack
// cache and other state in a throw-away directory, never in the real ~/.local/state.
const stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-test-state-'));

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    env: { BUCKLER_STATE_HOME: stateHome },
  },
});
