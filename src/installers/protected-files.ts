/**
 * The files of each harness an agent must not write (packs/agent-tamper.yaml) or read
 * (packs/agent-secrets.yaml), as data: its hook and settings files, its credentials, and the
 * trust stores that decide whether it runs hooks at all. The CLI turns them into the named
 * locations of the action context (src/cli/locations.ts); packs refer to them by name
 * (`harness_settings`, `harness_credentials`, `harness_trust`), so a harness added to
 * HARNESS_SCOPES must list its files here (the Record type makes it a compile error not to), and
 * is protected from that day on.
 *
 * Imported on the hook path: data only, no installer code.
 */
import type { InstallableHarness } from '../paths.ts';

/**
 * Where a file lies: `home` (the home directory), `harness_home` (the harness's own directory,
 * `harnessHomeDir`: ~/.claude or $CLAUDE_CONFIG_DIR, ~/.codex or $CODEX_HOME, …), `project`
 * (inside any project: a path matched anywhere, `.claude/settings.json`), `managed` (the
 * administrator's settings file, `harnessManagedFile`), `system` (an absolute path on one
 * platform).
 */
export type HarnessFile =
  | { base: 'home' | 'harness_home' | 'project'; path: string }
  | { base: 'managed' }
  | { base: 'system'; platform: NodeJS.Platform; path: string };

export interface HarnessFiles {
  /** Hook and settings files, every scope the harness reads hooks from. */
  readonly settings: readonly HarnessFile[];
  /** The harness's own credentials (tokens, OAuth files). */
  readonly credentials: readonly HarnessFile[];
  /** Trust stores: what decides whether the harness runs hooks at all. */
  readonly trust: readonly HarnessFile[];
}

export const HARNESS_FILES: Readonly<Record<InstallableHarness, HarnessFiles>> = {
  cursor: {
    // Cursor reads hooks.json at enterprise, user and project level (harness-protocols.md §1.1).
    settings: [
      { base: 'harness_home', path: 'hooks.json' },
      { base: 'project', path: '.cursor/hooks.json' },
      { base: 'system', platform: 'linux', path: '/etc/cursor/hooks.json' },
      { base: 'system', platform: 'darwin', path: '/Library/Application Support/Cursor/hooks.json' },
    ],
    // Cursor's command-line agent keeps its login here.
    credentials: [{ base: 'home', path: '.config/cursor/auth.json' }],
    trust: [],
  },
  'claude-code': {
    settings: [
      { base: 'harness_home', path: 'settings.json' },
      { base: 'harness_home', path: 'settings.local.json' },
      { base: 'project', path: '.claude/settings.json' },
      { base: 'project', path: '.claude/settings.local.json' },
      { base: 'managed' },
    ],
    credentials: [{ base: 'harness_home', path: '.credentials.json' }],
    // ~/.claude.json holds each project's accepted trust dialog.
    trust: [{ base: 'home', path: '.claude.json' }],
  },
  codex: {
    // hooks.json in each config layer; config.toml holds `[features] hooks` and inline `[hooks]`.
    settings: [
      { base: 'harness_home', path: 'hooks.json' },
      { base: 'harness_home', path: 'config.toml' },
      { base: 'project', path: '.codex/hooks.json' },
      { base: 'project', path: '.codex/config.toml' },
    ],
    credentials: [{ base: 'harness_home', path: 'auth.json' }],
    // Per-hook trusted hashes (`[hooks.state."…"] trusted_hash`) and project trust live in config.toml.
    trust: [{ base: 'harness_home', path: 'config.toml' }],
  },
  'gemini-cli': {
    settings: [
      { base: 'harness_home', path: 'settings.json' },
      { base: 'project', path: '.gemini/settings.json' },
      { base: 'system', platform: 'linux', path: '/etc/gemini-cli/settings.json' },
      { base: 'system', platform: 'darwin', path: '/Library/Application Support/GeminiCli/settings.json' },
    ],
    credentials: [{ base: 'harness_home', path: 'oauth_creds.json' }],
    // Folder trust: hooks from settings do not run in an untrusted folder.
    trust: [{ base: 'harness_home', path: 'trustedFolders.json' }],
  },
  'copilot-cli': {
    settings: [
      { base: 'harness_home', path: 'settings.json' },
      { base: 'project', path: '.github/copilot/settings.json' },
      { base: 'project', path: '.github/copilot/settings.local.json' },
      { base: 'project', path: '.github/hooks/*.json' },
    ],
    // config.json may hold the login when no system keychain is available.
    credentials: [{ base: 'harness_home', path: 'config.json' }],
    // `trustedFolders`: repository hooks run only in trusted folders.
    trust: [{ base: 'harness_home', path: 'config.json' }],
  },
  'factory-droid': {
    // Droid 0.225 reads `hooks` from settings.json, settings.local.json and hooks.json in
    // ~/.factory and the project's .factory (docs/adapters/factory-droid.md).
    settings: [
      { base: 'harness_home', path: 'settings.json' },
      { base: 'harness_home', path: 'settings.local.json' },
      { base: 'harness_home', path: 'hooks.json' },
      { base: 'project', path: '.factory/settings.json' },
      { base: 'project', path: '.factory/settings.local.json' },
      { base: 'project', path: '.factory/hooks.json' },
    ],
    // The binary keeps its login in auth.json in its own directory.
    credentials: [{ base: 'harness_home', path: 'auth.json' }],
    // Its folder-trust store was not found in the shipped code; none is listed.
    trust: [],
  },
  'qwen-code': {
    settings: [
      { base: 'harness_home', path: 'settings.json' },
      { base: 'project', path: '.qwen/settings.json' },
    ],
    // Qwen Code 0.24.4 (a Gemini CLI fork) keeps its OAuth login in oauth_creds.json.
    credentials: [{ base: 'harness_home', path: 'oauth_creds.json' }],
    // No folder-trust store was found in 0.24.4's shipped code.
    trust: [],
  },
  opencode: {
    // OpenCode 1.18.33 has no hook settings: it runs every plugin module in `plugin/` or
    // `plugins/` of its config folders ($XDG_CONFIG_HOME/opencode, each `.opencode` from the
    // working directory up to the project root, ~/.opencode) and every `plugin` entry of its
    // opencode.json(c) files. A plugin the agent wrote runs in process beside Buckler's (and
    // can rewrite a call after Buckler checked it), and a config can change which plugins load:
    // all of them are Buckler's to protect.
    settings: [
      { base: 'harness_home', path: 'plugin/**' },
      { base: 'harness_home', path: 'plugins/**' },
      { base: 'harness_home', path: 'opencode.json' },
      { base: 'harness_home', path: 'opencode.jsonc' },
      { base: 'harness_home', path: 'config.json' },
      { base: 'harness_home', path: 'package.json' },
      { base: 'project', path: '.opencode/plugin/**' },
      { base: 'project', path: '.opencode/plugins/**' },
      { base: 'project', path: '.opencode/opencode.json' },
      { base: 'project', path: '.opencode/opencode.jsonc' },
      { base: 'project', path: '.opencode/package.json' },
      // Not listed: `opencode.json(c)` at a project's root, which OpenCode also reads (and whose
      // `plugin` list loads plugins). A project pattern is matched anywhere, and one without a
      // leading dot would make every recursive delete that may hold such a file (`rm -rf
      // ./out/*`) a tamper: docs/adapters/opencode.md says so.
    ],
    // `opencode auth login` keeps provider keys in auth.json in its data folder.
    credentials: [{ base: 'home', path: '.local/share/opencode/auth.json' }],
    // No folder-trust step: OpenCode loads a project's plugins without asking.
    trust: [],
  },
};
