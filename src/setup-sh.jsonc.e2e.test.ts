/**
 * scripts/setup.sh with settings files that have comments, and one a harness refuses, in a
 * TEMPORARY home with an npm registry that cannot answer: the commented file is wired and comes
 * back byte-for-byte; the broken one is not wired, and the command setup.sh prints for it runs
 * as printed through sh once the file is fixed; `uninstall` skips a file Buckler never wrote.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SETUP = path.join(ROOT, 'scripts', 'setup.sh');

const GEMINI = `// my Gemini settings
{
  "theme": "dark", /* picked by hand */
  "hooks": {
    // none yet
  }
}
`;
const DROID_BROKEN = '{\n  "model": "custom:x", // trailing comma below\n}\n';
const QWEN_BROKEN = '{\n  "model": { "name": "qwen3" },\n}\n';

let home: string;
let env: Record<string, string>;
const file = (...p: string[]): string => path.join(home, ...p);

function setup(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('bash', [SETUP, ...args], { env, encoding: 'utf8', cwd: home, timeout: 240_000 });
}

beforeAll(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-home-')));
  for (const [dir, text] of [
    ['.gemini', GEMINI],
    ['.factory', DROID_BROKEN],
    ['.qwen', QWEN_BROKEN],
  ] as const) {
    fs.mkdirSync(file(dir));
    fs.writeFileSync(file(dir, 'settings.json'), text);
  }
  env = {
    HOME: home,
    PATH: [file('.local', 'bin'), path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    TMPDIR: os.tmpdir(),
    LANG: 'C.UTF-8',
    npm_config_registry: 'http://127.0.0.1:9/',
  };
});

afterAll(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

describe('setup.sh with commented and broken settings files', () => {
  let printed = '';

  it('install wires the commented file keeping its comments, and prints a pasteable command for the broken one', () => {
    const r = setup('install');
    expect(r.status, r.stderr).toBe(1); // a harness could not be wired
    expect(r.stdout).toMatch(/wired gemini-cli hooks in .*settings\.json: 2 entries added\n/);
    const gemini = fs.readFileSync(file('.gemini', 'settings.json'), 'utf8');
    expect(gemini.startsWith('// my Gemini settings\n{\n  "theme": "dark", /* picked by hand */\n  "hooks": {\n    // none yet\n')).toBe(true);
    expect(gemini).toContain('--driver gemini-cli');
    expect(r.stderr).toContain('trailing comma');
    const line = r.stderr.split('\n').find((l) => l.includes('could not wire factory-droid'));
    expect(line).toBeDefined();
    printed = /or run: (.*)$/.exec(line as string)?.[1] ?? '';
    expect(printed).toMatch(/hooks merge --harness factory-droid --scope user --command '/);
    expect(fs.readFileSync(file('.factory', 'settings.json'), 'utf8')).toBe(DROID_BROKEN);
  }, 300_000);

  it('the printed command, run through sh as printed, wires the harness once the file is fixed', () => {
    fs.writeFileSync(file('.factory', 'settings.json'), DROID_BROKEN.replace('"custom:x",', '"custom:x"'));
    const r = spawnSync('sh', ['-c', printed], { env, encoding: 'utf8', cwd: home });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const droid = fs.readFileSync(file('.factory', 'settings.json'), 'utf8');
    // The entry gained the comma before Buckler's; its comment stays on its line.
    expect(droid).toContain('"model": "custom:x", // trailing comma below\n  "hooks": {');
    // The hook command written is the one setup.sh wires (node and the installed bundle, quoted).
    const gemini = fs.readFileSync(file('.gemini', 'settings.json'), 'utf8');
    const cmd = /"command": "([^"]*--driver) gemini-cli"/.exec(gemini)?.[1];
    expect(cmd).toBeDefined();
    expect(droid).toContain(`"command": "${cmd} factory-droid"`);
  });

  it('update moves an older wiring to the current one and says what changed, per harness', () => {
    // As an earlier Buckler wired Gemini CLI: the shell tool only, no AfterTool.
    const f = file('.gemini', 'settings.json');
    const text = fs.readFileSync(f, 'utf8');
    const older = text
      .replace('"^(run_shell_command|read_file|read_many_files|write_file|replace|mcp_.+)$"', '"^run_shell_command$"')
      .replace(/,\n\s*"AfterTool": \[[\s\S]*?\n {4}\]/, '');
    expect(older).not.toContain('AfterTool');
    fs.writeFileSync(f, older);
    const r = setup('update');
    expect(r.stdout).toMatch(/wired gemini-cli hooks in .*settings\.json: 1 entry added, 1 entry updated\n/);
    expect(r.stdout).toMatch(/wired factory-droid hooks in .*settings\.json: unchanged \(already the current wiring\)\n/);
    expect(fs.readFileSync(f, 'utf8')).toBe(text);
  }, 300_000);

  it('uninstall strips what Buckler wrote and skips, with a note, the file it never wrote', () => {
    const r = setup('uninstall');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/qwen-code: .*settings\.json holds no Buckler hooks \(Buckler never wrote it\); skipped/);
    expect(fs.readFileSync(file('.gemini', 'settings.json'), 'utf8')).toBe(GEMINI);
    expect(fs.readFileSync(file('.qwen', 'settings.json'), 'utf8')).toBe(QWEN_BROKEN);
    expect(fs.readFileSync(file('.factory', 'settings.json'), 'utf8')).toBe(DROID_BROKEN.replace('"custom:x",', '"custom:x"'));
  }, 120_000);
});
