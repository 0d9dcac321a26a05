/**
 * Claude Code: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, command, timeout,
 * onFailure} ]} ]}` inside ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR/settings.json),
 * .claude/settings.json and .claude/settings.local.json. Every other settings key is left alone.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { HarnessInstaller } from '../installer.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { CLAUDE_HOOKS, claudeHandler } from './wiring.ts';

export const claudeCodeInstaller: HarnessInstaller = {
  name: 'claude-code',
  scopes: HARNESS_SCOPES['claude-code'],
  cli: { bin: 'claude', versionArgs: ['--version'] },
  // Claude Code 2.1.332's settings schema: `disableAllHooks` "Disable all hooks and statusLine
  // execution" in any settings file; `allowManagedHooksOnly` "When true (and set in managed
  // settings), only hooks from managed settings … run". Seen in the real client (2026-12-01):
  // `disableAllHooks` in user, project or local settings leaves managed hooks running.
  offSwitches: [
    {
      scopes: ['user', 'project', 'local'],
      key: 'disableAllHooks',
      value: true,
      effect: 'Claude Code runs no hooks from user, project or local settings, Buckler included',
      unlessWiredIn: ['managed'],
    },
    {
      scopes: ['managed'],
      key: 'disableAllHooks',
      value: true,
      effect: 'Claude Code runs no hooks at all, Buckler included',
    },
    {
      scopes: ['managed'],
      key: 'allowManagedHooksOnly',
      value: true,
      effect: 'Claude Code runs only hooks from managed settings, and Buckler is not wired there',
      unlessWiredIn: ['managed'],
    },
  ],
  warnings(value) {
    return value.disableAllHooks === true ? ['has "disableAllHooks": true; Claude Code runs none of its hooks'] : [];
  },
  ...groupInstaller({ hooks: CLAUDE_HOOKS, handler: claudeHandler }),
};
