/**
 * `buckler doctor` through the built CLI, in a temporary HOME (and a temporary managed-settings
 * root), against each misconfiguration it must catch. A fake `claude` on PATH prints a version.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.testing.ts';
import type { DoctorReport } from './doctor.ts';

let bundle = '';
let t = '';
const home = (): string => path.join(t, 'home');
const project = (): string => path.join(t, 'project');

beforeAll(() => {
  bundle = ensureBuilt();
});
beforeEach(() => {
  t = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-doctor-'));
  fs.mkdirSync(path.join(home(), '.claude'), { recursive: true });
  fs.mkdirSync(project());
  fakeClaude('2.1.332');
});
afterEach(() => fs.rmSync(t, { recursive: true, force: true }));

function fakeClaude(version: string): void {
  const bin = path.join(t, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 });
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home(),
    PATH: `${path.join(t, 'bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
    BUCKLER_STATE_HOME: path.join(t, 'state'),
    BUCKLER_MANAGED_ROOT: path.join(t, 'managed'),
    ...extra,
  };
}

function buckler(args: string[], extra: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd: project(), env: env(extra), encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function doctor(extra: Record<string, string> = {}): { status: number | null; report: DoctorReport; problems: string[] } {
  const r = buckler(['doctor', '--json'], extra);
  const report = JSON.parse(r.stdout) as DoctorReport;
  const problems = [...report.harnesses.flatMap((h) => h.findings), ...report.buckler].filter((f) => f.level === 'problem').map((f) => f.text);
  return { status: r.status, report, problems };
}

function merge(...args: string[]): void {
  const r = buckler(['hooks', 'merge', '--harness', 'claude-code', ...args]);
  expect(r.status, r.stderr).toBe(0);
}

const settings = (): string => path.join(home(), '.claude', 'settings.json');
function edit(file: string, f: (v: Record<string, unknown>) => void): void {
  const v = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  f(v);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(v, null, 2));
}

describe('buckler doctor', () => {
  it('is happy with a wired harness whose hook denies, and says so readably', () => {
    merge();
    const d = doctor();
    expect(d.problems).toEqual([]);
    expect(d.status).toBe(0);
    const claude = d.report.harnesses.find((h) => h.harness === 'claude-code');
    expect(claude?.version).toBe('2.1.332');
    expect(claude?.findings.map((f) => f.text).join('\n')).toMatch(/self-test .* denies as it should/);
    const text = buckler(['doctor']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('✓ wired for every event');
    expect(text.stdout).toContain('ok: no problem found');
  });

  it('finds no harness: nothing is guarded', () => {
    fs.rmSync(path.join(home(), '.claude'), { recursive: true });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems).toEqual(['no supported harness found: nothing is guarded']);
  });

  it('reports a harness that is not wired', () => {
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toContain('Buckler is not wired (run `buckler hooks merge --harness claude-code`)');
  });

  it('reports events that are not wired', () => {
    merge();
    edit(settings(), (v) => {
      delete (v.hooks as Record<string, unknown>).PostToolUse;
    });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toMatch(/wired for only some events; missing or changed: PostToolUse/);
  });

  it('reports a wired command whose files are gone', () => {
    const copy = path.join(t, 'buckler-copy');
    fs.cpSync(path.dirname(bundle), path.join(copy, 'dist'), { recursive: true });
    fs.cpSync(path.join(path.dirname(bundle), '..', 'packs'), path.join(copy, 'packs'), { recursive: true });
    fs.cpSync(path.join(path.dirname(bundle), '..', 'package.json'), path.join(copy, 'package.json'));
    merge('--command', `'${process.execPath}' '${path.join(copy, 'dist', 'buckler.cjs')}'`);
    fs.rmSync(copy, { recursive: true });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toMatch(/the hook command cannot start: .*buckler\.cjs: missing/);
  });

  it('reports a wired command that starts but lets a command it cannot parse through', () => {
    const copy = path.join(t, 'buckler-copy');
    fs.cpSync(path.dirname(bundle), path.join(copy, 'dist'), { recursive: true });
    merge('--command', `'${process.execPath}' '${path.join(copy, 'dist', 'buckler.cjs')}'`);
    // The wired file now answers nothing at all: every harness reads that as "allow".
    fs.writeFileSync(path.join(copy, 'dist', 'buckler.cjs'), 'process.exitCode = 0;\n');
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toMatch(/self-test of .*: did not deny a command it cannot parse/);
  });

  it('reports the operator bypass set in the environment (and the self-test it defeats)', () => {
    merge();
    const d = doctor({ BUCKLER_BYPASS: '1' });
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toContain('BUCKLER_BYPASS=1 is set in this environment');
    expect(d.problems.join('\n')).toMatch(/did not deny/);
  });

  it('reports an audit log that is not written (a symlink at its path) and a tampered packs cache', () => {
    merge();
    const state = path.join(t, 'state');
    fs.mkdirSync(path.join(home(), '.config', 'buckler'), { recursive: true });
    fs.writeFileSync(path.join(home(), '.config', 'buckler', 'config.toml'), '[core]\naudit_log = true\n');
    const clean = doctor();
    expect(clean.report.buckler.map((f) => f.text).join('\n')).toMatch(/audit log .*audit\.jsonl \(every decision\): (created on the first record|writable)/);
    fs.mkdirSync(state, { recursive: true });
    fs.rmSync(path.join(state, 'audit.jsonl'), { force: true });
    fs.symlinkSync(path.join(t, 'victim'), path.join(state, 'audit.jsonl'));
    const cache = path.join(state, 'cache', 'policy-config.json');
    expect(fs.existsSync(cache)).toBe(true); // the self-tests ran hooks
    fs.writeFileSync(cache, fs.readFileSync(cache, 'utf8').replaceAll('"action":"deny"', '"action":"allow"'));
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toMatch(/audit log .*audit\.jsonl is not written: it is a symbolic link/);
    expect(d.problems.join('\n')).toMatch(/compiled-pack cache .* is not used: digest mismatch/);
  });

  const managedFile = (): string => path.join(t, 'managed', 'etc', 'claude-code', 'managed-settings.json');

  it.each([
    ['user', (): string => settings()],
    ['project', (): string => path.join(project(), '.claude', 'settings.json')],
    ['local', (): string => path.join(project(), '.claude', 'settings.local.json')],
  ])('reports disableAllHooks in %s settings', (_scope, file) => {
    merge();
    edit(file(), (v) => {
      v.disableAllHooks = true;
    });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems).toContain(`${file()}: "disableAllHooks": true: Claude Code runs no hooks from user, project or local settings, Buckler included`);
  });

  it('reports disableAllHooks in managed settings, even with Buckler wired there', () => {
    merge('--scope', 'managed');
    edit(managedFile(), (v) => {
      v.disableAllHooks = true;
    });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems).toContain(`${managedFile()}: "disableAllHooks": true: Claude Code runs no hooks at all, Buckler included`);
  });

  it('wired in managed settings, a project or local disableAllHooks does not switch Buckler off', () => {
    merge('--scope', 'managed');
    edit(path.join(project(), '.claude', 'settings.local.json'), (v) => {
      v.disableAllHooks = true;
    });
    edit(managedFile(), (v) => {
      v.allowManagedHooksOnly = true;
    });
    const d = doctor();
    expect(d.problems).toEqual([]);
    expect(d.status).toBe(0);
  });

  it('ignores disableAllHooks: false', () => {
    merge();
    edit(settings(), (v) => {
      v.disableAllHooks = false;
    });
    expect(doctor().problems).toEqual([]);
  });

  it('reports allowManagedHooksOnly in managed settings when Buckler is wired elsewhere', () => {
    merge();
    edit(managedFile(), (v) => {
      v.allowManagedHooksOnly = true;
    });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toContain('"allowManagedHooksOnly": true: Claude Code runs only hooks from managed settings');
  });

  it('reports a harness older than the protocol Buckler was checked against', () => {
    merge();
    fakeClaude('2.0.9');
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toContain('version 2.0.9 is older than 2.1.332');
  });

  it('reports rules that were dropped at load', () => {
    merge();
    const rules = path.join(home(), '.config', 'buckler', 'rules.d');
    fs.mkdirSync(rules, { recursive: true });
    fs.writeFileSync(
      path.join(rules, 'mine.yaml'),
      'pack: mine\nversion: "1"\nrules:\n  - id: r\n    trigger: pre_shell_tool\n    action: block\n',
    );
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toMatch(/not loaded: .*mine\.yaml.*mine\/r/);
  });
});
