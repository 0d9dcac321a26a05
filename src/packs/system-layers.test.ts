import { describe, expect, it } from 'vitest';
import type { BucklerConfig } from './config.ts';
import { mergeSystemOverUser } from './system-layers.ts';

const cfg = (c: Partial<BucklerConfig>): BucklerConfig => ({ tier: 'baseline', audit_log: null, packs: {}, ...c });

describe('mergeSystemOverUser: the person can only tighten', () => {
  it.each<[string, Partial<BucklerConfig>, Partial<BucklerConfig>, Partial<BucklerConfig>]>([
    ['the stricter tier wins (person stricter)', { tier: 'baseline' }, { tier: 'strict' }, { tier: 'strict' }],
    ['the stricter tier wins (system stricter)', { tier: 'strict' }, { tier: 'baseline' }, { tier: 'strict' }],
    ['a pack the person turns off stays on', {}, { packs: { 'agent-git': { enabled: false } } }, { packs: { 'agent-git': { enabled: true } } }],
    ['a pack the system turns off, the person can turn on', { packs: { 'agent-gh': { enabled: false } } }, { packs: { 'agent-gh': { enabled: true } } }, { packs: { 'agent-gh': { enabled: true } } }],
    // The person's config saying nothing about a pack is no opinion: the system's off stands.
    ['a pack the system turns off stays off when the person says nothing', { packs: { 'agent-gh': { enabled: false } } }, {}, { packs: { 'agent-gh': { enabled: false } } }],
    ['a pack off in both is off', { packs: { x: { enabled: false } } }, { packs: { x: { enabled: false } } }, { packs: { x: { enabled: false } } }],
    ['the system audit setting wins', { audit_log: true }, { audit_log: false }, { audit_log: true }],
    ['the person sets the audit log when the system does not', {}, { audit_log: true }, { audit_log: true }],
    ['the person\'s bundle keys are ignored', {}, { trusted_keys: ['ed25519:x'] }, {}],
    ['the system\'s bundle keys stay', { trusted_keys: ['ed25519:s'] }, { trusted_keys: ['ed25519:x'] }, { trusted_keys: ['ed25519:s'] }],
    // What the person's environment may set is the system's word alone.
    ['the person\'s [system] allowances are ignored', {}, { system_allows: { bypass: true, location_variables: true } }, {}],
    ['the system\'s allowances stay', { system_allows: { bypass: true, location_variables: false } }, {}, { system_allows: { bypass: true, location_variables: false } }],
    ['the system\'s strict reading note stays', { strict_reading: 'sys note' }, { strict_reading: 'person note' }, { strict_reading: 'sys note' }],
    ['the person\'s strict reading note shows', {}, { strict_reading: 'person note' }, { strict_reading: 'person note' }],
    // Production environments: a target either list calls production is one (union).
    ['the production lists are joined', { environments: { production: ['prod', 'live'] } }, { environments: { production: ['*-prd', 'prod'] } }, { environments: { production: ['prod', 'live', '*-prd'] } }],
    ['the person adds to the default list', {}, { environments: { production: ['acme'] } }, { environments: { production: ['prod', 'production', 'prd', 'live', 'acme'] } }],
    ['the person cannot shorten the system list', { environments: { production: ['prod', 'prd'] } }, { environments: { production: ['prd'] } }, { environments: { production: ['prod', 'prd'] } }],
  ])('%s', (_name, system, person, want) => {
    expect(mergeSystemOverUser(cfg(system), cfg(person))).toEqual(cfg(want));
  });
});
