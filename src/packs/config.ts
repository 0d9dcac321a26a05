/**
 * `config.toml` → `BucklerConfig`. Nothing wrong in it ever protects less (issue 26, "the strict
 * reading"): a file that cannot be read or parsed counts as tier strict with every pack on and the
 * default audit log; a key whose value is invalid takes its strictest valid value (`tier` →
 * strict, a pack's `enabled` → true); an unknown key is ignored. Each of these is an error
 * (`validate` fails) and sets `strict_reading`, the note every block message ends with.
 * smol-toml is `require()`d lazily, like js-yaml.
 */
import type * as SmolToml from 'smol-toml';
import { lazyRequire } from '../files/lazy-require.ts';
import { TIERS, type Tier } from '../core/policy.ts';
import { trustedKeyOf } from './bundle.ts';
import { DEFAULT_PRODUCTION } from '../core/targets.ts';
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
  /**
   * Set while config.toml is read the strict way (unreadable, unparsable, an invalid value, an
   * unknown key): `config.toml line N: <problem>; using the strict reading`, which the hook
   * appends to every block message. Absent when the file is fine.
   */
  strict_reading?: string;
  /**
   * `[system] allow_bypass` / `allow_location_variables`: what the locked-down install's system
   * config lets the person's environment set; `allow: false` / `trust: false` (`[system] allow`,
   * `trust` off or invalid): grants and trusted projects made before are not used either
   * (docs/install.md). Only the system config's counts (system-layers.ts ignores the person's);
   * absent when every key has its default.
   */
  system_allows?: { bypass: boolean; location_variables: boolean; allow?: false; trust?: false };
  /**
   * `[environments] production`: the words and `*` patterns that name a production target
   * (docs/packs.md, "Production targets"). Absent: the default (core/targets.ts).
   */
  environments?: { production: string[] };
}

/** The keys of `[system]` (the locked-down install: src/cli/system-settings.ts reads the approvals). */
export const SYSTEM_KEYS = ['allow', 'trust', 'grant_seconds', 'allow_bypass', 'allow_location_variables'] as const;

export const DEFAULT_CONFIG: Readonly<BucklerConfig> = Object.freeze({ tier: 'baseline', audit_log: null, packs: {} });

const smolToml = lazyRequire<typeof SmolToml>('smol-toml');

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseConfig(text: string, file: string): { config: BucklerConfig; problems: Problem[] } {
  const problems: Problem[] = [];
  const config: BucklerConfig = { tier: 'baseline', audit_log: null, packs: {} };
  const lines = text.split(/\r?\n/);
  /** A value or key read the strict way: an error, and the strict reading's note. */
  const strict = (message: string, line: number | undefined): void => {
    problems.push(line === undefined ? { severity: 'error', file, message } : { severity: 'error', file, line, message });
  };
  const warn = (message: string, line?: number): void => {
    problems.push(line === undefined ? { severity: 'warning', file, message } : { severity: 'warning', file, line, message });
  };
  let data: Record<string, unknown>;
  try {
    data = smolToml().parse(text) as Record<string, unknown>;
  } catch (e) {
    const err = e as { message?: unknown; line?: unknown };
    const first = String(err.message ?? e).split('\n')[0];
    const unreadable = unparsableConfig();
    strict(`not valid TOML (${first}); read as: tier strict, every pack on, the default audit log`, typeof err.line === 'number' ? err.line : undefined);
    return withStrictReading(unreadable, problems, file);
  }
  // [system]: the locked-down install's approvals (src/cli/system-settings.ts, read by `buckler allow|trust`) and what the person's environment may set.
  for (const k of Object.keys(data)) if (k !== 'core' && k !== 'packs' && k !== 'bundles' && k !== 'system' && k !== 'environments') strict(`unknown section [${k}] (ignored)`, lineOfKey(lines, [], k));
  const core = data['core'];
  if (core !== undefined) {
    if (!isTable(core)) {
      config.tier = 'strict';
      strict('[core] must be a table; read as tier strict, the default audit log', lineOfKey(lines, [], 'core'));
    } else {
      for (const k of Object.keys(core)) if (k !== 'tier' && k !== 'audit_log') strict(`unknown key core.${k} (ignored)`, lineOfKey(lines, ['core'], k));
      const tier = core['tier'];
      if (tier !== undefined) {
        if (typeof tier === 'string' && (TIERS as readonly string[]).includes(tier)) config.tier = tier as Tier;
        else {
          config.tier = 'strict';
          strict(`core.tier must be "baseline" or "strict", not ${JSON.stringify(tier)}; read as "strict"`, lineOfKey(lines, ['core'], 'tier'));
        }
      }
      const audit = core['audit_log'];
      if (audit !== undefined) {
        if (typeof audit === 'boolean') config.audit_log = audit;
        else strict(`core.audit_log must be true or false, not ${JSON.stringify(audit)}; the audit log records blocks only (the default)`, lineOfKey(lines, ['core'], 'audit_log'));
      }
    }
  }
  const sys = data['system'];
  if (sys !== undefined) {
    if (!isTable(sys)) strict('[system] must be a table; read as: no approvals, no bypass, no location variables', lineOfKey(lines, [], 'system'));
    else {
      for (const k of Object.keys(sys)) if (!(SYSTEM_KEYS as readonly string[]).includes(k)) strict(`unknown key system.${k} (ignored)`, lineOfKey(lines, ['system'], k));
      for (const k of ['allow', 'trust', 'allow_bypass', 'allow_location_variables'] as const) {
        const v = sys[k];
        if (v !== undefined && typeof v !== 'boolean') strict(`system.${k} must be true or false, not ${JSON.stringify(v)}; read as false`, lineOfKey(lines, ['system'], k));
      }
      const g = sys['grant_seconds'];
      if (g !== undefined && !(typeof g === 'number' && Number.isInteger(g) && g >= 1 && g <= 600)) {
        strict(`system.grant_seconds must be a whole number of seconds from 1 to 600, not ${JSON.stringify(g)}; read as the default (120) or the maximum (600)`, lineOfKey(lines, ['system'], 'grant_seconds'));
      }
      const bypass = sys['allow_bypass'] === true;
      const locations = sys['allow_location_variables'] === true;
      // Approvals are on unless switched off; a value of the wrong kind switches them off.
      const allowOff = sys['allow'] !== undefined && sys['allow'] !== true;
      const trustOff = sys['trust'] !== undefined && sys['trust'] !== true;
      if (bypass || locations || allowOff || trustOff) {
        config.system_allows = { bypass, location_variables: locations, ...(allowOff && { allow: false as const }), ...(trustOff && { trust: false as const }) };
      }
    }
  }
  const packs = data['packs'];
  if (packs !== undefined) {
    if (!isTable(packs)) strict('[packs] must be a table; every pack stays on', lineOfKey(lines, [], 'packs'));
    else {
      for (const [name, v] of Object.entries(packs)) {
        const enabled = isTable(v) ? v['enabled'] : undefined;
        if (typeof enabled === 'boolean') config.packs[name] = { enabled };
        else strict(`packs.${name} must be { enabled = true|false }, not ${JSON.stringify(v)}; the pack stays on`, lineOfKey(lines, ['packs'], name));
        if (isTable(v)) for (const k of Object.keys(v)) if (k !== 'enabled') strict(`unknown key packs.${name}.${k} (ignored)`, lineOfKey(lines, ['packs', name], k) ?? lineOfKey(lines, ['packs'], name));
      }
    }
  }
  const bundles = data['bundles'];
  if (bundles !== undefined) {
    if (!isTable(bundles)) warn('[bundles] must be a table; no bundle key is trusted');
    else {
      for (const k of Object.keys(bundles)) if (k !== 'trusted_keys') strict(`unknown key bundles.${k} (ignored)`, lineOfKey(lines, ['bundles'], k));
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
  const environments = data['environments'];
  if (environments !== undefined) {
    // The strict reading of a bad value: the default list and every word of the value that is one.
    const keep = (words: unknown): string[] => [...DEFAULT_PRODUCTION, ...(Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string' && w.trim() !== '' && !DEFAULT_PRODUCTION.includes(w)) : [])];
    if (!isTable(environments)) {
      strict('[environments] must be a table; read as the default production = ["prod", "production", "prd", "live"]', lineOfKey(lines, [], 'environments'));
    } else {
      for (const k of Object.keys(environments)) if (k !== 'production') strict(`unknown key environments.${k} (ignored)`, lineOfKey(lines, ['environments'], k));
      const production = environments['production'];
      if (production !== undefined) {
        if (Array.isArray(production) && production.length > 0 && production.every((w) => typeof w === 'string' && w.trim() !== '')) config.environments = { production: [...production] };
        else {
          config.environments = { production: keep(production) };
          strict(`environments.production must be a non-empty list of words or "*" patterns, not ${JSON.stringify(production)}; read as the default list and its words`, lineOfKey(lines, ['environments'], 'production'));
        }
      }
    }
  }
  return withStrictReading(config, problems, file);
}

// ---- The strict reading (kept apart from the merge of config files other code adds) ----

/** What a config.toml that cannot be read or parsed counts as: the strictest reading. */
export function unparsableConfig(): BucklerConfig {
  return { tier: 'strict', audit_log: null, packs: {} };
}

/** The note every block message ends with while config.toml is read the strict way. */
export function strictReadingNote(problem: Problem, more: number): string {
  const where = problem.line !== undefined ? `config.toml line ${problem.line}` : 'config.toml';
  const what = problem.message.replace(/; read as[^;]*$|; the pack stays on$|; the audit log records blocks only \(the default\)$|; using the[^;]*$/, '');
  return `${where}: ${what}${more > 0 ? ` (and ${more} more)` : ''}; using the strict reading`;
}

/** `config` with `strict_reading` set from the first error in `problems`, if any. */
export function withStrictReading(config: BucklerConfig, problems: readonly Problem[], file: string): { config: BucklerConfig; problems: Problem[] } {
  const errors = problems.filter((p) => p.severity === 'error' && p.file === file);
  if (errors.length > 0) config.strict_reading = strictReadingNote(errors[0]!, errors.length - 1);
  return { config, problems: [...problems] };
}

/**
 * The 1-based line where `key` is set in table `table` (`[core]` → ['core']), found in the
 * text: a `[table]` header, then `key =`; or `[table.key]` itself. Undefined when not found
 * (a dotted key, say): the problem is then reported without a line.
 */
export function lineOfKey(lines: readonly string[], table: readonly string[], key: string): number | undefined {
  const want = table.join('.');
  const whole = [...table, key].join('.');
  let current = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.startsWith('[')) {
      const name = line.replace(/^\[+\s*|\s*\]+\s*(#.*)?$/g, '').replace(/["']/g, '').replace(/\s*\.\s*/g, '.');
      if (name === whole) return i + 1;
      current = name;
      continue;
    }
    if (current !== want) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    if (line.slice(0, eq).trim().replace(/^["']|["']$/g, '') === key) return i + 1;
  }
  return undefined;
}
