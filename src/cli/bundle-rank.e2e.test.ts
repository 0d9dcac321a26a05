/**
 * Issue 21, route 7: a signed bundle's rules rank as the person's own rules (a team may allow
 * what a builtin pack asks about or denies), except that no bundle rule lets through what
 * agent-tamper or agent-secrets denies, whatever its priority; `buckler validate --rules` marks
 * a bundle rule that outranks a builtin deny. Through the built command: keygen → sign → install
 * → Claude Code and Cursor hooks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buckler, e2eDir, hookDecision, shellEvent } from './e2e.testing.ts';

const root = e2eDir('buckler-bundle-rank-');
const project = path.join(root, 'proj');
const env = (): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: root,
  BUCKLER_CONFIG_HOME: path.join(root, 'config'),
  BUCKLER_STATE_HOME: path.join(root, 'state'),
  BUCKLER_DATA_HOME: path.join(root, 'data'),
});
const cli = (...args: string[]) => buckler(args, { env: env(), cwd: root, timeout: 60_000 });

/** A team pack that allows, at priority 10000, a force push, a read of a secret and Buckler's own hooks strip. */
const TEAM = `pack: acme-allow
version: "1"
description: team allows
rules:
  - id: allow-force-push
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - program: git
          subcommand: [push]
    action: allow
    priority: 10000
  - id: allow-cat
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - program: cat
    action: allow
    priority: 10000
  - id: allow-buckler
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - program: buckler
    action: allow
    priority: 10000
`;

beforeAll(() => {
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.mkdirSync(path.join(root, 'config', 'rules.d'), { recursive: true });
  fs.mkdirSync(path.join(root, 'team'), { recursive: true });
  fs.mkdirSync(path.join(root, 'keys'), { recursive: true });
  fs.writeFileSync(path.join(root, 'team', 'acme.yaml'), TEAM);
  const key = path.join(root, 'keys', 'team.key');
  expect(cli('pack', 'keygen', '--out', key).status).toBe(0);
  const pub = fs.readFileSync(`${key}.pub`, 'utf8').trim();
  fs.writeFileSync(path.join(root, 'config', 'config.toml'), `[bundles]\ntrusted_keys = ["${pub} team"]\n`);
  const out = path.join(root, 'acme-1.0.0.bundle');
  const signed = cli('pack', 'sign', path.join(root, 'team'), '--key', key, '--name', 'acme', '--version', '1.0.0', '--out', out);
  expect(signed.status, signed.stderr).toBe(0);
  const installed = cli('pack', 'install', out);
  expect(installed.status, installed.stderr).toBe(0);
}, 240_000);

const decide = (driver: 'claude-code' | 'cursor', command: string): string =>
  hookDecision(driver, shellEvent(driver, command, project), { env: env(), cwd: project, timeout: 30_000 });

describe('a bundle ranks as your own rules, never over agent-tamper or agent-secrets', () => {
  it.each(['claude-code', 'cursor'] as const)('%s', (driver) => {
    // As a user rule could: the team allows a force push builtin agent-git denies.
    expect(decide(driver, 'git push --force origin main')).toBe('allow');
    // Never what agent-secrets or agent-tamper denies.
    expect(decide(driver, 'cat ~/.ssh/id_rsa')).toBe('deny');
    expect(decide(driver, 'buckler hooks strip --harness cursor')).toBe('deny');
    // Look-alikes the bundle allows, which no guard pack denies.
    expect(decide(driver, 'cat README.md')).toBe('allow');
    expect(decide(driver, 'buckler hooks status')).toBe('allow');
  });

  it('validate --rules marks the bundle rules that outrank a builtin deny', () => {
    const r = cli('validate', '--rules');
    const lines = r.stdout.split('\n');
    const after = (id: string): string => lines[lines.findIndex((l) => l.startsWith(`rule ${id} `)) + 1] ?? '';
    expect(after('acme-allow/allow-force-push')).toMatch(/^ {2}! outranks builtin deny /);
    expect(after('acme-allow/allow-cat')).toMatch(/^ {2}! outranks builtin deny .*; the denies of agent-tamper and agent-secrets still win \(agent-/);
    // A builtin rule is never marked.
    expect(after('agent-git/no-force-push')).not.toMatch(/outranks/);
  });
});
