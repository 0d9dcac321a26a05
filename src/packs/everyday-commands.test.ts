/**
 * False positives and misses of the data, cloud, cluster, infrastructure, container and
 * publishing packs, measured on labelled everyday commands (testdata/everyday-commands.txt):
 * every harmless one is allowed in both tiers, every destructive one asks (baseline) and is
 * denied (strict). A `pending` one is destructive but not yet seen (its reason says why): it
 * must still be allowed today, so the label is changed when the analysis learns to see it.
 * All builtin packs on, as shipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PolicyInput } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import type { CompiledPolicy, Tier } from '../core/policy.ts';
import { resolvePaths } from '../paths.ts';
import { loadPolicyReport } from './runtime.ts';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-everyday-'));
afterAll(() => fs.rmSync(configHome, { recursive: true, force: true }));
const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: configHome });
const policies: Record<Tier, CompiledPolicy> = {
  baseline: (await loadPolicyReport(paths, { tier: 'baseline', examples: false })).policy,
  strict: (await loadPolicyReport(paths, { tier: 'strict', examples: false })).policy,
};

const rows = fs
  .readFileSync(path.join(import.meta.dirname, 'testdata', 'everyday-commands.txt'), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => {
    const [label, rest] = l.split('\t') as [string, string];
    const [command, reason] = label === 'pending' ? (rest.split(' # ') as [string, string]) : [rest, ''];
    return { label, command: command.replaceAll('\\n', '\n'), reason };
  });

/** Files the commands read (`psql -f schema.sql`, `psql < drop.sql`): testdata/everyday-files; any other is missing. */
const files = path.join(import.meta.dirname, 'testdata', 'everyday-files');
function readScript(p: string): string | undefined {
  const f = path.join(files, p);
  return f.startsWith(files + path.sep) && fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined;
}

function decide(command: string, tier: Tier) {
  const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command } };
  return evaluate(input, policies[tier], { readScript });
}

it('holds at least 300 labelled commands, each labelled harmless, destructive or pending (with a reason)', () => {
  expect(rows.length).toBeGreaterThanOrEqual(300);
  for (const r of rows) expect(['harmless', 'destructive', 'pending']).toContain(r.label);
  for (const r of rows.filter((x) => x.label === 'pending')) expect(r.reason.length).toBeGreaterThan(10);
});

describe.each(['baseline', 'strict'] as const)('%s', (tier) => {
  it.each(rows.filter((r) => r.label === 'harmless').map((r) => [r.command]))('harmless: %s', (command) => {
    const d = decide(command, tier);
    expect(d.decision, JSON.stringify(d.rule)).toBe('allow');
  });
  it.each(rows.filter((r) => r.label === 'destructive').map((r) => [r.command]))('destructive: %s', (command) => {
    expect(decide(command, tier).decision).toBe(tier === 'baseline' ? 'ask' : 'deny');
  });
  it.each(rows.filter((r) => r.label === 'pending').map((r) => [r.command, r.reason]))('pending: %s (%s)', (command) => {
    expect(decide(command, tier).decision).toBe('allow');
  });
});

it('every rule of these packs is indexed by program (a command of another program, `ls`, never reaches them)', () => {
  const packs = new Set(['agent-data', 'agent-cloud', 'agent-k8s', 'agent-iac', 'agent-containers', 'agent-publish']);
  const rules = policies.strict.rules.filter((r) => packs.has(r.pack) || r.id.startsWith('agent-secrets/secret-value-read'));
  expect(rules.length).toBeGreaterThanOrEqual(14);
  for (const r of rules) {
    expect(r.shell_segments, r.id).not.toBeNull();
    for (const s of r.shell_segments ?? []) expect(s.program?.length ?? 0, r.id).toBeGreaterThan(0);
  }
});
