/**
 * `buckler doctor` through the built CLI, in a temporary HOME (and a temporary managed-settings
 * root), against each misconfiguration it must catch. A fake `claude` on PATH prints a version.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundle, buckler as run, type Ran } from './e2e.testing.ts';
import type { DoctorReport } from './doctor.ts';

let t = '';
const home = (): string => path.join(t, 'home');
const project = (): string => path.join(t, 'project');

beforeAll(() => void bundle(), 120_000);
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

const buckler = (args: string[], extra: Record<string, string> = {}): Ran => run(args, { cwd: project(), env: env(extra) });

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
  // issue 25: an event Buckler does not know, carrying a tool call and no result, is denied and
  // recorded; doctor names it from the audit log (name, harness, count, last seen).
  it('lists unknown events the hooks met, from the audit log', () => {
    merge();
    const event = (name: string, extra: Record<string, unknown> = {}): Ran =>
      run(['--driver', 'claude-code'], { cwd: project(), env: env(), stdin: JSON.stringify({ hook_event_name: name, session_id: 's', cwd: project(), tool_name: 'Bash', tool_input: { command: 'ls' }, ...extra }) });
    for (let i = 0; i < 2; i++) {
      const r = event('PreToolUseV9');
      const reply = JSON.parse(r.stdout) as { decision?: string; hookSpecificOutput?: { permissionDecision?: string } };
      expect(reply.decision ?? reply.hookSpecificOutput?.permissionDecision, r.stdout).toMatch(/^(block|deny)$/);
      expect(r.stdout).toContain('PreToolUseV9');
    }
    // The look-alike: the same unknown event after its tool is not judged, and (audit_log off) not recorded.
    const after = event('PostToolUseV9', { tool_response: {} });
    expect(after.stdout.trim()).toBe('');
    const d = doctor();
    // Only the events' lines (a self-test may time out on a loaded machine: not this test's business).
    expect(d.problems.filter((p) => / sent the event /.test(p))).toEqual([expect.stringMatching(/^claude-code sent the event "PreToolUseV9" this Buckler does not know \(2 times, last \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\); 2 carried a tool call and were blocked: update Buckler$/)]);
    expect(d.report.buckler.map((f) => f.text).join('\n')).not.toContain('PostToolUseV9');
    expect(d.status).toBe(1);
  });

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

  it('keeps its self-tests out of the audit log (no fake denials in stats); a real deny of the same command is recorded', () => {
    merge();
    const log = path.join(t, 'state', 'audit.jsonl');
    expect(doctor().problems).toEqual([]);
    expect(doctor().problems).toEqual([]);
    const records = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
    expect(records.filter((l) => l.includes('self-test'))).toEqual([]);
    // The control: the same command from an agent (no nonce in the hook's environment) is recorded.
    const event = { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo "buckler doctor self-test: unterminated 0123456789abcdef01234567' }, cwd: project() };
    const r = run(['--driver', 'claude-code'], { cwd: project(), env: env(), stdin: JSON.stringify(event) });
    expect(r.stdout).toMatch(/deny/);
    expect(fs.readFileSync(log, 'utf8')).toMatch(/self-test/);
    // And a nonce in the environment that the command does not carry hides nothing.
    const r2 = run(['--driver', 'claude-code'], { cwd: project(), env: env({ BUCKLER_DOCTOR_SELF_TEST: 'ffffffffffffffffffffffff' }), stdin: JSON.stringify(event) });
    expect(r2.stdout).toMatch(/deny/);
    expect(fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.includes('self-test')).length).toBe(2);
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
    fs.cpSync(path.dirname(bundle()), path.join(copy, 'dist'), { recursive: true });
    fs.cpSync(path.join(path.dirname(bundle()), '..', 'packs'), path.join(copy, 'packs'), { recursive: true });
    fs.cpSync(path.join(path.dirname(bundle()), '..', 'package.json'), path.join(copy, 'package.json'));
    merge('--command', `'${process.execPath}' '${path.join(copy, 'dist', 'buckler.cjs')}'`);
    fs.rmSync(copy, { recursive: true });
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems.join('\n')).toMatch(/the hook command cannot start: .*buckler\.cjs: missing/);
  });

  it('reports a wired command that starts but lets a command it cannot parse through', () => {
    const copy = path.join(t, 'buckler-copy');
    fs.cpSync(path.dirname(bundle()), path.join(copy, 'dist'), { recursive: true });
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

describe.each([
  { harness: 'factory-droid', dir: '.factory', bin: 'droid', version: '0.225.2', off: (v: Record<string, unknown>) => ((v.hooks as Record<string, unknown>).hooksDisabled = true), text: '"hooks.hooksDisabled": true: Factory Droid runs no hooks at all' },
  { harness: 'qwen-code', dir: '.qwen', bin: 'qwen', version: '0.24.4', off: (v: Record<string, unknown>) => (v.disableAllHooks = true), text: '"disableAllHooks": true: Qwen Code runs no hooks at all' },
])('buckler doctor for $harness', ({ harness, dir, bin, version, off, text }) => {
  const file = (): string => path.join(home(), dir, 'settings.json');
  beforeEach(() => {
    fs.rmSync(path.join(home(), '.claude'), { recursive: true });
    fs.mkdirSync(path.join(home(), dir));
    fs.writeFileSync(path.join(t, 'bin', bin), `#!/bin/sh\necho "${version}"\n`, { mode: 0o755 });
    const r = buckler(['hooks', 'merge', '--harness', harness]);
    expect(r.status, r.stderr).toBe(0);
  });

  it('wired: its version, and a live self-test with its own event that is denied', () => {
    const d = doctor();
    expect(d.problems).toEqual([]);
    const h = d.report.harnesses.find((x) => x.harness === harness);
    expect(h?.version).toBe(version);
    expect(h?.findings.map((f) => f.text).join('\n')).toMatch(/self-test .* denies as it should/);
  });

  it('reports the setting that switches every hook off', () => {
    edit(file(), off);
    const d = doctor();
    expect(d.status).toBe(1);
    expect(d.problems).toContain(`${file()}: ${text}, Buckler included`);
  });
});

describe('buckler doctor for opencode', () => {
  const plugin = (): string => path.join(home(), '.config', 'opencode', 'plugins', 'buckler.js');
  beforeEach(() => {
    fs.rmSync(path.join(home(), '.claude'), { recursive: true });
    fs.mkdirSync(path.join(home(), '.config', 'opencode'), { recursive: true });
    fs.writeFileSync(path.join(t, 'bin', 'opencode'), '#!/bin/sh\necho "1.18.33"\n', { mode: 0o755 });
  });

  it('wired: its version, and a live self-test of the command the plugin runs, with its event', () => {
    expect(buckler(['hooks', 'merge', '--harness', 'opencode']).status).toBe(0);
    const d = doctor();
    expect(d.problems).toEqual([]);
    const h = d.report.harnesses.find((x) => x.harness === 'opencode');
    expect(h?.version).toBe('1.18.33');
    expect(h?.findings.map((f) => f.text).join('\n')).toMatch(/self-test .*--driver opencode.* denies as it should/);
  });

  it('reports a missing plugin, a plugin file that is not Buckler\'s, and OPENCODE_PURE', () => {
    expect(doctor().problems).toContain('Buckler is not wired (run `buckler hooks merge --harness opencode`)');
    fs.mkdirSync(path.dirname(plugin()));
    fs.writeFileSync(plugin(), 'export const Mine = async () => ({});\n');
    expect(doctor().problems.join('\n')).toContain(`${plugin()}: is not a plugin file Buckler wrote`);
    fs.rmSync(plugin());
    expect(buckler(['hooks', 'merge', '--harness', 'opencode']).status).toBe(0);
    const d = doctor({ OPENCODE_PURE: '1' });
    expect(d.status).toBe(1);
    expect(d.problems).toEqual([`OPENCODE_PURE=1 is set in this environment: OpenCode loads no external plugin, Buckler's included (as with \`opencode --pure\`)`]);
  });

  it('reports a version older than the one Buckler was checked against', () => {
    fs.writeFileSync(path.join(t, 'bin', 'opencode'), '#!/bin/sh\necho "1.17.0"\n', { mode: 0o755 });
    expect(buckler(['hooks', 'merge', '--harness', 'opencode']).status).toBe(0);
    expect(doctor().problems.join('\n')).toMatch(/version 1\.17\.0 is older than 1\.18\.33/);
  });
});

describe('buckler doctor for kilo-code', () => {
  const plugin = (): string => path.join(home(), '.config', 'kilo', 'plugins', 'buckler.js');
  beforeEach(() => {
    fs.rmSync(path.join(home(), '.claude'), { recursive: true });
    fs.mkdirSync(path.join(home(), '.config', 'kilo'), { recursive: true });
    fs.writeFileSync(path.join(t, 'bin', 'kilo'), '#!/bin/sh\necho "7.7.9"\n', { mode: 0o755 });
  });

  it('wired: its version, and a live self-test of the command the plugin runs, with its event', () => {
    expect(buckler(['hooks', 'merge', '--harness', 'kilo-code']).status).toBe(0);
    expect(fs.readFileSync(plugin(), 'utf8')).toContain('--driver kilo-code');
    const d = doctor();
    expect(d.problems).toEqual([]);
    const h = d.report.harnesses.find((x) => x.harness === 'kilo-code');
    expect(h?.version).toBe('7.7.9');
    expect(h?.findings.map((f) => f.text).join('\n')).toMatch(/self-test .*--driver kilo-code.* denies as it should/);
  });

  it('reports a missing plugin and KILO_PURE; OpenCode\'s plugin does not count for Kilo', () => {
    fs.mkdirSync(path.join(home(), '.config', 'opencode'), { recursive: true });
    expect(buckler(['hooks', 'merge', '--harness', 'opencode']).status).toBe(0);
    expect(doctor().problems).toContain('Buckler is not wired (run `buckler hooks merge --harness kilo-code`)');
    expect(buckler(['hooks', 'merge', '--harness', 'kilo-code']).status).toBe(0);
    const d = doctor({ KILO_PURE: '1' });
    expect(d.status).toBe(1);
    expect(d.problems).toEqual([`KILO_PURE=1 is set in this environment: Kilo Code loads no external plugin, Buckler's included (as with \`kilo run --pure\`)`]);
  });
});
