/**
 * Buckler's locations for this process: src/paths.ts (the one resolver) applied to the process's
 * environment, platform and home directory. Every command asks here.
 *
 * The home directory comes from the environment (`HOME`; `USERPROFILE` on Windows), as Node's
 * `os.homedir()` itself reads it; node:os is loaded only when that is unset, since loading it
 * costs each hook about 0.35 ms (docs/performance.md).
 */
import { codeFile, homeFromEnv, isSystemCodeFile, personPaths, resolvePaths, resolveSystemPaths, systemEnv, type Env, type PathContext, type Paths } from '../paths.ts';

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
  // In system mode `env` is main.ts's systemEnv-filtered one: a location variable left in it was
  // allowed by the system config (allow_location_variables), and moves only the person's audit log.
  if (systemMode()) return resolveSystemPaths(processPathContext(env), approvalsUid(env), true);
  return resolvePaths(processPathContext(env));
}

// ---- System mode (the locked-down install, docs/install.md) ----

let system: boolean | undefined;
/** True when this process runs the code of a locked-down install (under /opt/buckler). */
export function systemMode(): boolean {
  return (system ??= isSystemCodeFile(codeFile(), process.platform));
}

/**
 * Whose approvals (allow-once, trust) this process reads and writes in system mode: the
 * person's own id; for root, the person `sudo` ran for (SUDO_UID), else root's own.
 */
export function approvalsUid(env: Env): number {
  const uid = processUid() ?? 0;
  if (uid !== 0) return uid;
  const sudo = sudoUid(env);
  return sudo ?? 0;
}

/** SUDO_UID as a user id other than root's, or undefined. */
export function sudoUid(env: Env): number | undefined {
  const v = env['SUDO_UID'];
  if (v === undefined || !/^[1-9][0-9]{0,9}$/.test(v)) return undefined;
  return Number(v);
}

/**
 * The owner the compiled-pack cache must have: root's in system mode (it is made at install
 * time in the root-owned tree, and a person's hook never writes one there), else this user's.
 */
export function policyCacheUid(): number | undefined {
  return systemMode() ? 0 : processUid();
}

/**
 * What every policy load of this process passes the runtime besides its own options: the cache
 * owner, and in system mode the person's layers (tighten-only) and the shared cache.
 */
export function policyOptions(env: Env): { uid: number | undefined; person?: { configFile: string; rulesDir: string }; shared?: boolean } {
  if (!systemMode()) return { uid: processUid() };
  // `env` is systemEnv-filtered (main.ts): what is left of the location variables was allowed.
  const person = personPaths(processPathContext(env), true);
  return { uid: 0, person: { configFile: person.configFile, rulesDir: person.rulesDir }, shared: true };
}

/**
 * A command's environment in the locked-down install: systemEnv with what the system config's
 * `[system] allow_bypass` / `allow_location_variables` allow, read now (commands only: a hook
 * learns them from the policy it loads, hook/decide.ts). The reader is imported only here.
 */
export async function systemCommandEnv(env: Env): Promise<Env> {
  const { readSystemSettings } = await import('./system-settings.ts');
  const s = readSystemSettings();
  return systemEnv(env, { bypass: s.allowBypass, locationVariables: s.allowLocationVariables });
}
