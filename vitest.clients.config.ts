import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Real-client tests (`npm run test:clients`): each file runs one harness's real CLI against a
// fake model server. One file at a time: the clients are heavy, and the machine is small.
// Like the unit suite (vitest.config.ts): the test processes get a sandbox HOME and Buckler
// locations, and the run fails if anything Buckler could write in the real home changed.
const sandbox = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-clients-sandbox-')));
process.env.BUCKLER_TEST_SANDBOX = sandbox;

export default defineConfig({
  test: {
    include: ['e2e/clients/**/*.clients.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
    globalSetup: ['src/test-home.setup.testing.ts'],
    setupFiles: ['src/test-home.env.testing.ts'],
    env: { BUCKLER_TEST_SANDBOX: sandbox },
  },
});
