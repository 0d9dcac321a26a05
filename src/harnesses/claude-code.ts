/** Claude Code. Facts from the native binary of `@anthropic-ai/claude-code` 2.1.332 (run end to end 2026-12-01 and 2026-12-03). */
import type { HarnessRecord } from './record.ts';

export const claudeCode = {
  name: 'claude-code',
  title: 'Claude Code',
  readFrom: '@anthropic-ai/claude-code 2.1.332',
  home: { path: ['.claude'], variable: { name: 'CLAUDE_CONFIG_DIR', is: 'folder' } },
  scopes: {
    user: { base: 'harness_home', path: ['settings.json'] },
    project: { base: 'project', path: ['.claude', 'settings.json'] },
    local: { base: 'project', path: ['.claude', 'settings.local.json'] },
    managed: { base: 'system' },
  },
  files: {
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
  // Strings of the 2.1.332 binary; also a managed-settings.d/ drop-in folder, MDM and server-managed settings.
  system: {
    files: {
      linux: '/etc/claude-code/managed-settings.json',
      darwin: '/Library/Application Support/ClaudeCode/managed-settings.json',
      win32: 'C:\\Program Files\\ClaudeCode\\managed-settings.json',
    },
    hooks:
      "managed hooks run and outrank every other layer: a project's disableAllHooks did not switch them off in a real run; allowManagedHooksOnly drops all other hooks",
    lockedDown: true,
  },
  ask: [
    { mode: 'interactive (default, acceptEdits, plan)', becomes: 'prompt' },
    { mode: 'headless (-p, SDK without a prompt handler)', becomes: 'deny', note: 'Claude Code refuses the call; the model reads the reason' },
    { mode: 'bypassPermissions with -p', becomes: 'deny', note: 'observed 2026-12-03: the tool did not run' },
    { mode: 'bypassPermissions interactive', becomes: 'unverified' },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['claude', 'claude-code'], settingsVariables: ['CLAUDE_CONFIG_DIR'], settingsOptions: ['--settings', '--setting-sources', '--bare'], approvalsOff: ['--dangerously-skip-permissions', '--allow-dangerously-skip-permissions'], approvalsOffWords: ['bypassPermissions'] },
} as const satisfies HarnessRecord;
