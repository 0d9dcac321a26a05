/** GitHub Copilot CLI. Facts from `@github/copilot` 1.0.102 (run end to end 2026-12-01). */
import type { HarnessRecord } from './record.ts';

export const copilotCli = {
  name: 'copilot-cli',
  title: 'GitHub Copilot CLI',
  readFrom: '@github/copilot 1.0.102',
  home: { path: ['.copilot'], variable: { name: 'COPILOT_HOME', is: 'folder' } },
  scopes: {
    user: { base: 'harness_home', path: ['settings.json'] },
    project: { base: 'project', path: ['.github', 'copilot', 'settings.json'] },
  },
  files: {
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
  // None found: 1.0.102's code ships compressed inside its native binary, and its strings name
  // no system-level settings file.
  system: null,
  ask: [
    { mode: 'interactive', becomes: 'prompt' },
    { mode: 'headless (-p)', becomes: 'deny', note: '"unable to ask user for confirmation", observed end to end' },
    { mode: '--allow-all-tools', becomes: 'unverified' },
  ],
} as const satisfies HarnessRecord;
