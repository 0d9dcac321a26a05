// vitest setupFiles: points this test process's HOME and every Buckler location at the sandbox
// (src/test-home.testing.ts) before any test file loads; commands tests spawn inherit it.
import { createSandbox } from './test-home.testing.ts';

const root = process.env.BUCKLER_TEST_SANDBOX;
if (root === undefined || root === '') throw new Error('BUCKLER_TEST_SANDBOX is not set: run the tests through vitest.config.ts');
Object.assign(process.env, createSandbox(root));
