/** Factory Droid. Facts from the native binary of `@factory/cli-linux-x64` 0.225.2 (run end to end 2026-12-01). */
import type { HarnessRecord } from './record.ts';

export const factoryDroid = {
  name: 'factory-droid',
  title: 'Factory Droid',
  readFrom: '@factory/cli-linux-x64 0.225.2',
  // Read from the home directory only: no variable moves it.
  home: { path: ['.factory'] },
  scopes: {
    user: { base: 'harness_home', path: ['settings.json'] },
    project: { base: 'project', path: ['.factory', 'settings.json'] },
  },
  files: {
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
  // Binary strings: `na="/etc/factory"`, `ra="/Library/Application Support/Factory"`,
  // `sa="C:\\Program Files\\Factory"`, file `settings.json`; its `hooks` key is split off like
  // the other layers'. Organisation-managed settings also come from Factory's server.
  system: {
    files: {
      linux: '/etc/factory/settings.json',
      darwin: '/Library/Application Support/Factory/settings.json',
      win32: 'C:\\Program Files\\Factory\\settings.json',
    },
    hooks: 'a settings layer with hooks; its precedence over user and project settings is not yet verified in a real run',
    lockedDown: true,
  },
  ask: [
    { mode: 'every mode (interactive, exec, auto levels)', becomes: 'deny', note: "Droid only logs a hook's ask and runs the tool, so Buckler answers ask with a deny" },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['droid'], settingsVariables: [], settingsOptions: [], approvalsOff: ['--skip-permissions-unsafe'] },
} as const satisfies HarnessRecord;
