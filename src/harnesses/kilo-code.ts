/**
 * Kilo Code CLI, an OpenCode fork. Facts from the native binary of `@kilocode/cli-linux-x64`
 * 7.7.9 (the newest linux-x64 build: the 7.8.1 wrapper's own build is not on the registry), run
 * end to end 2026-12-03.
 */
import type { HarnessRecord } from './record.ts';

export const kiloCode = {
  name: 'kilo-code',
  title: 'Kilo Code',
  readFrom: '@kilocode/cli-linux-x64 7.7.9',
  // xdg-basedir as in OpenCode: an absolute XDG_CONFIG_HOME, else ~/.config.
  home: { path: ['.config', 'kilo'], variable: { name: 'XDG_CONFIG_HOME', is: 'parent', absoluteOnly: true } },
  // Not a settings file: Buckler's own plugin module (the OpenCode one), in a folder Kilo loads
  // plugins from (`glob("{plugin,plugins}/*.{ts,js}"` in every config folder).
  scopes: {
    user: { base: 'harness_home', path: ['plugins', 'buckler.js'] },
    project: { base: 'project', path: ['.kilo', 'plugins', 'buckler.js'] },
  },
  files: {
    // Kilo 7.7.9 has no hook settings: it runs every plugin module in `plugin/` or `plugins/` of
    // its config folders (~/.config/kilo; `.kilocode` and `.kilo` from the working directory up
    // and in the home, `let D=[".kilocode",".kilo"]`) and every `plugin` entry of its config files
    // (`["config.json","kilo.json","kilo.jsonc","opencode.json","opencode.jsonc"]`). A plugin the
    // agent wrote runs in process beside Buckler's, and a config can change which plugins load.
    settings: [
      { base: 'harness_home', path: 'plugin/**' },
      { base: 'harness_home', path: 'plugins/**' },
      { base: 'harness_home', path: 'kilo.json' },
      { base: 'harness_home', path: 'kilo.jsonc' },
      { base: 'harness_home', path: 'opencode.json' },
      { base: 'harness_home', path: 'opencode.jsonc' },
      { base: 'harness_home', path: 'config.json' },
      { base: 'harness_home', path: 'package.json' },
      { base: 'home', path: '.kilo/plugin/**' },
      { base: 'home', path: '.kilo/plugins/**' },
      { base: 'home', path: '.kilocode/plugin/**' },
      { base: 'home', path: '.kilocode/plugins/**' },
      { base: 'project', path: '.kilo/plugin/**' },
      { base: 'project', path: '.kilo/plugins/**' },
      { base: 'project', path: '.kilo/kilo.json' },
      { base: 'project', path: '.kilo/kilo.jsonc' },
      { base: 'project', path: '.kilo/package.json' },
      { base: 'project', path: '.kilocode/plugin/**' },
      { base: 'project', path: '.kilocode/plugins/**' },
      { base: 'project', path: '.kilocode/kilo.json' },
      { base: 'project', path: '.kilocode/kilo.jsonc' },
      { base: 'project', path: '.kilocode/package.json' },
      // Not listed, as for OpenCode: `kilo.json(c)` / `opencode.json(c)` at a project's root (a
      // project pattern without a leading dot would make every recursive delete a tamper).
    ],
    // `kilo auth login` keeps provider keys in auth.json in its data folder.
    credentials: [{ base: 'home', path: '.local/share/kilo/auth.json' }],
    // No folder-trust step: Kilo loads a project's plugins without asking.
    trust: [],
  },
  // Binary strings: `managedConfigDir()` is /etc/kilo (Linux), /Library/Application Support/kilo
  // (macOS), %ProgramData%\kilo (Windows); every config file name there is loaded after the
  // others. KILO_TEST_MANAGED_CONFIG_DIR moves it.
  system: {
    files: {
      linux: '/etc/kilo/kilo.json',
      darwin: '/Library/Application Support/kilo/kilo.json',
      win32: 'C:\\ProgramData\\kilo\\kilo.json',
    },
    variable: 'KILO_TEST_MANAGED_CONFIG_DIR',
    lockedDown: false,
    hooks: "loaded after every other config, so its `plugin` list can load Buckler's plugin from a root-owned file; whether a project can drop it is not yet verified",
  },
  ask: [
    { mode: 'every mode', becomes: 'deny', note: 'Kilo Code 7.7.9 has no ask trigger for plugins (as OpenCode), so Buckler answers ask with a deny; `kilo run` auto-rejects its own asks, `kilo run --auto` approves them' },
  ],
  // `kilo` is the binary (`@kilocode/cli`); KILO_CONFIG* move its settings, KILO_PURE / --pure
  // skip external plugins (Buckler's among them), KILO_PERMISSION overlays its permission config;
  // `kilo run --auto` approves every ask (read in @kilocode/cli-linux-x64 7.7.9).
  cli: { programs: ['kilo', 'kilocode'], settingsVariables: ['KILO_CONFIG', 'KILO_CONFIG_DIR', 'KILO_CONFIG_CONTENT', 'KILO_TEST_MANAGED_CONFIG_DIR', 'KILO_PURE', 'KILO_PERMISSION'], settingsOptions: ['--pure'], approvalsOff: ['--auto'] },
} as const satisfies HarnessRecord;
