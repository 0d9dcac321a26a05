/**
 * The command a harness runs to start Buckler. By default: this Node binary and this bundle,
 * both by absolute path (a harness started from a desktop may not have the user's PATH). When
 * the bundle belongs to an installed version that `current` points at, the command goes through
 * `current` instead, so switching versions needs no re-wiring.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InstallerError } from './errors.ts';
import { hookCommand, launchPrefix, readOwnCommand } from './own-command.ts';

export interface LaunchContext {
  /** The Node binary running now (process.execPath). */
  execPath: string;
  /** This Buckler's bundle (dist/buckler.cjs). */
  bundle: string;
  /** `versions/` and `current` from resolvePaths. */
  versionsDir: string;
  current: string;
  platform: NodeJS.Platform;
}

function real(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

/** The bundle path to write: through `current` when `current` is the version this bundle is in. */
export function stableBundlePath(ctx: LaunchContext): string {
  const bundle = real(ctx.bundle) ?? ctx.bundle;
  const versions = real(ctx.versionsDir);
  if (versions === null) return bundle;
  const rel = path.relative(versions, bundle);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return bundle;
  const [version, ...rest] = rel.split(path.sep);
  if (version === undefined || rest.length === 0) return bundle;
  if (real(ctx.current) !== path.join(versions, version)) return bundle;
  return path.join(ctx.current, ...rest);
}

/** `'<node>' '<bundle>'` for this Buckler. */
export function defaultLaunchPrefix(ctx: LaunchContext): string {
  return launchPrefix([ctx.execPath, stableBundlePath(ctx)], ctx.platform);
}

/**
 * The hook command for `harness` from a launch prefix (`--command`, or the default). The
 * prefix must start Buckler in a way Buckler recognises again (docs/hooks.md), or merge could
 * not find, replace or strip what it wrote.
 */
export function commandFor(prefix: string, harness: string): string {
  const command = hookCommand(prefix, harness);
  const own = readOwnCommand(command);
  if (own === null || own.driver !== harness) {
    throw new InstallerError(
      'usage',
      null,
      `--command ${JSON.stringify(prefix)} does not start Buckler recognisably: give the command without --driver, ` +
        `e.g. "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs'" or "'/home/me/.local/bin/buckler'", one plain command ` +
        `whose program (or script after node) is named buckler`,
    );
  }
  return command;
}
