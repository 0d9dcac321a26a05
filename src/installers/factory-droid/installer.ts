/**
 * Factory Droid: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, command, timeout (s)} ]} ]}`
 * inside `~/.factory/settings.json` and a project's `.factory/settings.json`. Every other
 * settings key, and `hooks.hooksDisabled`, are left alone.
 *
 * Trust: Droid 0.225 skips every hook while the folder it runs in is not trusted yet ("[Hooks]
 * Skipping hooks: folder not trusted yet"); the trust answer is given in Droid's own prompt and
 * is not a documented file, so Buckler cannot set it: merge and status say so.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { HarnessInstaller } from '../installer.ts';
import { isObject } from '../json-text.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { DROID_HOOKS, DROID_HOOKS_SETTINGS, droidHandler } from './wiring.ts';

export const DROID_TRUST_NOTE =
  'Factory Droid runs no hooks in a folder it does not trust yet: start droid once in each project and trust the folder';

function warnings(value: Record<string, unknown>): string[] {
  const out = [DROID_TRUST_NOTE];
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
  ...groupInstaller({ hooks: DROID_HOOKS, handler: droidHandler, settingsKeys: DROID_HOOKS_SETTINGS }),
};
