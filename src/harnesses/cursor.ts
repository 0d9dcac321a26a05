/** Cursor. Facts from `@cursor/sdk` 1.0.32 and Cursor's hook documentation (shared reference, harness-protocols.md §1). */
import type { HarnessRecord } from './record.ts';

export const cursor = {
  name: 'cursor',
  title: 'Cursor',
  readFrom: '@cursor/sdk 1.0.32',
  home: { path: ['.cursor'] },
  scopes: {
    user: { base: 'harness_home', path: ['hooks.json'] },
    project: { base: 'project', path: ['.cursor', 'hooks.json'] },
  },
  files: {
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
  // Documented enterprise (MDM) hooks.json; not read from shipped code (the IDE is not on npm).
  system: {
    files: {
      linux: '/etc/cursor/hooks.json',
      darwin: '/Library/Application Support/Cursor/hooks.json',
      win32: 'C:\\ProgramData\\Cursor\\hooks.json',
    },
    hooks: 'enterprise hooks run beside user and project hooks (documented; not verified in a real client)',
    lockedDown: true,
  },
  ask: [
    { mode: 'IDE agent', becomes: 'prompt', note: 'beforeShellExecution honours ask (documented, not run end to end)' },
    { mode: 'SDK / headless', becomes: 'passes', note: "the SDK's local executor treats ask from preToolUse as a pass; a shell call is still gated by beforeShellExecution" },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['cursor-agent'], settingsVariables: ['CURSOR_CONFIG_DIR'], settingsOptions: [], approvalsOff: ['--force', '--yolo'] },
} as const satisfies HarnessRecord;
