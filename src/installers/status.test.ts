import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { claudeCodeInstaller } from './claude-code/installer.ts';
import { cursorInstaller } from './cursor/installer.ts';
import { readStatus } from './status.ts';
import { renderStatus } from './render.ts';

let dir: string;
let cmd: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-status-'));
  fs.writeFileSync(path.join(dir, 'buckler.cjs'), '');
  cmd = `'${process.execPath}' '${path.join(dir, 'buckler.cjs')}' --driver cursor`;
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(value: unknown): string {
  const file = path.join(dir, 'hooks.json');
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

describe('status', () => {
  it('no file: not wired', () => {
    const s = readStatus(cursorInstaller, path.join(dir, 'absent.json'), cmd);
    expect(s).toMatchObject({ exists: false, wiring: 'none', ok: false, upToDate: false, backup: null });
    expect(renderStatus(s)).toContain('not wired (no file)');
  });

  it('fully wired and runnable', () => {
    const file = write(cursorInstaller.wire({ version: 1, hooks: {} }, cmd).value);
    const s = readStatus(cursorInstaller, file, cmd);
    expect(s).toMatchObject({ wiring: 'full', ok: true, upToDate: true, extra: [] });
    expect(s.hooks.map((h) => h.state)).toEqual(['wired', 'wired', 'wired', 'wired', 'wired', 'wired']);
    expect(s.commands).toEqual([{ command: cmd, files: [process.execPath, path.join(dir, 'buckler.cjs')], problems: [] }]);
    expect(renderStatus(s)).toMatch(/— wired\n/);
  });

  it('wired to a bundle that is gone: broken', () => {
    const gone = cmd.replace('buckler.cjs', 'gone/buckler.cjs');
    const file = write(cursorInstaller.wire({ version: 1, hooks: {} }, gone).value);
    const s = readStatus(cursorInstaller, file, cmd);
    expect(s.ok).toBe(false);
    expect(s.upToDate).toBe(false);
    expect(s.commands[0]?.problems).toEqual([`${path.join(dir, 'gone', 'buckler.cjs')}: missing`]);
    expect(renderStatus(s)).toContain('broken');
    expect(renderStatus(s)).toContain(`note     merge with the same options would rewrite them to run ${cmd}`);
  });

  it('partly wired, an entry not as merge writes it, and a stale one', () => {
    const file = write({
      version: 1,
      hooks: {
        beforeShellExecution: [{ command: cmd, timeout: 10 }],
        preToolUse: [{ command: cmd, matcher: '^(Shell|Write|Delete|Grep)$', timeout: 10, failClosed: true }],
        afterShellExecution: [{ command: cmd }],
      },
    });
    const s = readStatus(cursorInstaller, file, cmd);
    expect(s.wiring).toBe('partial');
    expect(s.hooks.map((h) => h.state)).toEqual(['differs', 'wired', 'missing', 'missing', 'missing', 'missing']);
    expect(s.extra.map((e) => e.event)).toEqual(['afterShellExecution']);
    expect(s.ok).toBe(false);
    const text = renderStatus(s);
    expect(text).toContain('partially wired');
    expect(text).toContain('extra    afterShellExecution');
  });

  it('claude-code: the two PreToolUse groups each report on their own matcher; an older wiring differs', () => {
    const file = path.join(dir, 'settings.json');
    const c = cmd.replace('--driver cursor', '--driver claude-code');
    const handler = { type: 'command', command: c, timeout: 10, onFailure: 'block' };
    const post = { matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: c, timeout: 10 }] };
    const old = { hooks: { PreToolUse: [{ matcher: 'Bash|PowerShell', hooks: [handler] }], PostToolUse: [post], PostToolUseFailure: [post] } };
    fs.writeFileSync(file, JSON.stringify(old));
    const before = readStatus(claudeCodeInstaller, file, c);
    expect(before.hooks.map((h) => [h.event, h.matcher, h.state])).toEqual([
      ['PreToolUse', 'Bash|PowerShell|Read|Write|Edit|MultiEdit|NotebookEdit|Grep|Glob', 'differs'],
      ['PreToolUse', 'mcp__.*', 'missing'],
      ['PostToolUse', 'Bash|PowerShell', 'wired'],
      ['PostToolUseFailure', 'Bash|PowerShell', 'wired'],
    ]);
    expect(before).toMatchObject({ wiring: 'partial', upToDate: false, ok: false, extra: [] });
    fs.writeFileSync(file, JSON.stringify(claudeCodeInstaller.wire(old, c).value));
    const after = readStatus(claudeCodeInstaller, file, c);
    expect(after.hooks.map((h) => h.state)).toEqual(['wired', 'wired', 'wired', 'wired']);
    expect(after).toMatchObject({ wiring: 'full', upToDate: true, ok: true, extra: [] });
  });

  it('claude-code: a command that relies on PATH is reported', () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify(claudeCodeInstaller.wire({}, 'buckler --driver claude-code').value));
    const s = readStatus(claudeCodeInstaller, file, null);
    expect(s.wiring).toBe('full');
    expect(s.ok).toBe(false);
    expect(s.upToDate).toBeNull();
    expect(s.commands[0]?.problems[0]).toContain('not an absolute path');
  });

  it('a malformed file is an error naming the file', () => {
    const file = path.join(dir, 'hooks.json');
    fs.writeFileSync(file, '{"hooks": 1}');
    expect(() => readStatus(cursorInstaller, file, cmd)).toThrow(file);
  });
});
