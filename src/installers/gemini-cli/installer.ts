/**
 * Gemini CLI: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, name, command,
 * timeout (ms)} ]} ]}` inside `~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/…` when
 * set) and a project's `.gemini/settings.json`. Every other settings key, and the settings keys
 * inside `hooks` (`enabled`, `disabled`, `notifications`), are left alone.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import { jsoncCodec } from '../config-file.ts';
import type { HarnessInstaller } from '../installer.ts';
import { isObject } from '../json-text.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { GEMINI_HOOK_NAME, GEMINI_HOOKS, GEMINI_HOOKS_SETTINGS, geminiHandler } from './wiring.ts';

function warnings(value: Record<string, unknown>): string[] {
  const out: string[] = [];
  const hooksConfig = isObject(value.hooksConfig) ? value.hooksConfig : {};
  if (hooksConfig.enabled === false) out.push('has "hooksConfig": {"enabled": false}; Gemini CLI runs none of its hooks');
  const disabled = [hooksConfig.disabled, isObject(value.hooks) ? value.hooks.disabled : undefined];
  if (disabled.some((d) => Array.isArray(d) && d.includes(GEMINI_HOOK_NAME))) {
    out.push(`lists "${GEMINI_HOOK_NAME}" in "disabled"; Gemini CLI skips Buckler's hooks`);
  }
  const security = isObject(value.security) ? value.security : {};
  const folderTrust = isObject(security.folderTrust) ? security.folderTrust : {};
  if (folderTrust.enabled === true) {
    out.push('has folder trust on: Gemini CLI runs settings hooks only in folders you trust (and a headless run in an untrusted folder exits)');
  }
  return out;
}

export const geminiCliInstaller: HarnessInstaller = {
  name: 'gemini-cli',
  scopes: HARNESS_SCOPES['gemini-cli'],
  cli: { bin: 'gemini', versionArgs: ['--version'] },
  // Gemini's switch is nested (`hooksConfig.enabled: false`, and `buckler` in
  // `hooksConfig.disabled`); off switches are top-level keys, so `warnings` reports these.
  offSwitches: [],
  warnings,
  // Gemini CLI reads its settings as JSON with comments; Buckler keeps them (and the layout) when it edits.
  codec: jsoncCodec('Gemini CLI'),
  ...groupInstaller({ hooks: GEMINI_HOOKS, handler: geminiHandler, settingsKeys: GEMINI_HOOKS_SETTINGS }),
};
