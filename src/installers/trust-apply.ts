/**
 * Keeps a harness's trust store (installer.trust: Codex's config.toml) in line with a merge or
 * strip of its hooks file, and reads it for status and doctor. The store is written like a
 * hooks file (apply.ts): under its lock, atomically, and only over the bytes it was planned from.
 * No backup: the edit touches only the entries for hooks Buckler itself wrote or moved.
 */
import fs from 'node:fs';
import path from 'node:path';
import { planAndApply } from './apply.ts';
import { parseConfigBytes, writeTarget } from './config-file.ts';
import { InstallerError, describeFsError } from './errors.ts';
import type { HarnessInstaller } from './installer.ts';
import { isObject, type JsonObject } from './json-text.ts';
import { backupFileOf, type Plan } from './planner.ts';

export interface TrustResult {
  /** The store file. */
  file: string;
  /** What changed (or, in a dry run, would change). */
  notes: string[];
  /** Why Buckler's entries would still not run afterwards. */
  problems: string[];
}

/** The hooks file as the harness names it: its folder with symlinks resolved. */
export function canonicalHooksFile(file: string): string {
  try {
    return path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
  } catch {
    return file;
  }
}

function readText(file: string): { text: string | null; bytes: Buffer | null; st: fs.Stats | null } {
  const target = writeTarget(file);
  try {
    const bytes = fs.readFileSync(target);
    return { text: bytes.toString('utf8'), bytes, st: fs.statSync(target) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, bytes: null, st: null };
    throw new InstallerError('unreadable', file, `cannot read: ${describeFsError(e)}`);
  }
}

function valueOf(file: string, bytes: Buffer | null): JsonObject | null {
  if (bytes === null) return null;
  const { value } = parseConfigBytes(file, bytes);
  return isObject(value) ? value : null;
}

/**
 * After `plan` (a merge or strip of `installer`'s hooks file; in a dry run, before it is
 * carried out), brings the trust store in `home` in line with it; a dry run only says what
 * would change. Null for a harness without a trust store.
 */
export function syncTrust(installer: HarnessInstaller, plan: Plan, home: string, projectRoot: string | null, dryRun: boolean): TrustResult | null {
  const gate = installer.trust;
  if (gate === undefined || installer.codec !== undefined) return null;
  const store = gate.storeFile(home);
  const hooksFile = canonicalHooksFile(plan.file);
  const before = valueOf(plan.file, plan.before);
  const after = valueOf(plan.file, plan.fileAction === 'none' ? plan.before : plan.after);
  let notes: string[] = [];
  if (dryRun) {
    notes = gate.update(store, readText(store).text, hooksFile, before, after).notes;
  } else {
    const makePlan = (): Plan => {
      const { text, bytes, st } = readText(store);
      const update = gate.update(store, text, hooksFile, before, after);
      notes = update.notes;
      // A store that held nothing but Buckler's trust goes with it (Codex needs no config.toml).
      const gone = update.text !== null && update.text.trim() === '';
      const next = update.text === null ? bytes : gone ? null : Buffer.from(update.text, 'utf8');
      return {
        action: plan.action,
        harness: installer.name,
        file: store,
        target: writeTarget(store),
        changes: [],
        fileAction: update.text === null ? 'none' : gone ? (bytes === null ? 'none' : 'delete') : bytes === null ? 'create' : 'update',
        before: bytes,
        after: next,
        backup: { file: backupFileOf(store), action: 'none' },
        mode: st === null ? 0o600 : st.mode & 0o7777,
        owner: st === null ? null : { uid: st.uid, gid: st.gid },
        warnings: [],
      };
    };
    planAndApply(store, makePlan);
  }
  const text = dryRun ? null : readText(store).text;
  const problems = after === null || dryRun ? [] : gate.problems(store, text, hooksFile, after, projectRoot);
  return { file: store, notes, problems };
}

/** Why Buckler's entries in `file` (holding `value`) would not run; [] for a harness without a trust store. */
export function trustProblems(installer: HarnessInstaller, file: string, value: JsonObject, home: string, projectRoot: string | null): string[] {
  const gate = installer.trust;
  if (gate === undefined) return [];
  const store = gate.storeFile(home);
  let text: string | null;
  try {
    text = readText(store).text;
  } catch (e) {
    return [e instanceof InstallerError ? e.message : String(e)];
  }
  return gate.problems(store, text, canonicalHooksFile(file), value, projectRoot);
}
