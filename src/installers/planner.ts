/**
 * Plans, as data, what merge or strip would do to one config file: the hook changes, the
 * bytes before and after, and what happens to the file and its backup. Nothing is written
 * here; apply.ts carries a plan out and render.ts shows it.
 */
import fs from 'node:fs';
import type { InstallableHarness } from '../paths.ts';
import { readConfig, parseConfigBytes, type ConfigSnapshot } from './config-file.ts';
import { InstallerError } from './errors.ts';
import type { Change, HarnessInstaller } from './installer.ts';
import { DEFAULT_STYLE, isObject, rewritesContent, sameJson, serialize, withoutLayout, type JsonObject } from './json-text.ts';

/**
 * What happens to the config file:
 * none — nothing to do; create — a new file; update — rewritten with the changes;
 * restore — strip found the file equal to its backup once Buckler's hooks are gone and puts
 * the backup's exact bytes back; delete — strip removed a file that only Buckler's hooks filled.
 */
export type FileAction = 'none' | 'create' | 'update' | 'restore' | 'delete';

/** What happens to `<file>.buckler-backup`. */
export type BackupAction = 'none' | 'create' | 'keep' | 'remove';

export interface Plan {
  action: 'merge' | 'strip';
  harness: InstallableHarness;
  /** The config path as configured. */
  file: string;
  /** Where bytes go (a symlink's target, else `file`). */
  target: string;
  changes: Change[];
  fileAction: FileAction;
  /** Bytes on disk when planned; null when the file did not exist. */
  before: Buffer | null;
  /** Bytes after; null when the file will not exist. */
  after: Buffer | null;
  backup: { file: string; action: BackupAction };
  /** Permission bits and owner to keep (null for a new file). */
  mode: number | null;
  owner: { uid: number; gid: number } | null;
  warnings: string[];
}

/** The one backup Buckler keeps: the bytes of a config before Buckler first changed it. */
export function backupFileOf(file: string): string {
  return `${file}.buckler-backup`;
}

function editable(installer: HarnessInstaller, snap: ConfigSnapshot): JsonObject {
  const problem = installer.problem(snap.value);
  if (problem !== null) throw new InstallerError('malformed', snap.file, `${problem}; left unchanged`);
  return snap.value as JsonObject;
}

/**
 * The bytes of a config value: the harness's codec (editing the file's bytes in place when it
 * can), else JSON in `style`.
 */
function bytesOf(installer: HarnessInstaller, value: JsonObject, snap: ConfigSnapshot | null): Buffer {
  const codec = installer.codec;
  if (codec === undefined) return Buffer.from(serialize(value, snap?.style ?? DEFAULT_STYLE), 'utf8');
  if (snap !== null && snap.exists && codec.edit !== undefined) return codec.edit(snap.file, snap.bytes, value);
  return codec.render(value);
}

function textOf(bytes: Buffer): string {
  const t = bytes.toString('utf8');
  return t.startsWith('\uFEFF') ? t.slice(1) : t;
}

function base(installer: HarnessInstaller, snap: ConfigSnapshot, action: Plan['action']): Omit<Plan, 'changes' | 'fileAction' | 'after' | 'backup'> {
  return {
    action,
    harness: installer.name,
    file: snap.file,
    target: snap.target,
    before: snap.exists ? snap.bytes : null,
    mode: snap.mode,
    owner: snap.uid === null || snap.gid === null ? null : { uid: snap.uid, gid: snap.gid },
    warnings: [],
  };
}

/** Plans a merge of Buckler's hooks, all pointing at `command`. */
export function planMerge(installer: HarnessInstaller, snap: ConfigSnapshot, command: string, backupExists: boolean): Plan {
  const plan = base(installer, snap, 'merge');
  const backup = { file: backupFileOf(snap.file), action: 'none' as BackupAction };
  if (!snap.exists) {
    const edit = installer.wire(installer.emptyConfig(), command);
    const after = bytesOf(installer, edit.value, null);
    // What the harness needs besides the file (a trust step) applies to a new file too.
    plan.warnings.push(...installer.warnings(edit.value, snap.file));
    return { ...plan, changes: edit.changes, fileAction: 'create', after, backup };
  }
  const value = editable(installer, snap);
  plan.warnings.push(...installer.warnings(value, snap.file));
  const edit = installer.wire(value, command);
  if (edit.changes.length === 0) return { ...plan, changes: [], fileAction: 'none', after: snap.bytes, backup };
  // A file that holds nothing but Buckler's own entries has no original worth keeping: strip
  // deletes it later, as if merge had created it.
  const onlyBuckler = installer.find(value).length > 0 && sameJson(installer.unwire(value).value, installer.emptyConfig());
  backup.action = backupExists ? 'keep' : onlyBuckler ? 'none' : 'create';
  if (installer.codec === undefined && rewritesContent(textOf(snap.bytes), value)) {
    plan.warnings.push(
      `rewriting also respells values whose JSON text is unusual (number forms, escapes, repeated keys); the original bytes are kept in ${backup.file}`,
    );
  }
  const after = bytesOf(installer, edit.value, snap);
  return { ...plan, changes: edit.changes, fileAction: 'update', after, backup };
}

/**
 * Whether the config differs from its backup by Buckler's hooks alone: what strip leaves equals
 * the backup, or merging into the backup gives exactly the config (containers merge created,
 * such as a `hooks` object or an event list, included).
 */
function sameAsBackup(installer: HarnessInstaller, value: JsonObject, stripped: JsonObject, original: unknown): boolean {
  if (sameJson(original, stripped)) return true;
  if (installer.problem(original) !== null) return false;
  const backup = original as JsonObject;
  if (installer.find(backup).length > 0) return false;
  const commands = new Set(installer.find(value).map((f) => f.command));
  if (commands.size !== 1) return false;
  return sameJson(installer.wire(backup, [...commands][0] as string).value, value);
}

/**
 * Whether a file edited in place still holds something of the person's once `value` (an empty
 * config) is written: a comment. Such a file is kept, not deleted.
 */
function keepsText(installer: HarnessInstaller, snap: ConfigSnapshot, value: JsonObject): boolean {
  if (installer.codec?.edit === undefined) return false;
  return withoutLayout(textOf(bytesOf(installer, value, snap))) !== JSON.stringify(value);
}

/**
 * Plans removing Buckler's hooks. When the file differs from its backup by Buckler's hooks
 * alone, the backup's exact bytes come back (and the backup goes); when what is left is an
 * empty config and there is no backup, Buckler created the file and it goes.
 */
export function planStrip(installer: HarnessInstaller, snap: ConfigSnapshot, backupBytes: Buffer | null): Plan {
  const plan = base(installer, snap, 'strip');
  const backup = { file: backupFileOf(snap.file), action: 'none' as BackupAction };
  if (!snap.exists) return { ...plan, changes: [], fileAction: 'none', after: null, backup };
  const value = editable(installer, snap);
  const edit = installer.unwire(value);
  if (edit.changes.length === 0) return { ...plan, changes: [], fileAction: 'none', after: snap.bytes, backup };
  if (backupBytes !== null) {
    let original: unknown;
    try {
      original = installer.codec === undefined ? parseConfigBytes(backup.file, backupBytes).value : installer.codec.parse(backup.file, backupBytes);
    } catch {
      plan.warnings.push(`${backup.file} is not valid JSON; not used`);
    }
    if (original !== undefined && sameAsBackup(installer, value, edit.value, original)) {
      return { ...plan, changes: edit.changes, fileAction: 'restore', after: backupBytes, backup: { ...backup, action: 'remove' } };
    }
    backup.action = 'keep';
  } else if (isObject(edit.value) && sameJson(edit.value, installer.emptyConfig()) && !keepsText(installer, snap, edit.value)) {
    return { ...plan, changes: edit.changes, fileAction: 'delete', after: null, backup };
  } else {
    backup.action = 'create';
  }
  const after = bytesOf(installer, edit.value, snap);
  return { ...plan, changes: edit.changes, fileAction: 'update', after, backup };
}

function readBackup(file: string): Buffer | null {
  try {
    return fs.readFileSync(backupFileOf(file));
  } catch {
    return null;
  }
}

/** Reads the config and plans merging Buckler's hooks into it. Throws InstallerError. */
export function readMergePlan(installer: HarnessInstaller, file: string, command: string): Plan {
  return planMerge(installer, readConfig(file, installer.codec), command, fs.existsSync(backupFileOf(file)));
}

/** Reads the config and its backup and plans stripping Buckler's hooks. Throws InstallerError. */
export function readStripPlan(installer: HarnessInstaller, file: string): Plan {
  return planStrip(installer, readConfig(file, installer.codec), readBackup(file));
}
