/**
 * The history of allow-once grants a person made (`buckler allow … WORD…`): what `buckler
 * suggest` reads. The store itself (allow-once.ts) forgets an entry once it is used up or
 * expired; this file keeps the last MAX_GRANTS grants, each with its words, project and time.
 *
 * One JSON file beside the store (0600 in the 0700 state directory, replaced atomically under
 * its lock, like the store). Only `buckler allow` writes it and only `buckler suggest` reads it:
 * the hook never opens it, so it costs a hook nothing.
 */
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic.ts';
import { lockFileFor, withLock } from '../files/lock.ts';
import { ensurePrivateDir, readPrivate } from '../files/private.ts';

export const HISTORY_VERSION = 1;
/** Grants kept; older ones are dropped first. */
export const MAX_GRANTS = 500;

export interface GrantRecord {
  /** The entry id the grant made. */
  id: string;
  argv: string[];
  project: string;
  /** ms since the epoch. */
  at: number;
}

export function historyFile(stateHome: string): string {
  return path.join(stateHome, 'allow-history.json');
}

function isGrant(v: unknown): v is GrantRecord {
  if (typeof v !== 'object' || v === null) return false;
  const g = v as Record<string, unknown>;
  return typeof g.id === 'string' && Array.isArray(g.argv) && g.argv.length > 0 && g.argv.every((a) => typeof a === 'string') && typeof g.project === 'string' && typeof g.at === 'number';
}

/** The grants recorded, oldest first; [] when there is no history. Throws on an unsafe or malformed file. */
export function readGrants(file: string, uid: number | undefined): GrantRecord[] {
  const text = readPrivate(file, uid);
  if (text === null) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON (remove it to start again)`);
  }
  const h = data as { version?: unknown; grants?: unknown };
  if (typeof data !== 'object' || data === null || h.version !== HISTORY_VERSION || !Array.isArray(h.grants) || !h.grants.every(isGrant)) {
    throw new Error(`${file} is not an allow-once history of version ${HISTORY_VERSION} (remove it to start again)`);
  }
  return h.grants;
}

/** Appends one grant, keeping the last MAX_GRANTS. */
export function recordGrant(file: string, uid: number | undefined, grant: GrantRecord): void {
  ensurePrivateDir(path.dirname(file), file, uid);
  withLock(
    lockFileFor(file),
    () => {
      const grants = [...readGrants(file, uid), grant].slice(-MAX_GRANTS);
      writeFileAtomic(file, `${JSON.stringify({ version: HISTORY_VERSION, grants })}\n`, { mode: 0o600 });
    },
    { waitMs: 3000 },
  );
}
