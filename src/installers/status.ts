/**
 * What a config says about Buckler: which wanted hooks are wired, the commands they run,
 * whether those commands' files exist, and whether a merge would change anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { InstallableHarness } from '../paths.ts';
import { readConfig } from './config-file.ts';
import { InstallerError } from './errors.ts';
import type { FoundHook, HarnessInstaller, WantedHook } from './installer.ts';
import type { JsonObject } from './json-text.ts';
import { backupFileOf } from './planner.ts';
import { trustProblems } from './trust-apply.ts';

export interface HookStatus {
  event: string;
  matcher?: string;
  /** wired: as merge writes it; differs: Buckler is there but not as merge writes it. */
  state: 'wired' | 'differs' | 'missing';
  command?: string;
}

export interface CommandStatus {
  command: string;
  /** Files the command needs, each absolute and present when `problems` is empty. */
  files: string[];
  problems: string[];
}

export interface ConfigStatus {
  harness: InstallableHarness;
  file: string;
  exists: boolean;
  wiring: 'full' | 'partial' | 'none';
  hooks: HookStatus[];
  /** Buckler entries merge would remove: on events Buckler no longer uses, or repeated. */
  extra: FoundHook[];
  commands: CommandStatus[];
  /** The command merge would write (null when none was given). */
  expected: string | null;
  /** Whether merging `expected` would leave the file as it is (null when no command was given). */
  upToDate: boolean | null;
  backup: string | null;
  warnings: string[];
  /** Why the harness would skip Buckler's entries (installer.trust: Codex's hook trust); [] when it runs them. */
  trust: string[];
  /** Fully wired, nothing extra, every command's files present, and the harness runs them. */
  ok: boolean;
}

/** Where a harness keeps its trust store: its home directory, and the project of a project-scope file. */
export interface TrustContext {
  home: string;
  projectRoot: string | null;
}

function checkFile(p: string): string | null {
  if (!path.isAbsolute(p) && !path.win32.isAbsolute(p)) return `${p}: not an absolute path (a harness started from a desktop may not have your PATH)`;
  try {
    if (!fs.statSync(p).isFile()) return `${p}: not a file`;
  } catch {
    return `${p}: missing`;
  }
  return null;
}

export function commandStatus(command: string, files: readonly string[]): CommandStatus {
  const problems = files.map(checkFile).filter((x): x is string => x !== null);
  return { command, files: [...files], problems };
}

/** The status of a parsed config (already checked editable). */
export function statusOfValue(installer: HarnessInstaller, file: string, value: JsonObject | null, expected: string | null, trust: string[] = []): Omit<ConfigStatus, 'backup'> {
  const found = value === null ? [] : installer.find(value);
  const used = new Set<FoundHook>();
  // An event may hold several wanted hooks (one per matcher): each takes the entry with its own
  // matcher first, and only then an entry nobody else matched (an older wiring).
  const picks = new Map<WantedHook, FoundHook>();
  const take = (h: WantedHook, fits: (f: FoundHook) => boolean): void => {
    if (picks.has(h)) return;
    const here = found.filter((f) => f.event === h.event && !used.has(f) && fits(f));
    const pick = here.find((f) => f.asWanted) ?? here[0];
    if (pick === undefined) return;
    used.add(pick);
    picks.set(h, pick);
  };
  for (const h of installer.hooks) take(h, (f) => f.matcher === h.matcher);
  for (const h of installer.hooks) take(h, () => true);
  const hooks: HookStatus[] = installer.hooks.map((h) => {
    const pick = picks.get(h);
    const m = h.matcher === undefined ? {} : { matcher: h.matcher };
    if (pick === undefined) return { event: h.event, ...m, state: 'missing' };
    return { event: h.event, ...m, state: pick.asWanted ? 'wired' : 'differs', command: pick.command };
  });
  const extra = found.filter((f) => !used.has(f));
  const byCommand = new Map<string, FoundHook>();
  for (const f of found) if (!byCommand.has(f.command)) byCommand.set(f.command, f);
  const commands = [...byCommand.values()].map((f) => commandStatus(f.command, f.files));
  const wired = hooks.filter((h) => h.state === 'wired').length;
  const wiring = wired === hooks.length ? 'full' : found.length === 0 ? 'none' : 'partial';
  const upToDate = expected === null ? null : installer.wire(value ?? installer.emptyConfig(), expected).changes.length === 0 && value !== null;
  return {
    harness: installer.name,
    file,
    exists: value !== null,
    wiring,
    hooks,
    extra,
    commands,
    expected,
    upToDate,
    warnings: value === null ? [] : installer.warnings(value, file),
    trust,
    ok: wiring === 'full' && extra.length === 0 && commands.every((c) => c.problems.length === 0) && trust.length === 0,
  };
}

/**
 * Reads `file` and reports on it; with `trustCtx`, also whether the harness would run Buckler's
 * entries (its trust store). Throws InstallerError for an unreadable or malformed file.
 */
export function readStatus(installer: HarnessInstaller, file: string, expected: string | null, trustCtx?: TrustContext): ConfigStatus {
  const snap = readConfig(file, installer.codec);
  let value: JsonObject | null = null;
  if (snap.exists) {
    const problem = installer.problem(snap.value);
    if (problem !== null) throw new InstallerError('malformed', file, problem);
    value = snap.value as JsonObject;
  }
  const backup = backupFileOf(file);
  const trust = value === null || trustCtx === undefined ? [] : trustProblems(installer, file, value, trustCtx.home, trustCtx.projectRoot);
  return { ...statusOfValue(installer, file, value, expected, trust), backup: fs.existsSync(backup) ? backup : null };
}
