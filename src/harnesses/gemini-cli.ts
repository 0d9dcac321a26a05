/** Gemini CLI. Facts from `@google/gemini-cli` 0.61.0's bundle (run end to end 2026-12-01). */
import type { HarnessRecord } from './record.ts';

export const geminiCli = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  readFrom: '@google/gemini-cli 0.61.0',
  // GEMINI_CLI_HOME replaces the home directory: the folder is `$GEMINI_CLI_HOME/.gemini`.
  home: { path: ['.gemini'], variable: { name: 'GEMINI_CLI_HOME', is: 'home' } },
  scopes: {
    user: { base: 'harness_home', path: ['settings.json'] },
    project: { base: 'project', path: ['.gemini', 'settings.json'] },
  },
  files: {
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
  // bundle/chunk-DZZAUXYI.js getSystemSettingsPath(); mergeSettings() merges system last (it wins).
  system: {
    files: {
      linux: '/etc/gemini-cli/settings.json',
      darwin: '/Library/Application Support/GeminiCli/settings.json',
      win32: 'C:\\ProgramData\\gemini-cli\\settings.json',
    },
    variable: 'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
    hooks: 'system settings are merged last and override user and workspace settings (hooksConfig.enabled included)',
    lockedDown: true,
  },
  ask: [
    { mode: 'every mode (interactive, -p, --yolo)', becomes: 'deny', note: 'an ask hangs a headless run, so Buckler answers ask with a deny' },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['gemini', 'gemini-cli'], settingsVariables: ['GEMINI_CLI_SYSTEM_SETTINGS_PATH', 'GEMINI_CLI_HOME'], settingsOptions: [], approvalsOff: ['--yolo', '-y'], approvalsOffWords: ['yolo'] },
} as const satisfies HarnessRecord;
