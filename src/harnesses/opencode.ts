/** OpenCode. Facts from the native binary of `opencode-ai` 1.18.33 (run end to end 2026-12-01). */
import type { HarnessRecord } from './record.ts';

export const opencode = {
  name: 'opencode',
  title: 'OpenCode',
  readFrom: 'opencode-ai 1.18.33',
  // xdg-basedir: an absolute XDG_CONFIG_HOME, else ~/.config.
  home: { path: ['.config', 'opencode'], variable: { name: 'XDG_CONFIG_HOME', is: 'parent', absoluteOnly: true } },
  // Not a settings file: Buckler's own plugin module, in a folder OpenCode loads plugins from.
  scopes: {
    user: { base: 'harness_home', path: ['plugins', 'buckler.js'] },
    project: { base: 'project', path: ['.opencode', 'plugins', 'buckler.js'] },
  },
  files: {
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
  // Binary strings: `ConfigManaged.managedConfigDir()` is /etc/opencode (Linux),
  // /Library/Application Support/opencode (macOS, plus MDM preferences `ai.opencode.managed`),
  // %ProgramData%\opencode (Windows); opencode.json and opencode.jsonc there are loaded after
  // every other config. OPENCODE_TEST_MANAGED_CONFIG_DIR moves it.
  system: {
    files: {
      linux: '/etc/opencode/opencode.json',
      darwin: '/Library/Application Support/opencode/opencode.json',
      win32: 'C:\\ProgramData\\opencode\\opencode.json',
    },
    variable: 'OPENCODE_TEST_MANAGED_CONFIG_DIR',
    hooks: "loaded after every other config, so its `plugin` list can load Buckler's plugin from a root-owned file; whether a project can drop it is not yet verified",
    lockedDown: false,
  },
  ask: [
    { mode: 'every mode', becomes: 'deny', note: 'OpenCode 1.18.33 has no ask trigger for plugins, so Buckler answers ask with a deny' },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['opencode', 'opencode-ai'], settingsVariables: ['OPENCODE_CONFIG', 'OPENCODE_CONFIG_DIR', 'OPENCODE_CONFIG_CONTENT', 'OPENCODE_TEST_MANAGED_CONFIG_DIR'], settingsOptions: [], approvalsOff: [] },
} as const satisfies HarnessRecord;
