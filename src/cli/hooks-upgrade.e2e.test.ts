// Upgrading an existing install: `buckler hooks merge` over a wiring an earlier Buckler wrote
// moves it to today's and says what changed, one line per change and one summary line per
// harness. The built bundle, spawned with a temporary HOME.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, it, expect } from 'vitest';
import { BUNDLE } from './build.testing.ts';
import { buckler as run, bundle } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-upgrade-')));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

const CMD = (h: string) => `'${process.execPath}' '${fs.realpathSync(BUNDLE)}' --driver ${h}`;
const hooks = (...args: string[]) => run(['hooks', ...args], { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } });

/** What the first Claude Code installer wrote (shell tools only), beside the person's own hook, plus an entry on an event Buckler no longer uses. */
const OLD_CLAUDE = () => ({
  model: 'opus',
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'other-tool check' }] },
      { matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: CMD('claude-code'), timeout: 10 }] },
    ],
    PostToolUse: [{ matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: CMD('claude-code'), timeout: 10 }] }],
    PostToolUseFailure: [{ matcher: 'Bash|PowerShell', hooks: [{ type: 'command', command: CMD('claude-code'), timeout: 10 }] }],
    Stop: [{ hooks: [{ type: 'command', command: CMD('claude-code'), timeout: 10 }] }],
  },
});

describe('hooks merge over an older wiring', () => {
  it('claude-code: rewrites the old entry, adds the new group, removes the retired one, and says so', () => {
    const file = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, `${JSON.stringify(OLD_CLAUDE(), null, 2)}\n`);
    const r = hooks('merge', '--harness', 'claude-code');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}~ PreToolUse \[Bash\|PowerShell\|Read\|Write\|Edit\|MultiEdit\|NotebookEdit\|Grep\|Glob\]/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}\+ PreToolUse \[mcp__\.\*\]/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}- Stop\b/));
    expect(lines).toContain('  summary  1 entry added, 1 entry updated, 1 entry removed');
    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(value.hooks)).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    expect(value.hooks.PreToolUse[0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'other-tool check' }] });
    expect(hooks('status', '--harness', 'claude-code').stdout).toMatch(/claude-code: .* — wired\n/);
    // Now current: a second merge says so and changes nothing.
    const again = hooks('merge', '--harness', 'claude-code');
    expect(again.stdout).toContain('  summary  unchanged (already the current wiring)');
    expect(JSON.parse(hooks('merge', '--harness', 'claude-code', '--json').stdout).results[0].summary).toEqual({ added: 0, updated: 0, removed: 0 });
  });

  it('gemini-cli with comments: an older shell-only wiring is widened in place, the comments stay', () => {
    const file = path.join(home, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    const old = `{
  // my settings
  "hooks": {
    "BeforeTool": [
      { "matcher": "^run_shell_command$", "hooks": [ { "type": "command", "name": "buckler", "command": ${JSON.stringify(CMD('gemini-cli'))}, "timeout": 10000 } ] }
    ]
  }
}
`;
    fs.writeFileSync(file, old);
    const r = hooks('merge', '--harness', 'gemini-cli');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  summary  1 entry added, 1 entry updated');
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith('{\n  // my settings\n  "hooks": {\n    "BeforeTool": [\n')).toBe(true);
    expect(text).toContain('"matcher": "^(run_shell_command|read_file|read_many_files|write_file|replace|mcp_.+)$"');
    expect(text).toContain('"AfterTool"');
  });
});
