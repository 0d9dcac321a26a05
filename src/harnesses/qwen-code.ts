/** Qwen Code. Facts from `@qwen-code/qwen-code` 0.24.4's bundle (run end to end 2026-12-01). */
import type { HarnessRecord } from './record.ts';

export const qwenCode = {
  name: 'qwen-code',
  title: 'Qwen Code',
  readFrom: '@qwen-code/qwen-code 0.24.4',
  // `Storage.getGlobalQwenDir()`: QWEN_HOME replaces ~/.qwen.
  home: { path: ['.qwen'], variable: { name: 'QWEN_HOME', is: 'folder' } },
  scopes: {
    user: { base: 'harness_home', path: ['settings.json'] },
    project: { base: 'project', path: ['.qwen', 'settings.json'] },
  },
  files: {
    settings: [
      { base: 'harness_home', path: 'settings.json' },
      { base: 'project', path: '.qwen/settings.json' },
    ],
    // Qwen Code 0.24.4 (a Gemini CLI fork) keeps its OAuth login in oauth_creds.json.
    credentials: [{ base: 'harness_home', path: 'oauth_creds.json' }],
    // No folder-trust store was found in 0.24.4's shipped code.
    trust: [],
  },
  // chunks/chunk-IDS7MSUP.js getSystemSettingsPath(); mergeSettings() (chunk-LYEINKJD.js) merges system last.
  system: {
    files: {
      linux: '/etc/qwen-code/settings.json',
      darwin: '/Library/Application Support/QwenCode/settings.json',
      win32: 'C:\\ProgramData\\qwen-code\\settings.json',
    },
    variable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH',
    hooks: 'system settings are merged last and override user and workspace settings',
    lockedDown: true,
  },
  ask: [
    { mode: 'every mode (interactive, -p, --yolo)', becomes: 'deny', note: 'Qwen prompts only when it can, and --yolo has no prompt, so Buckler answers ask with a deny' },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['qwen', 'qwen-code'], settingsVariables: ['QWEN_CODE_SYSTEM_SETTINGS_PATH'], settingsOptions: [], approvalsOff: ['--yolo', '-y'], approvalsOffWords: ['yolo'] },
} as const satisfies HarnessRecord;
