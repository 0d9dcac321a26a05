import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Real-client tests (`npm run test:clients`): each file runs one harness's real CLI against a
// fake model server. One file at a time: the clients are heavy, and the machine is small.
const stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-clients-state-'));

export default defineConfig({
  test: {
    include: ['e2e/clients/**/*.clients.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
    env: { BUCKLER_STATE_HOME: stateHome },
  },
});
