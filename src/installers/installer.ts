/**
 * The contract each harness installer implements: Buckler's hooks for that harness as data,
 * and pure edits of the parsed config that add or remove them. Files, backups, plans and
 * rendering are shared (planner.ts, apply.ts, render.ts) and know no harness.
 */
import type { InstallableHarness, Scope } from '../paths.ts';
import type { JsonObject } from './json-text.ts';

/** One hook Buckler wants in a harness config. */
export interface WantedHook {
  event: string;
  /** Tool-name matcher; absent = every occurrence of the event. */
  matcher?: string;
  /** Seconds the harness waits before giving up on the hook. */
  timeout: number;
  /** Whether a hook that fails (crash, timeout, bad output) blocks the action. */
  blockOnFailure: boolean;
}

/** One planned edit, for people to read and scripts to inspect. */
export interface Change {
  op: 'add' | 'replace' | 'remove';
  event: string;
  matcher?: string;
  /** The command written (add, replace) or removed (remove). */
  command: string;
  /** For replace: the command that was there before. */
  previous?: string;
}

export interface Edit {
  value: JsonObject;
  changes: Change[];
}

/** A Buckler entry found in a config, wherever it sits. */
export interface FoundHook {
  event: string;
  matcher?: string;
  command: string;
  /** Files the command needs (the interpreter, Buckler's bundle or launcher). */
  files: string[];
  /** The entry is exactly what `wire` writes for this event with this command. */
  asWanted: boolean;
}

/**
 * A harness setting that silently switches hooks off: a key in one of its settings files and
 * the value that does it. `buckler doctor` reports each one it finds.
 */
export interface OffSwitch {
  scopes: readonly Scope[];
  /** A top-level key, or a dotted path into nested objects (`hooks.hooksDisabled`). */
  key: string;
  value: string | number | boolean;
  /** What the setting does, for the person. */
  effect: string;
  /** Harmless when Buckler is wired in one of these scopes. */
  unlessWiredIn?: readonly Scope[];
}

/**
 * How a config that is not a JSON file (OpenCode's plugin module) reads as a JSON value and back.
 * `parse` throws InstallerError('malformed') for bytes Buckler must leave alone.
 */
export interface ConfigCodec {
  parse(file: string, bytes: Buffer): unknown;
  /** The bytes of a new file holding `value`. */
  render(value: JsonObject): Buffer;
  /**
   * The bytes of the existing file `before` changed to hold `value`, keeping what did not change
   * (JSON with comments: jsonc-edit.ts). Absent: `render`.
   */
  edit?(file: string, before: Buffer, value: JsonObject): Buffer;
}

export interface HarnessInstaller {
  readonly name: InstallableHarness;
  /** The harness's command-line program and how it prints its version (absent: no CLI). */
  readonly cli?: { bin: string; versionArgs: readonly string[] };
  /** Settings that switch the harness's hooks off (`buckler doctor` looks for each). */
  readonly offSwitches: readonly OffSwitch[];
  /**
   * Environment variables that switch Buckler off in the harness when set (to anything but
   * empty, `0` or `false`): `buckler doctor` reports each one set in its own environment, which a
   * harness started from the same shell inherits.
   */
  readonly offEnv?: readonly { name: string; effect: string }[];
  readonly scopes: readonly Scope[];
  readonly hooks: readonly WantedHook[];
  /**
   * Absent: the config is a JSON file. OpenCode's is a plugin module; Gemini CLI's, Qwen Code's
   * and Factory Droid's are JSON with comments (config-file.ts `jsoncCodec`).
   */
  readonly codec?: ConfigCodec;
  /** Absent: the harness runs every hook in its hooks file. */
  readonly trust?: TrustGate;
  /** The config for a file that does not exist yet. */
  emptyConfig(): JsonObject;
  /** Why `value` is not a config this installer can edit, or null when it can. */
  problem(value: unknown): string | null;
  /** Things worth telling the person about an editable config (not errors); `file` is its path. */
  warnings(value: JsonObject, file?: string): string[];
  /** Buckler's hooks wired to `command`, every other entry kept in place and order. */
  wire(value: JsonObject, command: string): Edit;
  /** Every Buckler entry removed, and the containers that only held them. */
  unwire(value: JsonObject): Edit;
  /** Buckler's entries in the config, in file order. */
  find(value: JsonObject): FoundHook[];
}

/**
 * A harness's own record of which hooks it runs, apart from the hooks file (Codex's per-hook
 * trust in config.toml): without it a wired hook is silently skipped. Merge and strip keep it in
 * line with Buckler's entries; status and doctor report entries the harness would skip.
 */
export interface TrustGate {
  /** The file the harness keeps the record in, given its home directory. */
  storeFile(home: string): string;
  /**
   * The store's new text (null: unchanged) after an edit turned the hooks file `hooksFile`
   * (canonical path) from `before` into `after` (null: no file), and what changed.
   */
  update(store: string, text: string | null, hooksFile: string, before: JsonObject | null, after: JsonObject | null): { text: string | null; notes: string[] };
  /**
   * Why Buckler's entries in `hooksFile` would not run, one line each (empty: they run).
   * `projectRoot`: the project whose folder holds the hooks file (project scope), else null.
   */
  problems(store: string, text: string | null, hooksFile: string, value: JsonObject, projectRoot: string | null): string[];
}
