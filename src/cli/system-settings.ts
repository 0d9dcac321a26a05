/**
 * The `[system]` section of the locked-down install's /etc/buckler/config.toml (docs/install.md):
 * whether `sudo buckler allow` and `sudo buckler trust` may grant, and how long a grant lasts.
 * Read by those commands only, never on the hook path. A missing file or key takes the
 * default; a value of the wrong kind takes the stricter choice (approvals off, shortest grant)
 * and says so.
 */
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';

/** A grant made in the locked-down install lasts this long unless the system config says otherwise. */
export const DEFAULT_GRANT_SECONDS = 120;
/** And never longer than this: the hook cannot record a use, so time is the only bound. */
export const MAX_GRANT_SECONDS = 600;

export interface SystemSettings {
  allow: boolean;
  trust: boolean;
  grantSeconds: number;
  /** One line per value not taken as written. */
  warnings: string[];
}

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `[system]` of the given config.toml text (null: no file). Pure apart from loading smol-toml. */
export function parseSystemSettings(text: string | null, file: string): SystemSettings {
  const out: SystemSettings = { allow: true, trust: true, grantSeconds: DEFAULT_GRANT_SECONDS, warnings: [] };
  if (text === null) return out;
  let data: Record<string, unknown>;
  try {
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    data = (req('smol-toml') as typeof SmolToml).parse(text) as Record<string, unknown>;
  } catch (e) {
    return { allow: false, trust: false, grantSeconds: DEFAULT_GRANT_SECONDS, warnings: [`${file} is not valid TOML (${String((e as Error).message ?? e).split('\n')[0]}); approvals are off`] };
  }
  const sys = data['system'];
  if (sys === undefined) return out;
  if (!isTable(sys)) return { ...out, allow: false, trust: false, warnings: [`${file}: [system] must be a table; approvals are off`] };
  for (const key of ['allow', 'trust'] as const) {
    const v = sys[key];
    if (v === undefined) continue;
    if (typeof v === 'boolean') out[key] = v;
    else {
      out[key] = false;
      out.warnings.push(`${file}: system.${key} must be true or false, not ${JSON.stringify(v)}; taken as false`);
    }
  }
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
