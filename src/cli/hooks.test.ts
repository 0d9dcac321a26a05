// `buckler hooks …` end to end: the built bundle, spawned with a temporary HOME.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, it, expect } from 'vitest';
import { BUNDLE, ROOT } from './build.testing.ts';
import { buckler as run, bundle } from './e2e.testing.ts';

const DEFAULT_CMD = (harness: string) => `'${process.execPath}' '${fs.realpathSync(BUNDLE)}' --driver ${harness}`;

beforeAll(() => void bundle(), 120_000);

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-hooks-cli-')));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Extra {
  env?: Record<string, string>;
  uid?: number;
  gid?: number;
  /** Another copy of the entry (default: this checkout's). */
  bundle?: string;
  /** Run the arguments as given: without it, an action without --harness gets --harness cursor (what most tests here are about). */
  asIs?: boolean;
}

function buckler(given: string[], extra: Extra = {}): Result {
  const args = extra.asIs || given.length === 0 || given.some((a) => a.startsWith('--harness') || a === '-h' || a === '--help') ? given : ['--harness', 'cursor', ...given];
  const { env, uid, gid, bundle: copy } = extra;
  const r = run(['hooks', ...args], { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env }, ...(uid === undefined ? {} : { uid }), ...(gid === undefined ? {} : { gid }), ...(copy === undefined ? {} : { bundle: copy }) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

const cursorFile = () => path.join(home, '.cursor', 'hooks.json');
const claudeFile = () => path.join(home, '.claude', 'settings.json');

const theirs = `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [
      {
        "command": "./hooks/audit.sh",
        "timeout": 5
      }
    ],
    "stop": [
      {
        "command": "./hooks/stop.sh"
      }
    ]
  }
}
`;

describe('buckler hooks merge (cursor)', () => {
  it('creates a fresh ~/.cursor/hooks.json pointing at this node and this bundle', () => {
    const r = buckler(['merge']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('file     created');
    const value = JSON.parse(fs.readFileSync(cursorFile(), 'utf8'));
    expect(value.version).toBe(1);
    expect(value.hooks.preToolUse).toEqual([
      { command: DEFAULT_CMD('cursor'), matcher: '^(Shell|Write|Delete|Grep)$', timeout: 10, failClosed: true },
    ]);
    for (const e of ['beforeReadFile', 'beforeMCPExecution']) {
      expect(value.hooks[e]).toEqual([{ command: DEFAULT_CMD('cursor'), timeout: 10, failClosed: true }]);
    }
    expect(listing(home)).toEqual(['.cursor', '.cursor/hooks.json']);
  });

  it("keeps other people's hooks, and a second run changes nothing and makes no second backup", () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(cursorFile(), theirs);
    expect(buckler(['merge']).code).toBe(0);
    const first = fs.readFileSync(cursorFile());
    const value = JSON.parse(first.toString());
    expect(Object.keys(value.hooks)).toEqual(['beforeShellExecution', 'stop', 'preToolUse', 'beforeReadFile', 'beforeMCPExecution', 'postToolUse', 'postToolUseFailure']);
    expect(value.hooks.beforeShellExecution.map((e: { command: string }) => e.command)).toEqual(['./hooks/audit.sh', DEFAULT_CMD('cursor')]);
    const r = buckler(['merge']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('already wired; nothing to change');
    expect(fs.readFileSync(cursorFile()).equals(first)).toBe(true);
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json', 'hooks.json.buckler-backup']);
    expect(fs.readFileSync(`${cursorFile()}.buckler-backup`, 'utf8')).toBe(theirs);
  });

  it('replaces its entries when the install path changes (--command), without duplicates', () => {
    expect(buckler(['merge']).code).toBe(0);
    const launcher = path.join(home, 'bin', 'buckler');
    fs.mkdirSync(path.dirname(launcher));
    fs.writeFileSync(launcher, '#!/bin/sh\n', { mode: 0o755 });
    const r = buckler(['merge', '--command', `'${launcher}'`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`(was ${DEFAULT_CMD('cursor')})`);
    const text = fs.readFileSync(cursorFile(), 'utf8');
    expect(text.split(`'${launcher}' --driver cursor`).length - 1).toBe(6);
    expect(text).not.toContain(BUNDLE);
  });

  it('--dry-run prints the plan and the diff and writes nothing', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(cursorFile(), theirs);
    const r = buckler(['merge', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('+ preToolUse [^(Shell|Write|Delete|Grep)$]');
    expect(r.stdout).toContain('would be updated; the original would be saved in');
    expect(r.stdout).toContain(`+++ ${cursorFile()}`);
    expect(r.stdout).toContain('+        "failClosed": true');
    expect(r.stdout).toMatch(/dry run: nothing written\n$/);
    expect(fs.readFileSync(cursorFile(), 'utf8')).toBe(theirs);
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json']);
    const j = JSON.parse(buckler(['strip', '--dry-run', '--json']).stdout);
    expect(j.results[0]).toMatchObject({ file_action: 'none', written: false });
  });

  it('a malformed file is left byte-for-byte, with an error naming it, exit 1', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    const bad = '{"version": 1, "hooks": {"preToolUse": {"command": "x"}}}';
    fs.writeFileSync(cursorFile(), bad);
    for (const action of ['merge', 'strip', 'status']) {
      const r = buckler([action]);
      expect(r.code, action).toBe(1);
      expect(r.stderr).toContain(`buckler hooks: ${cursorFile()}: "hooks.preToolUse" must be a list of hooks, found an object`);
    }
    expect(fs.readFileSync(cursorFile(), 'utf8')).toBe(bad);
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json']);
  });

  it('a read-only directory: clear error, exit 1, nothing changed', () => {
    const dir = path.join(home, '.cursor');
    fs.mkdirSync(dir);
    fs.writeFileSync(cursorFile(), theirs);
    const asRoot = process.getuid?.() === 0;
    const extra: Extra = {};
    let pkg: string | undefined;
    if (asRoot) {
      // root ignores permission bits: run the command as an unprivileged user instead, from a
      // copy of the bundles that user can read (the checkout may sit in a private directory).
      for (const p of [home, dir, cursorFile()]) fs.chownSync(p, 65534, 65534);
      pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-hooks-pkg-'));
      fs.chmodSync(pkg, 0o755);
      fs.mkdirSync(path.join(pkg, 'dist'), { mode: 0o755 });
      for (const f of fs.readdirSync(path.join(ROOT, 'dist')).filter((n) => n.endsWith('.cjs'))) {
        fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(pkg, 'dist', f));
        fs.chmodSync(path.join(pkg, 'dist', f), 0o755);
      }
      Object.assign(extra, { uid: 65534, gid: 65534, bundle: path.join(pkg, 'dist', 'buckler.cjs') });
    }
    fs.chmodSync(dir, 0o555);
    try {
      const r = buckler(['merge'], extra);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(cursorFile());
      expect(r.stderr).toContain('permission denied');
      expect(r.stderr).toContain('nothing changed');
      expect(fs.readFileSync(cursorFile(), 'utf8')).toBe(theirs);
      expect(fs.readdirSync(dir)).toEqual(['hooks.json']);
    } finally {
      fs.chmodSync(dir, 0o755);
      if (pkg) fs.rmSync(pkg, { recursive: true, force: true });
    }
  });

  it('a read-only (0444) config in a writable directory is refused, whoever runs Buckler (root included)', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(cursorFile(), theirs, { mode: 0o444 });
    fs.chmodSync(cursorFile(), 0o444);
    const r = buckler(['merge']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`buckler hooks: ${cursorFile()}: is read-only (mode 0444)`);
    expect(r.stderr).toContain('nothing changed');
    expect(fs.readFileSync(cursorFile(), 'utf8')).toBe(theirs);
    expect(fs.statSync(cursorFile()).mode & 0o777).toBe(0o444);
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json']);
    // strip too: wired while writable, then made read-only.
    fs.chmodSync(cursorFile(), 0o644);
    expect(buckler(['merge']).code).toBe(0);
    fs.chmodSync(cursorFile(), 0o444);
    const wired = fs.readFileSync(cursorFile());
    const s = buckler(['strip']);
    expect(s.code).toBe(1);
    expect(s.stderr).toContain('is read-only (mode 0444)');
    expect(fs.readFileSync(cursorFile()).equals(wired)).toBe(true);
  });

  it.each([
    ['arrays', (n: number) => `{"version":1,"hooks":{"stop":${'['.repeat(n)}${']'.repeat(n)}}}`],
    ['objects', (n: number) => `{"version":1,"x":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`],
  ])('a config nested 100 000 deep (%s): an error naming the file, exit 1, left byte for byte', (_kind, make) => {
    fs.mkdirSync(path.join(home, '.cursor'));
    const deep = make(100_000);
    fs.writeFileSync(cursorFile(), deep);
    for (const action of ['merge', 'strip', 'status']) {
      const r = buckler([action]);
      expect(r.code, action).toBe(1);
      expect(r.stderr, action).toContain(`buckler hooks: ${cursorFile()}: nests more than 256 levels deep`);
      expect(r.stderr).not.toMatch(/call stack/i);
    }
    expect(fs.readFileSync(cursorFile(), 'utf8')).toBe(deep);
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json']);
  });

  it('nothing to do writes nothing at all: no lock, no directory (read-only directory, missing harness)', () => {
    expect(buckler(['merge']).code).toBe(0);
    const dir = path.join(home, '.cursor');
    const before = listing(dir);
    fs.chmodSync(dir, 0o555);
    try {
      const r = buckler(['merge']);
      expect(r.code, r.stderr).toBe(0);
      expect(listing(dir)).toEqual(before);
    } finally {
      fs.chmodSync(dir, 0o755);
    }
    const s = buckler(['strip', '--harness', 'claude-code']);
    expect(s.code, s.stderr).toBe(0);
    expect(fs.existsSync(path.join(home, '.claude'))).toBe(false);
  });

  it('a lock left by a killed merge (its process is gone) does not stop the next one', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(cursorFile(), theirs);
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
    fs.writeFileSync(`${cursorFile()}.buckler-lock`, JSON.stringify({ pid: dead, host: os.hostname(), at: Date.now(), token: 'x' }));
    const r = buckler(['merge']);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(cursorFile(), 'utf8')).toContain('--driver cursor');
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json', 'hooks.json.buckler-backup']);
  });

  it('refuses to wire a command that cannot start', () => {
    const r = buckler(['merge', '--command', `'${home}/missing/buckler'`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missing/buckler: missing');
    expect(fs.existsSync(cursorFile())).toBe(false);
  });
});

describe('buckler hooks strip', () => {
  it('restores the original bytes after merge (and removes the backup)', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    const original = theirs.replace(/\n/g, '\r\n').replace(/ {2}/g, '\t');
    fs.writeFileSync(cursorFile(), original);
    expect(buckler(['merge']).code).toBe(0);
    const r = buckler(['strip']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('restored byte-for-byte');
    expect(fs.readFileSync(cursorFile(), 'utf8')).toBe(original);
    expect(listing(path.join(home, '.cursor'))).toEqual(['hooks.json']);
  });

  it('deletes the file merge created', () => {
    expect(buckler(['merge']).code).toBe(0);
    const r = buckler(['strip']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deleted: Buckler created it');
    expect(fs.existsSync(cursorFile())).toBe(false);
  });
});

describe('buckler hooks status', () => {
  it('reports not wired (exit 1), then wired (exit 0), in text and JSON', () => {
    let r = buckler(['status']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('not wired (no file)');
    expect(buckler(['merge']).code).toBe(0);
    r = buckler(['status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${cursorFile()} — wired`);
    expect(r.stdout).toContain('wired    preToolUse [^(Shell|Write|Delete|Grep)$]');
    expect(r.stdout).toContain(`command  ${DEFAULT_CMD('cursor')}`);
    expect(r.stdout).toContain('its files exist');
    const j = JSON.parse(buckler(['status', '--json']).stdout);
    expect(j.ok).toBe(true);
    expect(j.results[0]).toMatchObject({ harness: 'cursor', scope: 'user', wiring: 'full', up_to_date: true });
  });

  it('reports a partial wiring with exit 1', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.writeFileSync(cursorFile(), JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: DEFAULT_CMD('cursor'), timeout: 10, failClosed: true }] } }));
    const r = buckler(['status']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('partially wired');
    expect(r.stdout).toContain('missing  postToolUse [Shell]');
  });
});

describe('buckler hooks --harness claude-code', () => {
  const settings = `{
  "permissions": {
    "allow": [
      "Bash(npm test:*)"
    ]
  },
  "env": {
    "FOO": "1"
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write",
            "timeout": 30
          }
        ]
      }
    ]
  },
  "model": "opus"
}
`;

  it('wires settings.json leaving other keys in order; strip restores it', () => {
    fs.mkdirSync(path.join(home, '.claude'));
    fs.writeFileSync(claudeFile(), settings);
    expect(buckler(['merge', '--harness', 'claude-code']).code).toBe(0);
    const value = JSON.parse(fs.readFileSync(claudeFile(), 'utf8'));
    expect(Object.keys(value)).toEqual(['permissions', 'env', 'hooks', 'model']);
    expect(Object.keys(value.hooks)).toEqual(['PostToolUse', 'PreToolUse', 'PostToolUseFailure']);
    const handler = { type: 'command', command: DEFAULT_CMD('claude-code'), timeout: 10, onFailure: 'block' };
    expect(value.hooks.PreToolUse).toEqual([
      { matcher: 'Bash|PowerShell|Read|Write|Edit|MultiEdit|NotebookEdit|Grep|Glob', hooks: [handler] },
      { matcher: 'mcp__.*', hooks: [handler] },
    ]);
    expect(value.hooks.PostToolUse[0].matcher).toBe('Write|Edit');
    expect(value.hooks.PostToolUse[1].hooks[0].onFailure).toBeUndefined();
    expect(buckler(['status', '--harness', 'claude-code']).code).toBe(0);
    expect(buckler(['strip', '--harness', 'claude-code']).code).toBe(0);
    expect(fs.readFileSync(claudeFile(), 'utf8')).toBe(settings);
  });

  it('honours CLAUDE_CONFIG_DIR and the local scope', () => {
    const config = path.join(home, 'claude-config');
    fs.mkdirSync(config);
    expect(buckler(['merge', '--harness', 'claude-code'], { env: { CLAUDE_CONFIG_DIR: config } }).code).toBe(0);
    expect(fs.existsSync(path.join(config, 'settings.json'))).toBe(true);
    const project = path.join(home, 'proj');
    fs.mkdirSync(project);
    expect(buckler(['merge', '--harness', 'claude-code', '--scope', 'local', '--project', 'proj']).code).toBe(0);
    expect(fs.existsSync(path.join(project, '.claude', 'settings.local.json'))).toBe(true);
    expect(fs.existsSync(claudeFile())).toBe(false);
  });
});

/** The harnesses added in issue 12, on real files: the same round trip as Claude Code's. */
describe.each([
  {
    harness: 'codex',
    dir: '.codex',
    file: 'hooks.json',
    homeVar: 'CODEX_HOME',
    homeDir: (d: string) => d,
    projectFile: ['.codex', 'hooks.json'],
    original: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './gate.sh', timeout: 5 }] }] } },
    events: ['PreToolUse', 'PostToolUse'],
    // Merge records Codex's hook trust in config.toml (which strip then removes again).
    warning: 'trusted PreToolUse hook',
  },
  {
    harness: 'gemini-cli',
    dir: '.gemini',
    file: 'settings.json',
    homeVar: 'GEMINI_CLI_HOME',
    homeDir: (d: string) => path.join(d, '.gemini'),
    projectFile: ['.gemini', 'settings.json'],
    original: { security: { auth: { selectedType: 'gemini-api-key' } }, hooks: { enabled: true, BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'npx prettier --write' }] }] } },
    events: ['BeforeTool', 'AfterTool'],
    warning: null,
  },
  {
    harness: 'copilot-cli',
    dir: '.copilot',
    file: 'settings.json',
    homeVar: 'COPILOT_HOME',
    homeDir: (d: string) => d,
    projectFile: ['.github', 'copilot', 'settings.json'],
    original: { model: 'gpt-5', hooks: { preToolUse: [{ type: 'command', bash: './audit.sh', timeoutSec: 5 }] } },
    events: ['preToolUse', 'postToolUse', 'postToolUseFailure'],
    warning: null,
  },
  {
    harness: 'factory-droid',
    dir: '.factory',
    file: 'settings.json',
    homeVar: null,
    homeDir: (d: string) => d,
    projectFile: ['.factory', 'settings.json'],
    original: { model: 'custom:fake', hooks: { hooksDisabled: false, PostToolUse: [{ matcher: 'Edit|Create', hooks: [{ type: 'command', command: 'npx prettier --write', timeout: 30 }] }] } },
    events: ['PreToolUse', 'PostToolUse'],
    warning: null,
  },
  {
    harness: 'qwen-code',
    dir: '.qwen',
    file: 'settings.json',
    homeVar: 'QWEN_HOME',
    homeDir: (d: string) => d,
    projectFile: ['.qwen', 'settings.json'],
    original: { security: { auth: { selectedType: 'openai' } }, hooks: { PreToolUse: [{ matcher: '^run_shell_command$', hooks: [{ type: 'command', command: './audit.sh' }] }] } },
    events: ['PreToolUse', 'PostToolUse'],
    warning: null,
  },
])('buckler hooks --harness $harness on real files', ({ harness, dir, file, homeVar, homeDir, projectFile, original, events, warning }) => {
  const userFile = () => path.join(home, dir, file);
  const text = `${JSON.stringify(original, null, 2)}\n`;

  it('merge keeps every other entry, status is ok, a second merge changes nothing, strip restores the bytes', () => {
    fs.mkdirSync(path.join(home, dir));
    fs.writeFileSync(userFile(), text);
    const r = buckler(['merge', '--harness', harness]);
    expect(r.code).toBe(0);
    if (warning !== null) expect(r.stdout + r.stderr).toContain(warning);
    const value = JSON.parse(fs.readFileSync(userFile(), 'utf8'));
    for (const e of events) expect(JSON.stringify(value.hooks[e])).toContain(DEFAULT_CMD(harness));
    for (const [k, v] of Object.entries(original.hooks)) {
      if (Array.isArray(v)) expect(value.hooks[k][0]).toEqual(v[0]);
      else expect(value.hooks[k]).toEqual(v);
    }
    expect(Object.keys(value)).toEqual(Object.keys(original));
    const wired = fs.readFileSync(userFile());
    expect(buckler(['status', '--harness', harness]).code).toBe(0);
    expect(buckler(['merge', '--harness', harness]).code).toBe(0);
    expect(fs.readFileSync(userFile()).equals(wired)).toBe(true);
    expect(buckler(['strip', '--harness', harness]).code).toBe(0);
    expect(fs.readFileSync(userFile(), 'utf8')).toBe(text);
    expect(listing(path.join(home, dir))).toEqual([file]);
  });

  it('creates the file when missing and deletes it again; a malformed file is left alone', () => {
    expect(buckler(['merge', '--harness', harness]).code).toBe(0);
    expect(fs.existsSync(userFile())).toBe(true);
    expect(buckler(['strip', '--harness', harness]).code).toBe(0);
    expect(fs.existsSync(userFile())).toBe(false);
    fs.writeFileSync(userFile(), '{"hooks": [');
    expect(buckler(['merge', '--harness', harness]).code).toBe(1);
    expect(fs.readFileSync(userFile(), 'utf8')).toBe('{"hooks": [');
  });

  it(`honours ${homeVar ?? 'HOME'} and the project scope`, () => {
    if (homeVar !== null) {
      const alt = path.join(home, 'alt');
      fs.mkdirSync(alt);
      expect(buckler(['merge', '--harness', harness], { env: { [homeVar]: alt } }).code).toBe(0);
      expect(fs.existsSync(path.join(homeDir(alt), file))).toBe(true);
    }
    fs.mkdirSync(path.join(home, 'proj'));
    expect(buckler(['merge', '--harness', harness, '--scope', 'project', '--project', 'proj']).code).toBe(0);
    expect(fs.existsSync(path.join(home, 'proj', ...projectFile))).toBe(true);
    expect(fs.existsSync(userFile())).toBe(false);
  });
});

describe('buckler hooks --harness all', () => {
  it('wires only harnesses whose home directory exists', () => {
    fs.mkdirSync(path.join(home, '.claude'));
    const r = buckler(['merge', '--harness', 'all']);
    expect(r.code).toBe(0);
    expect(fs.existsSync(claudeFile())).toBe(true);
    expect(fs.existsSync(path.join(home, '.cursor'))).toBe(false);
    expect(buckler(['status', '--harness', 'all']).code).toBe(0);
    expect(buckler(['strip', '--harness', 'all']).code).toBe(0);
    expect(listing(home)).toEqual(['.claude']);
  });

  it('is the default: merge, status and strip without --harness act on every harness found', () => {
    fs.mkdirSync(path.join(home, '.claude'));
    fs.mkdirSync(path.join(home, '.cursor'));
    const r = buckler(['merge'], { asIs: true });
    expect(r.code).toBe(0);
    expect(fs.existsSync(claudeFile())).toBe(true);
    expect(fs.existsSync(cursorFile())).toBe(true);
    const status = buckler(['status'], { asIs: true });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(claudeFile());
    expect(status.stdout).toContain(cursorFile());
    expect(buckler(['strip'], { asIs: true }).code).toBe(0);
    expect(listing(home)).toEqual(['.claude', '.cursor']);
    expect(buckler(['merge'], { asIs: true, env: {} }).code).toBe(0);
    expect(buckler(['merge', '--scope', 'local'], { asIs: true }).code).toBe(0);
  });

  it('with no harness installed: nothing to do for merge, not wired for status', () => {
    const r = buckler(['merge', '--harness', 'all']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no harness found');
    expect(buckler(['status', '--harness', 'all']).code).toBe(1);
    expect(listing(home)).toEqual([]);
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['merge', '--scope', 'local'], '--scope local: cursor has only user, project'],
    [['merge', '--harness', 'vim'], '--harness vim: expected cursor, claude-code, codex, gemini-cli, copilot-cli, factory-droid, qwen-code, opencode or all'],
    [['merge', '--frobnicate'], "unknown option '--frobnicate'"],
    [[], 'say merge, strip or status'],
    [['merge', '--command'], '--command needs a value'],
    [['merge', '--command', '/usr/bin/my-gate'], 'does not start Buckler recognisably'],
  ])('%j', (args, message) => {
    const r = buckler(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(listing(home)).toEqual([]);
  });

  it('--help', () => {
    const r = buckler(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: buckler hooks merge|strip|status');
  });
});

describe('buckler hooks --scope managed (claude-code)', () => {
  // BUCKLER_MANAGED_ROOT keeps the administrator's file inside the test's directory.
  const env = (): Record<string, string> => ({ BUCKLER_MANAGED_ROOT: path.join(home, 'root') });
  const managedFile = (): string => path.join(home, 'root', 'etc', 'claude-code', 'managed-settings.json');

  it('merges into the managed settings file, keeps what the administrator had, and strips back to it', () => {
    fs.mkdirSync(path.dirname(managedFile()), { recursive: true });
    const admin = '{\n  "permissions": {\n    "deny": ["WebFetch"]\n  }\n}\n';
    fs.writeFileSync(managedFile(), admin);
    const r = buckler(['merge', '--harness', 'claude-code', '--scope', 'managed'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const value = JSON.parse(fs.readFileSync(managedFile(), 'utf8'));
    expect(value.permissions).toEqual({ deny: ['WebFetch'] });
    expect(value.hooks.PreToolUse[0].hooks[0].command).toBe(DEFAULT_CMD('claude-code'));
    expect(buckler(['status', '--harness', 'claude-code', '--scope', 'managed'], { env: env() }).code).toBe(0);
    expect(fs.existsSync(claudeFile())).toBe(false);
    expect(buckler(['strip', '--harness', 'claude-code', '--scope', 'managed'], { env: env() }).code).toBe(0);
    expect(fs.readFileSync(managedFile(), 'utf8')).toBe(admin);
  });

  it('is a Claude Code scope only', () => {
    const r = buckler(['merge', '--harness', 'cursor', '--scope', 'managed'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--scope managed: cursor has only user, project');
  });

  it('with --harness all, wires only the harnesses that have a managed scope', () => {
    fs.mkdirSync(path.join(home, '.cursor'));
    fs.mkdirSync(path.join(home, '.claude'));
    const r = buckler(['merge', '--harness', 'all', '--scope', 'managed'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(managedFile())).toBe(true);
    expect(fs.existsSync(cursorFile())).toBe(false);
  });
});

describe('the wired file-tool and MCP hooks reach the policy (merge into a temporary HOME, then run what it wrote)', () => {
  const PACK = `pack: wiring-e2e
version: "1"
rules:
  - id: no-edits
    trigger: pre_shell_tool
    match: { tool_name: Edit }
    action: deny
    user_message: "wiring-e2e: edits are off"
    agent_message: "wiring-e2e: edits are off"
  - id: no-writes
    trigger: pre_shell_tool
    match: { tool_name: Write }
    action: deny
    user_message: "wiring-e2e: edits are off"
    agent_message: "wiring-e2e: edits are off"
  - id: no-reads
    trigger: pre_shell_tool
    match: { tool_name: Read }
    action: deny
    user_message: "wiring-e2e: reads are off"
    agent_message: "wiring-e2e: reads are off"
  - id: no-mcp-claude
    trigger: pre_shell_tool
    match: { tool_name: mcp__pg__query }
    action: deny
    user_message: "wiring-e2e: MCP is off"
    agent_message: "wiring-e2e: MCP is off"
  - id: no-mcp-cursor
    trigger: pre_shell_tool
    match: { tool_name: "MCP:query" }
    action: deny
    user_message: "wiring-e2e: MCP is off"
    agent_message: "wiring-e2e: MCP is off"
`;

  /** Runs a wired hook command as the harness does (through a shell), with the payload on stdin. */
  function run(command: string, payload: object): unknown {
    const config = path.join(home, 'buckler-config');
    fs.mkdirSync(path.join(config, 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(config, 'rules.d', 'wiring-e2e.yaml'), PACK);
    // The builtin agent-secrets and agent-tamper deny these very calls with their own messages;
    // this test is about the wiring reaching the policy, shown by the rule above.
    fs.writeFileSync(path.join(config, 'config.toml'), '[packs]\nagent-secrets = { enabled = false }\nagent-tamper = { enabled = false }\n');
    const r = spawnSync('/bin/sh', ['-c', command], {
      input: JSON.stringify(payload),
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        BUCKLER_CONFIG_HOME: config,
        BUCKLER_STATE_HOME: path.join(home, 'state'),
        BUCKLER_DATA_HOME: path.join(home, 'data'),
      },
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as unknown;
  }

  it('claude-code: the group whose matcher selects Edit, Read or an MCP tool runs Buckler, which denies', () => {
    expect(buckler(['merge', '--harness', 'claude-code']).code).toBe(0);
    const groups = JSON.parse(fs.readFileSync(claudeFile(), 'utf8')).hooks.PreToolUse as { matcher: string; hooks: { command: string }[] }[];
    // Claude Code's matcher reading: a plain name list is split on "|", anything else is a RegExp.
    const selects = (m: string, tool: string) => (/^[A-Za-z0-9_|]+$/.test(m) ? m.split('|').includes(tool) : new RegExp(m).test(tool));
    const base = { session_id: 's', transcript_path: '', cwd: home, permission_mode: 'bypassPermissions', hook_event_name: 'PreToolUse', tool_use_id: 't' };
    const cases: [string, object, string][] = [
      ['Edit', { file_path: path.join(home, '.claude', 'settings.local.json'), old_string: '{', new_string: '{"disableAllHooks": true,' }, 'edits are off'],
      ['Read', { file_path: path.join(home, '.aws', 'credentials') }, 'reads are off'],
      ['mcp__pg__query', { sql: 'DROP TABLE users' }, 'MCP is off'],
    ];
    for (const [tool, input, why] of cases) {
      const group = groups.find((g) => selects(g.matcher, tool));
      expect(group, tool).toBeDefined();
      const got = run(group?.hooks[0]?.command ?? '', { ...base, tool_name: tool, tool_input: input });
      expect(got).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining(why) } });
    }
  });

  it('cursor: beforeReadFile, beforeMCPExecution and preToolUse Write run Buckler, which denies', () => {
    expect(buckler(['merge']).code).toBe(0);
    const hooks = JSON.parse(fs.readFileSync(cursorFile(), 'utf8')).hooks as Record<string, { command: string; matcher?: string }[]>;
    const base = { conversation_id: 'c', generation_id: 'g', workspace_roots: [home] };
    const pre = hooks.preToolUse?.[0];
    expect(new RegExp(pre?.matcher ?? '$^').test('Write')).toBe(true);
    const cases: [string, object, string][] = [
      [pre?.command ?? '', { ...base, hook_event_name: 'preToolUse', tool_name: 'Write', tool_input: { file_path: path.join(home, '.cursor', 'hooks.json'), content: '{}' }, cwd: home }, 'edits are off'],
      [hooks.beforeReadFile?.[0]?.command ?? '', { ...base, hook_event_name: 'beforeReadFile', file_path: path.join(home, '.env'), content: 'K=v' }, 'reads are off'],
      [hooks.beforeMCPExecution?.[0]?.command ?? '', { ...base, hook_event_name: 'beforeMCPExecution', tool_name: 'query', tool_input: '{}', mcp_server_name: 'pg' }, 'MCP is off'],
    ];
    for (const [command, payload, why] of cases) {
      expect(run(command, payload)).toMatchObject({ permission: 'deny', user_message: expect.stringContaining(why) });
    }
  });
});
