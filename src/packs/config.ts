/**
 * `config.toml` → `BucklerConfig`. A malformed file or value gives a clear warning and the safe
 * default for what it concerns (tier baseline, no audit log, every pack on).
 * smol-toml is `require()`d lazily, like js-yaml.
 */
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';
import { TIERS, type Tier } from '../core/policy.ts';
import { trustedKeyOf } from './bundle.ts';
import type { Problem } from './problems.ts';

export interface BucklerConfig {
  tier: Tier;
  /**
   * `[core] audit_log`: true records every decision, false none; absent (null) records the
   * denials, asks, bypasses and allow-once uses (docs/audit-log.md).
   */
  audit_log: boolean | null;
  packs: Record<string, { enabled: boolean }>;
  /**
   * `[bundles] trusted_keys`: the public keys (`ed25519:…`) whose signed pack bundles load
   * (docs/pack-bundles.md). Absent when config.toml has none: then no bundle loads.
   */
  trusted_keys?: string[];
}

export const DEFAULT_CONFIG: Readonly<BucklerConfig> = Object.freeze({ tier: 'baseline', audit_log: null, packs: {} });

let toml: typeof SmolToml | undefined;
function smolToml(): typeof SmolToml {
  if (!toml) {
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    toml = req('smol-toml') as typeof SmolToml;
  }
  return toml;
}

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseConfig(text: string, file: string): { config: BucklerConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  const config: BucklerConfig = { tier: 'baseline', audit_log: null, packs: {} };
  const warn = (message: string, line?: number): void => {
    problems.push(line === undefined ? { severity: 'warning', file, message } : { severity: 'warning', file, line, message });
  };
  let data: Record<string, unknown>;
  try {
    data = smolToml().parse(text) as Record<string, unknown>;
  } catch (e) {
    const err = e as { message?: unknown; line?: unknown };
    const first = String(err.message ?? e).split('\n')[0];
    warn(`not valid TOML (${first}); using the defaults: tier baseline, audit log of blocks only, all packs on`, typeof err.line === 'number' ? err.line : undefined);
    return { config, problems };
  }
  // [system]: the locked-down install's approvals (src/cli/system-settings.ts), read by `buckler allow|trust`.
  for (const k of Object.keys(data)) if (k !== 'core' && k !== 'packs' && k !== 'bundles' && k !== 'system') warn(`unknown section [${k}] (ignored)`);
  const core = data['core'];
  if (core !== undefined) {
    if (!isTable(core)) warn('[core] must be a table; using the defaults');
    else {
      for (const k of Object.keys(core)) if (k !== 'tier' && k !== 'audit_log') warn(`unknown key core.${k} (ignored)`);
      const tier = core['tier'];
      if (tier !== undefined) {
        if (typeof tier === 'string' && (TIERS as readonly string[]).includes(tier)) config.tier = tier as Tier;
        else warn(`core.tier must be "baseline" or "strict", not ${JSON.stringify(tier)}; using "baseline"`);
      }
      const audit = core['audit_log'];
      if (audit !== undefined) {
        if (typeof audit === 'boolean') config.audit_log = audit;
        else warn(`core.audit_log must be true or false, not ${JSON.stringify(audit)}; the audit log records blocks only (the default)`);
      }
    }
  }
  const packs = data['packs'];
  if (packs !== undefined) {
    if (!isTable(packs)) warn('[packs] must be a table; every pack stays on');
    else {
      for (const [name, v] of Object.entries(packs)) {
        const enabled = isTable(v) ? v['enabled'] : undefined;
        if (typeof enabled === 'boolean') config.packs[name] = { enabled };
        else warn(`packs.${name} must be { enabled = true|false }; the pack stays on`);
      }
    }
  }
  const bundles = data['bundles'];
  if (bundles !== undefined) {
    if (!isTable(bundles)) warn('[bundles] must be a table; no bundle key is trusted');
    else {
      for (const k of Object.keys(bundles)) if (k !== 'trusted_keys') warn(`unknown key bundles.${k} (ignored)`);
      const keys = bundles['trusted_keys'];
      if (keys !== undefined) {
        if (!Array.isArray(keys)) warn('bundles.trusted_keys must be a list of "ed25519:…" strings; no bundle key is trusted');
        else {
          config.trusted_keys = [];
          for (const entry of keys) {
            const key = typeof entry === 'string' ? trustedKeyOf(entry) : null;
            if (key === null) warn(`bundles.trusted_keys: ${JSON.stringify(entry)} is not an "ed25519:<43 base64url characters>" key (ignored)`);
            else if (!config.trusted_keys.includes(key)) config.trusted_keys.push(key);
          }
        }
      }
    }
  }
  return { config, problems };
}
