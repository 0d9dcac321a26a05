/**
 * Buckler's locations for this process: src/paths.ts (the one resolver) applied to the process's
 * environment, platform and home directory. Every command asks here.
 *
 * The home directory comes from the environment (`HOME`; `USERPROFILE` on Windows), as Node's
 * `os.homedir()` itself reads it; node:os is loaded only when that is unset, since loading it
 * costs each hook about 0.35 ms (docs/performance.md).
 */
import { homeFromEnv, resolvePaths, type Env, type PathContext, type Paths } from '../paths.ts';

export function processPathContext(env: Env): PathContext {
  const platform = process.platform;
  return { env, platform, home: homeFromEnv(env, platform) ?? process.getBuiltinModule('node:os').homedir() };
}

/**
 * This process's user id, for the checks that refuse another user's cache or audit log (the
 * packs and audit code may not touch `process`); undefined where there is none (Windows).
 */
export function processUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

export function processPaths(env: Env): Paths {
  return resolvePaths(processPathContext(env));
}
