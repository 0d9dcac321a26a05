// Merge and strip on real files in a temporary directory, in-process with explicit paths.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { applyPlan } from './apply.ts';
import { claudeCodeInstaller } from './claude-code/installer.ts';
import { codexInstaller } from './codex/installer.ts';
import { cursorInstaller } from './cursor/installer.ts';
import { InstallerError } from './errors.ts';
import type { HarnessInstaller } from './installer.ts';
import { backupFileOf, readMergePlan, readStripPlan } from './planner.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver cursor";
const CMD2 = "'/usr/bin/node' '/srv/buckler-2/dist/buckler.cjs' --driver cursor";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-installer-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function merge(inst: HarnessInstaller, file: string, command = CMD) {
  const plan = readMergePlan(inst, file, command);
  applyPlan(plan);
  return plan;
}
function strip(inst: HarnessInstaller, file: string) {
  const plan = readStripPlan(inst, file);
  applyPlan(plan);
  return plan;
}
function bytes(file: string): Buffer {
  return fs.readFileSync(file);
}
function leftovers(d: string): string[] {
  return fs.readdirSync(d).filter((n) => n.endsWith('.tmp'));
}

const othersCursor = `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [
      {
        "command": "./hooks/format.sh"
      }
    ],
    "beforeShellExecution": [
      {
        "command": "./hooks/audit.sh",
        "timeout": 5
      }
    ]
  }
}
`;

const CMD_CODEX = "'/usr/bin/node' '/opt/b/dist/buckler.cjs' --driver codex";

describe('merge', () => {
  it('creates a fresh file (and its directory) with no backup', () => {
    const file = path.join(dir, '.cursor', 'hooks.json');
    const plan = merge(cursorInstaller, file);
    expect(plan.fileAction).toBe('create');
    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(value.hooks)).toEqual([
      'beforeShellExecution',
      'preToolUse',
      'beforeReadFile',
      'beforeMCPExecution',
      'postToolUse',
      'postToolUseFailure',
    ]);
    expect(fs.readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
    expect(fs.existsSync(backupFileOf(file))).toBe(false);
    expect(leftovers(path.dirname(file))).toEqual([]);
  });

  it("a new Codex file's plan warns of no manual trust step (merge records Codex's hook trust itself)", () => {
    const plan = readMergePlan(codexInstaller, path.join(dir, '.codex', 'hooks.json'), CMD_CODEX);
    expect(plan.fileAction).toBe('create');
    expect(plan.warnings).toEqual([]);
  });

  it("keeps other people's hooks in order, backs up the original, keeps the file mode", () => {
    const file = path.join(dir, 'hooks.json');
    fs.writeFileSync(file, othersCursor, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    const plan = merge(cursorInstaller, file);
    expect(plan.fileAction).toBe('update');
    expect(plan.backup.action).toBe('create');
    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(value.hooks)).toEqual([
      'afterFileEdit',
      'beforeShellExecution',
      'preToolUse',
      'beforeReadFile',
      'beforeMCPExecution',
      'postToolUse',
      'postToolUseFailure',
    ]);
    expect(value.hooks.beforeShellExecution[0]).toEqual({ command: './hooks/audit.sh', timeout: 5 });
    expect(value.hooks.beforeShellExecution[1].command).toBe(CMD);
    expect(bytes(backupFileOf(file)).toString()).toBe(othersCursor);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(backupFileOf(file)).mode & 0o777).toBe(0o600);
    expect(leftovers(dir)).toEqual([]);
  });

  it('changes nothing the second time: same bytes, one backup', () => {
    const file = path.join(dir, 'hooks.json');
    fs.writeFileSync(file, othersCursor);
    merge(cursorInstaller, file);
    const after1 = bytes(file);
    const backupStat = fs.statSync(backupFileOf(file));
    const plan = merge(cursorInstaller, file);
    expect(plan.fileAction).toBe('none');
    expect(plan.changes).toEqual([]);
    expect(bytes(file).equals(after1)).toBe(true);
    expect(fs.statSync(backupFileOf(file)).mtimeMs).toBe(backupStat.mtimeMs);
    expect(fs.readdirSync(dir).sort()).toEqual(['hooks.json', 'hooks.json.buckler-backup']);
  });

  it('replaces its entries when the install path changes; the backup stays the first original', () => {
    const file = path.join(dir, 'hooks.json');
    fs.writeFileSync(file, othersCursor);
    merge(cursorInstaller, file);
    const plan = merge(cursorInstaller, file, CMD2);
    expect(plan.changes.map((c) => c.op)).toEqual(['replace', 'replace', 'replace', 'replace', 'replace', 'replace']);
    expect(plan.backup.action).toBe('keep');
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split(CMD2.replace(/'/g, "'")).length - 1).toBe(6);
    expect(text).not.toContain('/opt/buckler/');
    expect(bytes(backupFileOf(file)).toString()).toBe(othersCursor);
  });

  it('writes through a symlink, leaving the link in place', () => {
    const real = path.join(dir, 'dotfiles', 'hooks.json');
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, othersCursor);
    const link = path.join(dir, 'hooks.json');
    fs.symlinkSync(real, link);
    const plan = merge(cursorInstaller, link);
    expect(plan.target).toBe(fs.realpathSync(real));
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toContain('--driver cursor');
    expect(bytes(backupFileOf(link)).toString()).toBe(othersCursor);
    strip(cursorInstaller, link);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, 'utf8')).toBe(othersCursor);
  });

  it('refuses to apply a plan when the file changed after planning', () => {
    const file = path.join(dir, 'hooks.json');
    fs.writeFileSync(file, othersCursor);
    const plan = readMergePlan(cursorInstaller, file, CMD);
    fs.writeFileSync(file, '{"version": 1, "hooks": {}}\n');
    expect(() => applyPlan(plan)).toThrow(expect.objectContaining({ code: 'changed' }));
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version": 1, "hooks": {}}\n');
    expect(fs.existsSync(backupFileOf(file))).toBe(false);
  });
});

describe('malformed and unreadable files are left exactly as they were', () => {
  const cases: [string, HarnessInstaller, string | Buffer, string][] = [
    ['bad JSON', cursorInstaller, '{"version": 1, "hooks": {', 'is not valid JSON'],
    ['a list', cursorInstaller, '[]\n', 'must be a JSON object, found a list'],
    ['hooks is a list', cursorInstaller, '{"version": 1, "hooks": []}', '"hooks" must be an object'],
    ['an event that is not a list', cursorInstaller, '{"version": 1, "hooks": {"stop": "x"}}', '"hooks.stop" must be a list'],
    ['version 2', cursorInstaller, '{"version": 2, "hooks": {}}', 'not a hooks.json version Buckler knows'],
    ['empty', cursorInstaller, '', 'is empty'],
    ['invalid UTF-8', cursorInstaller, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), 'not valid UTF-8'],
    ['claude: hooks is a string', claudeCodeInstaller, '{"model": "x", "hooks": "no"}', '"hooks" must be an object'],
    ['claude: event not a list', claudeCodeInstaller, '{"hooks": {"PreToolUse": {}}}', '"hooks.PreToolUse" must be a list'],
    ['claude: trailing comma', claudeCodeInstaller, '{"model": "x",}', 'is not valid JSON'],
  ];
  it.each(cases)('%s', (_name, inst, content, message) => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, content);
    const before = bytes(file);
    for (const attempt of [() => readMergePlan(inst, file, CMD), () => readStripPlan(inst, file)]) {
      let error: unknown;
      try {
        attempt();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InstallerError);
      expect((error as InstallerError).code).toBe('malformed');
      expect((error as InstallerError).message).toContain(file);
      expect((error as InstallerError).message).toContain(message);
    }
    expect(bytes(file).equals(before)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('a directory where the file should be is unreadable, not malformed', () => {
    const file = path.join(dir, 'hooks.json');
    fs.mkdirSync(file);
    expect(() => readMergePlan(cursorInstaller, file, CMD)).toThrow(expect.objectContaining({ code: 'unreadable' }));
  });

  it('a dangling symlink is unreadable', () => {
    const file = path.join(dir, 'hooks.json');
    fs.symlinkSync(path.join(dir, 'nowhere.json'), file);
    expect(() => readMergePlan(cursorInstaller, file, CMD)).toThrow(/leads nowhere/);
    expect(fs.existsSync(path.join(dir, 'nowhere.json'))).toBe(false);
  });
});

describe('strip after merge restores the original bytes', () => {
  const claudeSettings = {
    permissions: { allow: ['Bash(npm test:*)'], deny: [] },
    env: { FOO: 'bar' },
    hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write', timeout: 30 }] }] },
    model: 'opus',
  };
  const cursorConfig = JSON.parse(othersCursor);
  const formats: [string, HarnessInstaller, string][] = [
    ['cursor, 2 spaces', cursorInstaller, othersCursor],
    ['cursor, 4 spaces', cursorInstaller, `${JSON.stringify(cursorConfig, null, 4)}\n`],
    ['cursor, tabs, CRLF', cursorInstaller, `${JSON.stringify(cursorConfig, null, '\t').replace(/\n/g, '\r\n')}\r\n`],
    ['cursor, compact, no newline', cursorInstaller, JSON.stringify(cursorConfig)],
    ['cursor, hand-spaced', cursorInstaller, '{ "version" : 1,\n"hooks":{ "stop" : [ ] } }'],
    ['cursor, no hooks key', cursorInstaller, '{"version": 1}\n'],
    ['cursor, BOM', cursorInstaller, `\uFEFF${othersCursor}`],
    ['claude, other keys', claudeCodeInstaller, `${JSON.stringify(claudeSettings, null, 2)}\n`],
    ['claude, no hooks, unusual numbers', claudeCodeInstaller, '{\n  "cleanupPeriodDays": 30.0,\n  "x": 1e2\n}\n'],
    ['claude, empty object', claudeCodeInstaller, '{}\n'],
    ['claude, empty hooks', claudeCodeInstaller, '{"hooks": {}}'],
  ];
  it.each(formats)('%s', (_name, inst, original) => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, original);
    merge(inst, file, CMD.replace('cursor', inst.name));
    expect(fs.readFileSync(file, 'utf8')).not.toBe(original);
    const plan = strip(inst, file);
    expect(plan.fileAction).toBe('restore');
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('normally formatted files round-trip even without the backup', () => {
    const file = path.join(dir, 'settings.json');
    const original = `${JSON.stringify(claudeSettings, null, 2)}\n`;
    fs.writeFileSync(file, original);
    merge(claudeCodeInstaller, file, CMD.replace('cursor', 'claude-code'));
    fs.rmSync(backupFileOf(file));
    const plan = strip(claudeCodeInstaller, file);
    expect(plan.fileAction).toBe('update');
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('keeps what the person changed since, in the file style, and keeps the backup', () => {
    const file = path.join(dir, 'hooks.json');
    const original = `${JSON.stringify(cursorConfig, null, 4)}\n`;
    fs.writeFileSync(file, original);
    merge(cursorInstaller, file);
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.hooks.stop = [{ command: './new.sh' }];
    fs.writeFileSync(file, `${JSON.stringify(edited, null, 4)}\n`);
    const plan = strip(cursorInstaller, file);
    expect(plan.fileAction).toBe('update');
    expect(fs.readFileSync(file, 'utf8')).toBe(`${JSON.stringify({ ...cursorConfig, hooks: { ...cursorConfig.hooks, stop: [{ command: './new.sh' }] } }, null, 4)}\n`);
    expect(bytes(backupFileOf(file)).toString()).toBe(original);
  });

  it('deletes a file merge created', () => {
    const file = path.join(dir, '.claude', 'settings.local.json');
    merge(claudeCodeInstaller, file, CMD.replace('cursor', 'claude-code'));
    const plan = strip(claudeCodeInstaller, file);
    expect(plan.fileAction).toBe('delete');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('deletes a file that only ever held Buckler, even after a re-wire to a new path', () => {
    const file = path.join(dir, 'hooks.json');
    merge(cursorInstaller, file);
    merge(cursorInstaller, file, CMD2);
    expect(fs.existsSync(backupFileOf(file))).toBe(false);
    expect(strip(cursorInstaller, file).fileAction).toBe('delete');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('strip with nothing to strip changes nothing', () => {
    const file = path.join(dir, 'hooks.json');
    fs.writeFileSync(file, othersCursor);
    expect(strip(cursorInstaller, file).fileAction).toBe('none');
    expect(strip(cursorInstaller, path.join(dir, 'absent.json')).fileAction).toBe('none');
    expect(fs.readdirSync(dir)).toEqual(['hooks.json']);
  });
});

describe('odd but valid JSON', () => {
  it('keeps a "__proto__" key as data', () => {
    const file = path.join(dir, 'settings.json');
    const original = '{\n  "__proto__": {\n    "polluted": true\n  },\n  "model": "x"\n}\n';
    fs.writeFileSync(file, original);
    merge(claudeCodeInstaller, file, CMD.replace('cursor', 'claude-code'));
    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(value)).toEqual(['__proto__', 'model', 'hooks']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    fs.rmSync(backupFileOf(file));
    strip(claudeCodeInstaller, file);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('warns when rewriting respells values, and the backup keeps the original', () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{"n": 1.50}');
    const plan = readMergePlan(claudeCodeInstaller, file, CMD.replace('cursor', 'claude-code'));
    expect(plan.warnings.join(' ')).toContain('respells');
  });
});
