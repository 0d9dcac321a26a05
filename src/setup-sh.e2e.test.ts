/**
 * scripts/setup.sh end to end, in a TEMPORARY home with no BUCKLER_* / XDG_* variables and an
 * npm registry that cannot answer (so any network use fails the test):
 * install from this checkout (npm pack + offline dependencies), a working `buckler` on PATH,
 * Cursor and Claude Code wired beside other tools' hooks, update from a checksummed tarball,
 * rollback, update --with-packs (signed pack bundles re-fetched), a refused tarball, and an uninstall that leaves the configs byte-for-byte as they
 * were. Steps run in order and share the home.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SETUP = path.join(ROOT, 'scripts', 'setup.sh');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const CURSOR_BEFORE = `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [ { "command": "./hooks/other-guard.sh", "timeout": 5 } ],
    "afterFileEdit": [{"command":"prettier-hook"}]
  }
}
`;
const CLAUDE_BEFORE = `{
    "permissions": { "allow": ["Bash(ls:*)"] },
    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "other-tool check" } ] }
        ]
    },
    "model": "opus"
}`;

let home: string;
let scratch: string;
let env: Record<string, string>;
let snapshot: Map<string, string>;

/** Every file under the harness directories, with its bytes (base64). */
function harnessTree(): Map<string, string> {
  const out = new Map<string, string>();
  for (const top of ['.cursor', '.claude', '.codex', '.gemini', '.copilot', '.factory', '.qwen', '.config/opencode', '.config/kilo']) {
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else out.set(path.relative(home, p), fs.readFileSync(p).toString('base64'));
      }
    };
    walk(path.join(home, top));
  }
  return out;
}

function setup(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('bash', [SETUP, ...args], { env, encoding: 'utf8', cwd: home, timeout: 300_000 });
}

function buckler(...args: string[]): SpawnSyncReturns<string> {
  // Found through PATH, as a person would run it.
  return spawnSync('buckler', args, { env, encoding: 'utf8', cwd: home });
}

const dataHome = (): string => path.join(home, '.local', 'share', 'buckler');

beforeAll(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-home-')));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-tgz-'));
  fs.mkdirSync(path.join(home, '.cursor'));
  fs.mkdirSync(path.join(home, '.claude'));
  fs.writeFileSync(path.join(home, '.cursor', 'hooks.json'), CURSOR_BEFORE);
  fs.writeFileSync(path.join(home, '.claude', 'settings.json'), CLAUDE_BEFORE);
  // The harnesses of issue 12: two with a config of their own, one with only its folder.
  fs.mkdirSync(path.join(home, '.codex'));
  fs.mkdirSync(path.join(home, '.gemini'));
  fs.mkdirSync(path.join(home, '.copilot'));
  fs.mkdirSync(path.join(home, '.factory'));
  fs.mkdirSync(path.join(home, '.qwen'));
  fs.mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
  fs.writeFileSync(path.join(home, '.config', 'opencode', 'opencode.json'), '{"model": "anthropic/claude-sonnet-4"}\n');
  fs.mkdirSync(path.join(home, '.config', 'kilo'), { recursive: true });
  fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), '{"model": {"name": "qwen3-coder"}}\n');
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), '{\n  "theme": "dark"\n}\n');
  fs.writeFileSync(path.join(home, '.copilot', 'settings.json'), '{"model": "gpt-5", "hooks": {"sessionStart": [{"type": "command", "bash": "./hi.sh"}]}}\n');
  snapshot = harnessTree();
  const nodeDir = path.dirname(process.execPath);
  env = {
    HOME: home,
    PATH: [path.join(home, '.local', 'bin'), nodeDir, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    // No network: a registry that cannot answer makes any fetch fail the install.
    npm_config_registry: 'http://127.0.0.1:9/',
  };
});

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('scripts/setup.sh', () => {
  it('install from the checkout: launcher on PATH, current -> versions/<version>, hooks wired', () => {
    const r = setup('install');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`installed buckler ${VERSION}`);
    expect(r.stdout).toContain('wired cursor hooks');
    expect(r.stdout).toContain('wired claude-code hooks');
    expect(fs.readlinkSync(path.join(dataHome(), 'current'))).toBe(`versions/${VERSION}`);
    for (const dep of ['js-yaml', 'smol-toml']) {
      expect(fs.existsSync(path.join(dataHome(), 'versions', VERSION, 'node_modules', dep, 'package.json'))).toBe(true);
    }
    // Hooks run node and the bundle through `current` (no launcher shell per hook call).
    const hookCmd = `'${process.execPath}' '${path.join(dataHome(), 'current', 'dist', 'buckler.cjs')}'`;
    expect(fs.existsSync(path.join(home, '.local', 'bin', 'buckler'))).toBe(true);
    const cursor = fs.readFileSync(path.join(home, '.cursor', 'hooks.json'), 'utf8');
    const claude = fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8');
    expect(cursor).toContain(`${hookCmd} --driver cursor`);
    expect(cursor).toContain('./hooks/other-guard.sh');
    expect(cursor).toContain('prettier-hook');
    expect(claude).toContain(`${hookCmd} --driver claude-code`);
    expect(claude).toContain('other-tool check');
  }, 300_000);

  it('the installed buckler runs: --version, check, a hook event, hooks status', () => {
    expect(buckler('--version').stdout.trim()).toBe(VERSION);
    const check = buckler('check', 'git push --force origin main');
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/DENY/);
    // The very command Cursor will run, from its config, with a Cursor event on stdin.
    const hooks = JSON.parse(fs.readFileSync(path.join(home, '.cursor', 'hooks.json'), 'utf8')) as {
      hooks: { beforeShellExecution: { command: string }[] };
    };
    const ours = hooks.hooks.beforeShellExecution.find((h) => h.command.includes('--driver cursor'));
    expect(ours).toBeDefined();
    const event = { hook_event_name: 'beforeShellExecution', command: 'git push --force origin main', cwd: home, conversation_id: 'c', generation_id: 'g' };
    const hook = spawnSync('sh', ['-c', ours?.command as string], { env, input: JSON.stringify(event), encoding: 'utf8' });
    expect(hook.status).toBe(0);
    expect((JSON.parse(hook.stdout) as { permission: string }).permission).toBe('deny');
    const status = buckler('hooks', 'status', '--harness', 'all');
    expect(status.stdout).toMatch(/cursor: .* — wired/);
    expect(status.stdout).toMatch(/claude-code: .* — wired/);
    for (const h of ['codex', 'gemini-cli', 'copilot-cli', 'factory-droid', 'qwen-code', 'opencode', 'kilo-code']) expect(status.stdout).toMatch(new RegExp(`${h}: .* — wired`));
    // Copilot CLI's native payload names no event: the installed command passes it.
    const copilot = JSON.parse(fs.readFileSync(path.join(home, '.copilot', 'settings.json'), 'utf8')) as {
      hooks: { preToolUse: { bash: string }[] };
    };
    const pre = copilot.hooks.preToolUse[0]?.bash as string;
    expect(pre).toMatch(/--driver copilot-cli --event preToolUse$/);
    const native = { sessionId: 's', timestamp: 1, cwd: home, toolName: 'bash', toolArgs: { command: 'git push --force origin main' } };
    const denied = spawnSync('sh', ['-c', pre], { env, input: JSON.stringify(native), encoding: 'utf8' });
    expect(JSON.parse(denied.stdout)).toMatchObject({ permissionDecision: 'deny' });
  });

  it('install again is idempotent: the same hooks, once', () => {
    const before = fs.readFileSync(path.join(home, '.cursor', 'hooks.json'), 'utf8');
    const r = setup('install', '--from', makeTarball(VERSION));
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(home, '.cursor', 'hooks.json'), 'utf8')).toBe(before);
  }, 60_000);

  it('update from a checksummed tarball keeps the previous version; --rollback returns to it', () => {
    const next = `${VERSION}-next.1`;
    const tarball = makeTarball(next);
    fs.writeFileSync(`${tarball}.sha256`, `${sha(tarball, 'hex')}  ${path.basename(tarball)}\n`);
    fs.writeFileSync(`${tarball}.sha512`, `sha512-${sha(tarball, 'base64', 'sha512')}\n`);
    const r = setup('update', '--from', tarball);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('verified sha256');
    expect(r.stdout).toContain('verified sha512');
    expect(fs.readlinkSync(path.join(dataHome(), 'current'))).toBe(`versions/${next}`);
    expect(fs.readdirSync(path.join(dataHome(), 'versions')).sort()).toEqual([VERSION, next].sort());
    expect(buckler('check', 'git push --force origin main').status).toBe(1);

    const back = setup('update', '--rollback');
    expect(back.status).toBe(0);
    expect(fs.readlinkSync(path.join(dataHome(), 'current'))).toBe(`versions/${VERSION}`);
    expect(buckler('--version').stdout.trim()).toBe(VERSION);
  }, 60_000);

  it('update --with-packs re-fetches installed pack bundles; without it they stay as they were', () => {
    const work = fs.mkdtempSync(path.join(scratch, 'packs-'));
    const key = path.join(work, 'team.key');
    expect(buckler('pack', 'keygen', '--out', key).status).toBe(0);
    const configFile = path.join(home, '.config', 'buckler', 'config.toml');
    fs.mkdirSync(path.dirname(configFile), { recursive: true });
    fs.writeFileSync(configFile, `[bundles]\ntrusted_keys = ["${fs.readFileSync(`${key}.pub`, 'utf8').trim()}"]\n`);
    const packs = path.join(work, 'packs');
    fs.mkdirSync(packs);
    fs.writeFileSync(
      path.join(packs, 'acme.yaml'),
      'pack: acme\nversion: "1"\nrules:\n  - id: no-terraform-destroy\n    trigger: [pre_shell_exec, pre_shell_tool]\n    match:\n      shell_segments:\n        - program: terraform\n          subcommand: destroy\n    action: deny\n',
    );
    // The team publishes to one place (a file share here); machines install from it.
    const published = path.join(work, 'acme.bundle');
    const sign = (version: string): void => {
      const r = buckler('pack', 'sign', packs, '--key', key, '--name', 'acme', '--version', version, '--out', published);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    };
    sign('1.0.0');
    expect(buckler('pack', 'install', published).status).toBe(0);
    sign('1.1.0');
    const tarball = makeTarball(`${VERSION}-next.2`);
    fs.writeFileSync(`${tarball}.sha256`, `${sha(tarball, 'hex')}  ${path.basename(tarball)}\n`);
    const plain = setup('update', '--from', tarball);
    expect(plain.status).toBe(0);
    expect(buckler("pack", "list").stdout).toMatch(/^acme 1\.0\.0 /m);
    const r = setup('update', '--from', tarball, '--with-packs');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('installed bundle acme 1.1.0');
    expect(buckler("pack", "list").stdout).toMatch(/^acme 1\.1\.0 /m);
    expect(buckler('check', 'terraform destroy').status).toBe(1);
    expect(buckler('pack', 'remove', 'acme').status).toBe(0);
    fs.rmSync(configFile);
  }, 120_000);

  it('refuses a tarball whose checksum does not match, and changes nothing', () => {
    const tarball = makeTarball(`${VERSION}-bad.1`);
    fs.writeFileSync(`${tarball}.sha256`, `${'0'.repeat(64)}  ${path.basename(tarball)}\n`);
    const before = fs.readlinkSync(path.join(dataHome(), 'current'));
    const r = setup('update', '--from', tarball);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/sha256 of .* does not match .*Not installing/);
    expect(fs.readlinkSync(path.join(dataHome(), 'current'))).toBe(before);
    expect(fs.readdirSync(path.join(dataHome(), 'versions'))).not.toContain(`${VERSION}-bad.1`);
  });

  it('uninstall leaves the harness configs exactly as they were, and keeps config and audit log', () => {
    const configHome = path.join(home, '.config', 'buckler');
    fs.mkdirSync(path.join(configHome, 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(configHome, 'config.toml'), '[core]\naudit_log = true\n');
    expect(buckler('check', 'git push --force origin main').status).toBe(1);
    const auditLog = path.join(home, '.local', 'state', 'buckler', 'audit.jsonl');
    expect(fs.readFileSync(auditLog, 'utf8')).toContain('"decision":"deny"');

    const r = setup('uninstall');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('kept your configuration');
    expect(harnessTree()).toEqual(snapshot);
    expect(spawnSync('sh', ['-c', 'command -v buckler'], { env }).status).not.toBe(0);
    expect(fs.existsSync(dataHome())).toBe(false);
    expect(fs.existsSync(path.join(home, '.local', 'bin'))).toBe(false);
    expect(fs.existsSync(path.join(configHome, 'config.toml'))).toBe(true);
    expect(fs.existsSync(auditLog)).toBe(true);
  });

  it('uninstall --purge-config removes the configuration and the audit log too', () => {
    const r = setup('uninstall', '--purge-config');
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(home, '.config', 'buckler'))).toBe(false);
    expect(fs.existsSync(path.join(home, '.local', 'state', 'buckler'))).toBe(false);
    // Nothing but the harness files (as they were) and npm's own cache is left in the home.
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else files.push(path.relative(home, p));
      }
    };
    walk(home);
    files.splice(0, files.length, ...files.filter((f) => !f.startsWith('.npm')));
    expect(files.sort()).toEqual([...snapshot.keys()].sort());
  });
});

/** A package tarball of the installed version under another version number. */
function makeTarball(version: string): string {
  const work = fs.mkdtempSync(path.join(scratch, 'v-'));
  const pkg = path.join(work, 'package');
  const installed = path.join(dataHome(), 'current');
  fs.cpSync(fs.realpathSync(installed), pkg, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  const manifest = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string };
  manifest.version = version;
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify(manifest, null, 2));
  const tarball = path.join(work, `buckler-${version}.tgz`);
  execFileSync('tar', ['-czf', tarball, '-C', work, 'package']);
  return tarball;
}

function sha(file: string, encoding: 'hex' | 'base64', algo = 'sha256'): string {
  return crypto.createHash(algo).update(fs.readFileSync(file)).digest(encoding);
}
