/**
 * The locked-down install's layering (docs/install.md "Locked-down install"): the system's
 * config and packs (/etc/buckler) decide; the person's own config.toml and rules.d can only
 * tighten them. Used by the runtime (runtime.ts) when `RuntimeOptions.person` is given.
 */
import { TIERS } from '../core/policy.ts';
import type { BucklerConfig } from './config.ts';
import { projectSource } from './project-rules.ts';
import { DEFAULT_PRODUCTION } from '../core/targets.ts';
import { directorySource, type PackSourceProvider } from './sources.ts';

/**
 * The system's config with the person's merged over it, tightening only: the stricter tier
 * wins; a pack on in either is on (the system's absent key counts as on, as every pack is by
 * default; the person's absent key is no opinion, so the person's off never counts); the audit
 * log setting and the trusted bundle keys are the system's (the person's keys are ignored: a
 * bundle could loosen), and so is what the person's environment may set (`system_allows`: the
 * person's `[system]` is ignored); the production environments are both lists (a target either
 * calls production is one). Pure.
 */
export function mergeSystemOverUser(system: BucklerConfig, person: BucklerConfig): BucklerConfig {
  const tier = TIERS.indexOf(person.tier) > TIERS.indexOf(system.tier) ? person.tier : system.tier;
  const packs: BucklerConfig['packs'] = {};
  for (const name of new Set([...Object.keys(system.packs), ...Object.keys(person.packs)])) {
    // The system's word (absent: on, as every pack is by default), or the person turning it on.
    const on = system.packs[name]?.enabled !== false || person.packs[name]?.enabled === true;
    packs[name] = { enabled: on };
  }
  const merged: BucklerConfig = { tier, audit_log: system.audit_log ?? person.audit_log, packs };
  if (system.trusted_keys !== undefined) merged.trusted_keys = [...system.trusted_keys];
  if (system.system_allows !== undefined) merged.system_allows = { ...system.system_allows };
  // The system's strict reading (a bad value) keeps its note; the person's own shows as theirs.
  const note = system.strict_reading ?? person.strict_reading;
  if (note !== undefined) merged.strict_reading = note;
  if (system.environments !== undefined || person.environments !== undefined) {
    const of = (c: BucklerConfig): readonly string[] => c.environments?.production ?? DEFAULT_PRODUCTION;
    merged.environments = { production: [...new Set([...of(system), ...of(person)])] };
  }
  return merged;
}

/**
 * The person's rules.d in the locked-down install: its packs load tighten-only, as untrusted
 * project rules do (deny, ask and nudge rules can only make a decision more severe; `allow`
 * rules and `programs:` are left out and reported).
 */
export function personRulesSource(dir: string): PackSourceProvider {
  const inner = directorySource('user', dir);
  return {
    name: 'user',
    dir,
    listing: () => inner.listing(),
    load(ctx) {
      const report = inner.load(ctx);
      for (const p of report.packs) {
        p.pack.tighten = true;
        p.origin = 'user (tighten-only: locked-down install)';
      }
      return report;
    },
  };
}

/**
 * A project's rules in the locked-down install: as anywhere, unless the system config switches
 * trust off (`[system] trust = false`): then a project trusted before counts as untrusted (its
 * rules only tighten), since the person could not be granted that trust now.
 */
export function systemProjectSource(root: string, trustFile: string): PackSourceProvider {
  const inner = projectSource(root, trustFile);
  return {
    ...inner,
    load: (ctx) => (ctx.config.system_allows?.trust === false ? projectSource(root, trustFile, 'untrusted').load(ctx) : inner.load(ctx)),
  };
}
