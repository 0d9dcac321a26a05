/** The process's paths: the home directory from the environment, node:os only when it is unset. */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { resolvePaths } from '../paths.ts';
import { processPathContext, processPaths } from './process-paths.ts';

const homeVar = process.platform === 'win32' ? 'USERPROFILE' : 'HOME';

describe('processPathContext', () => {
  it('takes the home directory from the environment', () => {
    const ctx = processPathContext({ [homeVar]: '/somewhere/else' });
    expect(ctx).toEqual({ env: { [homeVar]: '/somewhere/else' }, platform: process.platform, home: '/somewhere/else' });
  });
  it.each([[{}], [{ [homeVar]: '' }]])('asks the OS when the environment has none (%j)', (env) => {
    expect(processPathContext(env).home).toBe(os.homedir());
  });
  it('processPaths is the one resolver applied to that context', () => {
    const env = { [homeVar]: '/h', BUCKLER_STATE_HOME: '/state' };
    expect(processPaths(env)).toEqual(resolvePaths(processPathContext(env)));
    expect(processPaths(env).cacheDir).toBe(process.platform === 'win32' ? '/state\\cache' : '/state/cache');
  });
});
