/**
 * Qwen Code: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, name, command,
 * timeout} ]} ]}` inside `~/.qwen/settings.json` and a project's `.qwen/settings.json`. Every
 * other settings key is left alone.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import { jsoncCodec } from '../config-file.ts';
import type { HarnessInstaller } from '../installer.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { QWEN_HOOKS, qwenHandler } from './wiring.ts';

function warnings(value: Record<string, unknown>): string[] {
  return value.disableAllHooks === true ? ['has "disableAllHooks": true; Qwen Code runs none of its hooks, Buckler included'] : [];
}

export const qwenCodeInstaller: HarnessInstaller = {
  name: 'qwen-code',
  scopes: HARNESS_SCOPES['qwen-code'],
  cli: { bin: 'qwen', versionArgs: ['--version'] },
  offSwitches: [
    {
      scopes: ['user', 'project'],
      key: 'disableAllHooks',
      value: true,
      effect: 'Qwen Code runs no hooks at all, Buckler included',
    },
  ],
  warnings,
  // Qwen Code reads its settings as JSON with comments; Buckler keeps them (and the layout) when it edits.
  codec: jsoncCodec('Qwen Code'),
  ...groupInstaller({ hooks: QWEN_HOOKS, handler: qwenHandler }),
};
