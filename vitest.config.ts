import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Every test process, and every command a test spawns with the inherited environment, finds
// HOME and all of Buckler's locations (src/paths.ts's variables, the harnesses' own) inside one
// throw-away directory, never the developer's real home: src/test-home.env.testing.ts sets them
// in each test process before any test file loads. src/test-home.setup.testing.ts checks after
// the run that nothing in the real home changed; src/test-home.test.ts checks the sandbox.
const sandbox = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-test-sandbox-')));
process.env.BUCKLER_TEST_SANDBOX = sandbox;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    globalSetup: ['src/test-home.setup.testing.ts'],
    setupFiles: ['src/test-home.env.testing.ts'],
    env: { BUCKLER_TEST_SANDBOX: sandbox },
  },
});
