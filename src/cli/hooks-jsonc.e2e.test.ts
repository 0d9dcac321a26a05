// `buckler hooks merge` / `strip` on settings files with comments (Gemini CLI, Qwen Code, Factory
// Droid read theirs as JSON with comments): the built bundle, spawned with a temporary HOME.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, it, expect } from 'vitest';
import { buckler as run, bundle } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-jsonc-')));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

function hooks(...args: string[]) {
  return run(['hooks', ...args], { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });
}

const CASES = [
  { harness: 'gemini-cli', file: ['.gemini', 'settings.json'], event: 'BeforeTool', name: 'Gemini CLI' },
  { harness: 'qwen-code', file: ['.qwen', 'settings.json'], event: 'PreToolUse', name: 'Qwen Code' },
  { harness: 'factory-droid', file: ['.factory', 'settings.json'], event: 'PreToolUse', name: 'Factory Droid' },
] as const;

/** A settings file as a person keeps it: comments of both kinds, blank lines, their own hook. */
const settings = (event: string): string => `// My settings — do not lose this line
{
  /* the model */
  "model": { "name": "pro" }, // picked in March

  "hooks": {
    "${event}": [
      // formatter first
      { "matcher": "write_file", "hooks": [ { "type": "command", "command": "npx prettier --write" } ] }
    ]
  }
  // end of file
}
`;

describe.each(CASES)('$harness settings with comments', ({ harness, file, event, name }) => {
  const where = () => path.join(home, ...file);
  const write = (text: string) => {
    fs.mkdirSync(path.dirname(where()), { recursive: true });
    fs.writeFileSync(where(), text);
  };

  it('merge wires it keeping every comment and line; strip gives the original bytes back', () => {
    const original = settings(event);
    write(original);
    const merged = hooks('merge', '--harness', harness);
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
    const text = fs.readFileSync(where(), 'utf8');
    // Every line the person wrote is still there, in order (the last entry of a list gains a comma).
    const lines = text.split('\n');
    let at = 0;
    for (const line of original.split('\n')) {
      const found = lines.findIndex((l, i) => i >= at && (l === line || l === `${line},`));
      expect(found, `line ${JSON.stringify(line)}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
    expect(text).toContain(`--driver ${harness}`);
    expect(hooks('status', '--harness', harness).stdout).toMatch(new RegExp(`${harness}: .* — wired`));
    // Idempotent: a second merge changes nothing.
    expect(hooks('merge', '--harness', harness).stdout).toContain('already wired; nothing to change');
    expect(fs.readFileSync(where(), 'utf8')).toBe(text);
    // Strip: the backup's bytes come back.
    expect(hooks('strip', '--harness', harness).status).toBe(0);
    expect(fs.readFileSync(where(), 'utf8')).toBe(original);
  });

  it('strip without the backup removes only Buckler\'s entries, even after the person edited the file', () => {
    const original = settings(event);
    write(original);
    expect(hooks('merge', '--harness', harness).status).toBe(0);
    fs.rmSync(`${where()}.buckler-backup`);
    const edited = fs.readFileSync(where(), 'utf8').replace('// end of file', '// end of file\n  // added later');
    fs.writeFileSync(where(), edited);
    const r = hooks('strip', '--harness', harness);
    expect(r.status).toBe(0);
    expect(fs.readFileSync(where(), 'utf8')).toBe(original.replace('// end of file', '// end of file\n  // added later'));
  });

  it('a trailing comma, which the harness refuses too, is refused and the file left as it was', () => {
    const broken = '{\n  "model": "x", // note\n}\n';
    write(broken);
    const r = hooks('merge', '--harness', harness);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`is not valid JSON with comments (line 3, column 1: a trailing comma before }; ${name} cannot read it either); left unchanged`);
    expect(fs.readFileSync(where(), 'utf8')).toBe(broken);
    expect(fs.readdirSync(path.dirname(where()))).toEqual(['settings.json']);
  });
});

describe('harnesses that read strict JSON still refuse comments', () => {
  it('claude-code settings.json with a comment is left unchanged', () => {
    const file = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, '{ // no\n}\n');
    const r = hooks('merge', '--harness', 'claude-code');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('is not valid JSON');
    expect(fs.readFileSync(file, 'utf8')).toBe('{ // no\n}\n');
  });
});
