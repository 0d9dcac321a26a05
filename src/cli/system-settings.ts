/**
 * The `[system]` section of the locked-down install's /etc/buckler/config.toml (docs/install.md):
 * whether `sudo buckler allow` and `sudo buckler trust` may grant, how long a grant lasts, and
 * whether the person's environment may set the operator bypass (`allow_bypass`) and the location
 * variables (`allow_location_variables`). Read by the commands (main.ts, `allow`, `trust`,
 * `doctor`), never on the hook path (the hook has the same keys from the loaded config,
 * src/packs/config.ts). A missing file or key takes the default; a value of the wrong kind takes
 * the stricter choice (approvals off, the bypass and variables ignored, shortest grant) and says so.
 */
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';
import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_KEYS } from '../packs/config.ts';
import { SYSTEM_DIRS } from '../paths.ts';

/** A grant made in the locked-down install lasts this long unless the system config says otherwise. */
export const DEFAULT_GRANT_SECONDS = 120;
/** And never longer than this: the hook cannot record a use, so time is the only bound. */
export const MAX_GRANT_SECONDS = 600;

export interface SystemSettings {
  allow: boolean;
  trust: boolean;
  grantSeconds: number;
  /** `allow_bypass`, `allow_location_variables` (both default false). */
  allowBypass: boolean;
  allowLocationVariables: boolean;
  /** One line per value not taken as written. */
  warnings: string[];
}

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `[system]` of the given config.toml text (null: no file). Pure apart from loading smol-toml. */
export function parseSystemSettings(text: string | null, file: string): SystemSettings {
  const out: SystemSettings = { allow: true, trust: true, grantSeconds: DEFAULT_GRANT_SECONDS, allowBypass: false, allowLocationVariables: false, warnings: [] };
  if (text === null) return out;
  let data: Record<string, unknown>;
  try {
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    data = (req('smol-toml') as typeof SmolToml).parse(text) as Record<string, unknown>;
  } catch (e) {
    return { ...out, allow: false, trust: false, warnings: [`${file} is not valid TOML (${String((e as Error).message ?? e).split('\n')[0]}); approvals are off, the bypass and location variables are ignored`] };
  }
  const sys = data['system'];
  if (sys === undefined) return out;
  if (!isTable(sys)) return { ...out, allow: false, trust: false, warnings: [`${file}: [system] must be a table; approvals are off`] };
  const flags = { allow: 'allow', trust: 'trust', allowBypass: 'allow_bypass', allowLocationVariables: 'allow_location_variables' } as const;
  for (const [field, key] of Object.entries(flags) as [keyof typeof flags, (typeof flags)[keyof typeof flags]][]) {
    const v = sys[key];
    if (v === undefined) continue;
    if (typeof v === 'boolean') out[field] = v;
    else {
      out[field] = false;
      out.warnings.push(`${file}: system.${key} must be true or false, not ${JSON.stringify(v)}; taken as false`);
    }
  }
  for (const k of Object.keys(sys)) if (!(SYSTEM_KEYS as readonly string[]).includes(k)) out.warnings.push(`${file}: unknown key system.${k} (ignored)`);
  const g = sys['grant_seconds'];
  if (g !== undefined) {
    if (typeof g === 'number' && Number.isInteger(g) && g >= 1 && g <= MAX_GRANT_SECONDS) out.grantSeconds = g;
    else {
      out.grantSeconds = typeof g === 'number' && g > MAX_GRANT_SECONDS ? MAX_GRANT_SECONDS : DEFAULT_GRANT_SECONDS;
      out.warnings.push(`${file}: system.grant_seconds must be a whole number of seconds from 1 to ${MAX_GRANT_SECONDS}, not ${JSON.stringify(g)}; using ${out.grantSeconds}`);
    }
  }
  return out;
}

/** The system config's `[system]` section as it is now (/etc/buckler/config.toml; absent: the defaults). */
export function readSystemSettings(): SystemSettings {
  const file = path.join(SYSTEM_DIRS.config, 'config.toml');
  let text: string | null;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    // Absent: the defaults. There but unreadable: the strict choice.
    text = (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : '[system';
  }
  return parseSystemSettings(text, file);
}
