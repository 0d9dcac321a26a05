/**
 * Factory Droid: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, command, timeout (s)} ]} ]}`
 * inside `~/.factory/settings.json` and a project's `.factory/settings.json`. Every other
 * settings key, and `hooks.hooksDisabled`, are left alone.
 *
 * Trust: Droid 0.225.2 skips hooks only while its folder-trust gate is up, and that gate is up
 * only in the interactive TUI in a folder not yet trusted (`isTrustGateActive()` =
 * `needsTrustPrompt()`, false unless `interactiveTui`). The TUI then shows "Trust this folder?"
 * before the session starts, with "Trust this folder" or "Exit without trusting", so no tool runs
 * unguarded; `droid exec` has no gate. Nothing for the person to do, so no warning.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import { jsoncCodec } from '../config-file.ts';
import type { HarnessInstaller } from '../installer.ts';
import { isObject } from '../json-text.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { DROID_HOOKS, DROID_HOOKS_SETTINGS, droidHandler } from './wiring.ts';

function warnings(value: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (isObject(value.hooks) && value.hooks.hooksDisabled === true) {
    out.push('has "hooks": {"hooksDisabled": true}; Factory Droid runs none of its hooks, Buckler included');
  }
  return out;
}

export const factoryDroidInstaller: HarnessInstaller = {
  name: 'factory-droid',
  scopes: HARNESS_SCOPES['factory-droid'],
  cli: { bin: 'droid', versionArgs: ['--version'] },
  offSwitches: [
    {
      scopes: ['user', 'project'],
      key: 'hooks.hooksDisabled',
      value: true,
      effect: 'Factory Droid runs no hooks at all, Buckler included',
    },
  ],
  warnings,
  // Factory Droid reads its settings as JSON with comments; Buckler keeps them (and the layout) when it edits.
  codec: jsoncCodec('Factory Droid'),
  ...groupInstaller({ hooks: DROID_HOOKS, handler: droidHandler, settingsKeys: DROID_HOOKS_SETTINGS }),
};
