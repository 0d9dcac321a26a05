/**
 * vitest globalSetup: records what Buckler could write in the developer's real home before the
 * run, and fails the run when any of it changed after (a test reached outside its sandbox).
 * vitest.config.ts points every test at the sandbox; this checks that it worked.
 */
import fs from 'node:fs';
import os from 'node:os';
import { homeFromEnv } from './paths.ts';
import { changes, guardedPaths, snapshot } from './test-home.testing.ts';

export default function setup(): () => void {
  // This process keeps the real environment: only test processes get the sandbox.
  const home = homeFromEnv(process.env, process.platform) ?? os.homedir();
  const watch = guardedPaths({ env: process.env, platform: process.platform, home });
  const before = snapshot(watch);
  return () => {
    const sandbox = process.env.BUCKLER_TEST_SANDBOX;
    if (sandbox !== undefined && sandbox !== '') fs.rmSync(sandbox, { recursive: true, force: true });
    const diff = changes(before, snapshot(watch));
    if (diff.length === 0) return;
    const message =
      `tests wrote outside their sandbox, in the real home ${home}:\n  ${diff.join('\n  ')}\n` +
      '(a test ran Buckler without the sandbox environment; or another Buckler process, a real hook or ' +
      'another checkout\'s tests, wrote there during the run)';
    // For a machine where other Buckler processes share the home (the check cannot tell who wrote).
    if (process.env.BUCKLER_TEST_HOME_GUARD === 'warn') {
      console.warn(`warning: ${message}`);
      return;
    }
    // vitest reports an error thrown here but keeps its exit status: set the status too.
    process.exitCode = 1;
    throw new Error(message);
  };
}
