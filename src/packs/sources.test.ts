/**
 * Pack sources (sources.ts) through the loader: each source reports what it loaded and what it
 * refused; bundles load after builtin and user packs, take part in the same precedence, are
 * refused whole on a pack id collision or a file name that is not theirs; the compiled-pack
 * cache notices a bundle installed, replaced or removed, and a key removed from trust.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { evaluate } from '../core/evaluate.ts';
import { resolvePaths } from '../paths.ts';
import { createBundle, generateKeys, readPrivateKey } from './bundle.ts';
import { loadPolicyReport, loadRuntimePolicy } from './runtime.ts';

const keys = generateKeys();
let root: string;
let packsDir: string;
let configHome: string;
let bundlesDir: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-sources-'));
  packsDir = path.join(root, 'packs');
  configHome = path.join(root, 'config');
  bundlesDir = path.join(root, 'data', 'bundles');
  for (const d of [packsDir, path.join(configHome, 'rules.d'), bundlesDir]) fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(packsDir, 'base.yaml'), pack('base', 'rm', 'deny'));
  fs.writeFileSync(path.join(configHome, 'config.toml'), `[bundles]\ntrusted_keys = ["${keys.publicKey}"]\n`);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function pack(id: string, program: string, action: string, priority = 50): string {
  return `pack: ${id}\nversion: "1"\nrules:\n  - id: r\n    trigger: [pre_shell_exec]\n    match:\n      shell_segments:\n        - program: ${program}\n    action: ${action}\n    priority: ${priority}\n`;
}
function install(name: string, files: Record<string, string>, file = `${name}.bundle`, version = '1.0.0'): void {
  fs.writeFileSync(path.join(bundlesDir, file), createBundle({ name, version, files, privateKeys: [readPrivateKey(keys.privatePem)] }));
}
const paths = () => resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome, BUCKLER_STATE_HOME: path.join(root, 'state') }, platform: process.platform, home: root });
const report = () => loadPolicyReport(paths(), { packsDir, bundlesDir, examples: false });
const decide = (policy: Awaited<ReturnType<typeof report>>['policy'], command: string) =>
  evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command } }, policy).decision;

describe('pack sources', () => {
  it('each source in load order, with what it loaded; bundle rules join the same precedence', async () => {
    fs.writeFileSync(path.join(configHome, 'rules.d', 'mine.yaml'), pack('mine', 'curl', 'ask'));
    // Higher priority than the builtin deny for rm: the usual priority-then-severity choice.
    install('team', { 'team.yaml': pack('team', 'rm', 'allow', 90) });
    const r = await report();
    expect(r.sources.map((s) => [s.source, s.packs.map((p) => `${p.id}@${p.origin}`), s.refused.length])).toEqual([
      ['builtin', ['base@builtin'], 0],
      ['user', ['mine@user'], 0],
      ['bundle', ['team@bundle team 1.0.0'], 0],
    ]);
    expect(r.problems).toEqual([]);
    expect(decide(r.policy, 'rm -rf x')).toBe('allow');
    expect(decide(r.policy, 'curl x')).toBe('ask');
  });

  it('a bundle whose pack id is already loaded (user pack or earlier bundle) is refused whole', async () => {
    fs.writeFileSync(path.join(configHome, 'rules.d', 'mine.yaml'), pack('mine', 'curl', 'ask'));
    install('a-first', { 'x.yaml': pack('shared', 'git', 'deny') });
    install('b-second', { 'ok.yaml': pack('fine', 'ls', 'deny'), 'y.yaml': pack('shared', 'tar', 'deny') });
    install('c-third', { 'z.yaml': pack('mine', 'wget', 'deny') });
    const r = await report();
    const bundles = r.sources.find((s) => s.source === 'bundle');
    expect(bundles?.packs.map((p) => p.id)).toEqual(['shared']);
    expect(bundles?.refused.map((x) => [path.basename(x.file), x.reason])).toEqual([
      ['b-second.bundle', 'collision'],
      ['c-third.bundle', 'collision'],
    ]);
    expect(bundles?.refused[0]?.message).toContain('collides with the pack "shared" already loaded from bundle a-first 1.0.0');
    expect(bundles?.refused[1]?.message).toContain('already loaded from user');
    // Nothing of a refused bundle loads, not even its other packs.
    expect(decide(r.policy, 'ls')).toBe('allow');
    expect(decide(r.policy, 'wget x')).toBe('allow');
    expect(r.problems.filter((p) => p.severity === 'error')).toHaveLength(2);
  });

  it("a bundle's programs: data (grammars) is used by its rules", async () => {
    const text = `pack: k8s
version: "1"
programs:
  kubectl:
    value_options: [-n, --namespace]
    inherit_options: true
    subcommands:
      delete:
rules:
  - id: no-delete
    trigger: [pre_shell_exec]
    match:
      shell_segments:
        - program: kubectl
          subcommand: delete
    action: deny
    examples:
      match: [kubectl -n prod delete ns x]
      no_match: [kubectl -n delete get pods]
`;
    install('k8s', { 'k8s.yaml': text });
    const r = await loadPolicyReport(paths(), { packsDir, bundlesDir, examples: true });
    expect(r.problems).toEqual([]);
    expect(decide(r.policy, 'kubectl -n prod delete ns x')).toBe('deny');
    expect(decide(r.policy, 'kubectl -n delete get pods')).toBe('allow');
  });

  it('a bundle under a file name that is not its own is refused', async () => {
    install('team', { 'team.yaml': pack('team', 'rm', 'allow') }, 'renamed.bundle');
    const r = await report();
    expect(r.sources[2]?.refused.map((x) => x.reason)).toEqual(['name-mismatch']);
  });

  it('the cache notices a bundle installed, replaced, untrusted and removed', async () => {
    const load = () => loadRuntimePolicy(paths(), { packsDir, bundlesDir, examples: false });
    const warm = await load();
    expect((await load()).cached).toBe(true);
    expect(decide(warm.policy, 'git status')).toBe('allow');
    install('team', { 'team.yaml': pack('team', 'git', 'deny') });
    const installed = await load();
    expect(installed.cached).toBeUndefined();
    expect(decide(installed.policy, 'git status')).toBe('deny');
    expect((await load()).cached).toBe(true);
    install('team', { 'team.yaml': pack('team', 'git', 'ask') }, 'team.bundle', '1.1.0');
    expect(decide((await load()).policy, 'git status')).toBe('ask');
    fs.writeFileSync(path.join(configHome, 'config.toml'), '[bundles]\ntrusted_keys = []\n');
    const untrusted = await load();
    expect(decide(untrusted.policy, 'git status')).toBe('allow');
    expect(untrusted.warnings.join('\n')).toMatch(/team\.bundle: bundle refused: signed by no trusted key/);
    fs.writeFileSync(path.join(configHome, 'config.toml'), `[bundles]\ntrusted_keys = ["${keys.publicKey}"]\n`);
    expect(decide((await load()).policy, 'git status')).toBe('ask');
    fs.rmSync(path.join(bundlesDir, 'team.bundle'));
    expect(decide((await load()).policy, 'git status')).toBe('allow');
  });
});
