import { describe, expect, it } from 'vitest';
import { DEFAULT_GRANT_SECONDS, MAX_GRANT_SECONDS, parseSystemSettings } from './system-settings.ts';

describe('parseSystemSettings: [system] of /etc/buckler/config.toml', () => {
  it.each<[string, string | null, { allow: boolean; trust: boolean; grantSeconds: number; warned: boolean }]>([
    ['no file', null, { allow: true, trust: true, grantSeconds: DEFAULT_GRANT_SECONDS, warned: false }],
    ['no section', '[core]\ntier = "strict"\n', { allow: true, trust: true, grantSeconds: DEFAULT_GRANT_SECONDS, warned: false }],
    ['all set', '[system]\nallow = false\ntrust = false\ngrant_seconds = 30\n', { allow: false, trust: false, grantSeconds: 30, warned: false }],
    ['the maximum', `[system]\ngrant_seconds = ${MAX_GRANT_SECONDS}\n`, { allow: true, trust: true, grantSeconds: MAX_GRANT_SECONDS, warned: false }],
    ['too long: capped', '[system]\ngrant_seconds = 3600\n', { allow: true, trust: true, grantSeconds: MAX_GRANT_SECONDS, warned: true }],
    ['zero: the default', '[system]\ngrant_seconds = 0\n', { allow: true, trust: true, grantSeconds: DEFAULT_GRANT_SECONDS, warned: true }],
    ['a string: off', '[system]\nallow = "yes"\n', { allow: false, trust: true, grantSeconds: DEFAULT_GRANT_SECONDS, warned: true }],
    ['not a table: off', 'system = 1\n', { allow: false, trust: false, grantSeconds: DEFAULT_GRANT_SECONDS, warned: true }],
    ['not TOML: off', '[system\n', { allow: false, trust: false, grantSeconds: DEFAULT_GRANT_SECONDS, warned: true }],
  ])('%s', (_name, text, want) => {
    const s = parseSystemSettings(text, '/etc/buckler/config.toml');
    expect({ allow: s.allow, trust: s.trust, grantSeconds: s.grantSeconds, warned: s.warnings.length > 0 }).toEqual(want);
  });

  it.each<[string, string | null, { allowBypass: boolean; allowLocationVariables: boolean; warned: boolean }]>([
    ['no file: neither', null, { allowBypass: false, allowLocationVariables: false, warned: false }],
    ['both on', '[system]\nallow_bypass = true\nallow_location_variables = true\n', { allowBypass: true, allowLocationVariables: true, warned: false }],
    ['a string: off', '[system]\nallow_bypass = "true"\n', { allowBypass: false, allowLocationVariables: false, warned: true }],
    ['a misspelt key: warned, nothing allowed', '[system]\nallow_bypas = true\n', { allowBypass: false, allowLocationVariables: false, warned: true }],
    ['not TOML: neither', '[system\nallow_bypass = true\n', { allowBypass: false, allowLocationVariables: false, warned: true }],
  ])('allow_bypass, allow_location_variables: %s', (_name, text, want) => {
    const s = parseSystemSettings(text, '/etc/buckler/config.toml');
    expect({ allowBypass: s.allowBypass, allowLocationVariables: s.allowLocationVariables, warned: s.warnings.length > 0 }).toEqual(want);
  });
});
