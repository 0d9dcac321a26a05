import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outputOf } from '../../adapters/testing.ts';
import { getAdapter } from '../../adapters/registry.ts';
import type { Adapter } from '../../adapters/adapter.ts';
import type { AuditRecord } from '../../audit/record.ts';
import type { Decision, PolicyInput, PolicyOutput } from '../../core/contract.ts';
import { POLICY_FORMAT, type CompiledPolicy } from '../../core/policy.ts';
import type { LoadedPolicy } from '../../packs/runtime.ts';
import { auditHook } from './audit.ts';
import type { DriverDeps, HookResult } from './result.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-hook-audit-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;

const POLICY: CompiledPolicy = { policy_format: POLICY_FORMAT, tier: 'baseline', packs: [], rules: [], grammars: {}, env_keys: [] };
const loadedWith = (audit_log: boolean | null): LoadedPolicy => ({ policy: POLICY, config: { tier: 'baseline', audit_log, packs: {} }, warnings: [] });
const INPUT: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cursor', shell: { command: 'rm -rf /tmp/x', cwd: '/tmp' } } as PolicyInput;

function result(output: PolicyOutput, loaded?: LoadedPolicy): HookResult {
  const r: HookResult = { adapter: getAdapter('cursor') as Adapter, reply: { stdout: {}, exitCode: 0 }, output, input: INPUT };
  if (loaded) r.loaded = loaded;
  return r;
}

async function audit(r: HookResult, opts: { reload?: boolean | null | 'throws'; policyTimedOut?: boolean } = {}): Promise<{ records: AuditRecord[]; reloads: number; warnings: string[] }> {
  const home = path.join(root, `h${n++}`);
  const env = { HOME: home, BUCKLER_CONFIG_HOME: path.join(home, 'config'), BUCKLER_STATE_HOME: path.join(home, 'state'), BUCKLER_DATA_HOME: path.join(home, 'data') };
  let reloads = 0;
  const deps: DriverDeps = {
    loadPolicy: () => {
      reloads++;
      if (opts.reload === 'throws') throw new Error('unreadable');
      return loadedWith(opts.reload ?? null);
    },
    evaluate: () => outputOf('deny', { commands: [{ argv: ['rm'], decision: 'deny', rule: 'test/rule', paths: [{ path: '/tmp/x', access: 'delete', scope: 'temp' }] }] } as Partial<PolicyOutput>),
  };
  const warnings: string[] = [];
  await auditHook(r, { io: { env, err: () => undefined }, deps, policyTimedOut: opts.policyTimedOut ?? false, warn: (t) => void warnings.push(t) });
  const file = path.join(env.BUCKLER_STATE_HOME, 'audit.jsonl');
  const records = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditRecord) : [];
  return { records, reloads, warnings };
}

describe('auditHook: which calls are recorded', () => {
  const cases: [string, boolean | null, Decision, number][] = [
    ['audit_log = true, an allow', true, 'allow', 1],
    ['audit_log = true, a deny', true, 'deny', 1],
    ['audit_log = false, a deny', false, 'deny', 0],
    ['unset, a deny', null, 'deny', 1],
    ['unset, an ask', null, 'ask', 1],
    ['unset, an allow', null, 'allow', 0],
    ['unset, a nudge', null, 'nudge', 0],
  ];
  it.each(cases)('%s', async (_name, setting, decision, count) => {
    const r = result(outputOf(decision), loadedWith(setting));
    const { records, reloads } = await audit(r);
    expect(records).toHaveLength(count);
    expect(r.audited).toBe(count === 1 ? true : undefined);
    expect(reloads).toBe(0);
  });

  it('a default record lists the paths by deciding once more; audit_log = true keeps the first decision’s', async () => {
    const byDefault = (await audit(result(outputOf('deny'), loadedWith(null)))).records[0];
    expect(byDefault?.paths).toEqual([{ path: '/tmp/x', access: 'delete', scope: 'temp' }]);
    const every = (await audit(result(outputOf('deny'), loadedWith(true)))).records[0];
    expect(every?.paths).toBeUndefined();
  });

  it('a bypassed allow is recorded by default', async () => {
    expect((await audit(result(outputOf('allow', { bypass: true }), loadedWith(null)))).records).toHaveLength(1);
  });

  const reloads: [string, boolean | null | 'throws', boolean, number, number][] = [
    ['the policy did not load: the config is read again (unset: recorded)', null, false, 1, 1],
    ['read again: audit_log = false', false, false, 1, 0],
    ['read again and unreadable: recorded', 'throws', false, 1, 1],
    ['the deadline passed loading the policy: not read again, not recorded', null, true, 0, 0],
  ];
  it.each(reloads)('%s', async (_name, reload, policyTimedOut, wantReloads, count) => {
    const r = result(outputOf('deny'));
    const got = await audit(r, { reload, policyTimedOut });
    expect(got.reloads).toBe(wantReloads);
    expect(got.records).toHaveLength(count);
  });

  it('an allow without a loaded policy is not worth reading the config again for', async () => {
    expect(await audit(result(outputOf('allow')))).toMatchObject({ reloads: 0, records: [] });
  });
});
