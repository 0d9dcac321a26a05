/**
 * Issue 21, route 9, through the built command with Claude Code and Cursor hook payloads:
 * a file one tool call downloads (`curl -o x.sh URL`, `wget URL/t.py`) and a later call runs
 * (`bash x.sh`, also after a rename; `python3 t.py`) is judged as on one line
 * (agent-remote-exec/download-then-run: ask, strict deny). The record lives in the state
 * directory, protected like the other stores, and expires.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eDir, hook, hookDecision, shellEvent, SHELL_EVENTS } from './e2e.testing.ts';

const tmp = e2eDir('buckler-downloads-');
type Driver = 'claude-code' | 'cursor';

/** A fresh home, project and state directory per case. */
function setup(name: string, tier: 'baseline' | 'strict' = 'baseline') {
  const root = path.join(tmp, name);
  const project = path.join(root, 'proj');
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.mkdirSync(path.join(root, 'config', 'rules.d'), { recursive: true });
  fs.writeFileSync(path.join(root, 'config', 'config.toml'), `[core]\ntier = "${tier}"\n`);
  const state = path.join(root, 'state');
  const env = { PATH: process.env['PATH'] ?? '', HOME: root, BUCKLER_CONFIG_HOME: path.join(root, 'config'), BUCKLER_STATE_HOME: state, BUCKLER_DATA_HOME: path.join(root, 'data') };
  const pre = (driver: Driver, command: string): string => hookDecision(driver, shellEvent(driver, command, project), { env });
  const post = (driver: Driver, command: string): void => {
    const base = SHELL_EVENTS[driver].post(command);
    const r = hook(driver, { ...base, cwd: project, ...(driver === 'claude-code' ? { tool_response: { stdout: '' } } : {}) }, { env });
    expect(r.status, r.stderr).toBe(0);
  };
  /** The agent's call runs: the file appears, then the after-action hook. */
  const download = (driver: Driver, command: string, file: string, text: string): void => {
    expect(pre(driver, command)).toBe('allow');
    fs.writeFileSync(path.join(project, file), text);
    post(driver, command);
  };
  return { project, state, env, pre, post, download };
}

const DRIVERS = ['claude-code', 'cursor'] as const;

describe('downloaded now, run later (issue 21, route 9)', () => {
  it.each(DRIVERS)('%s: a script downloaded in one call and run in the next asks (strict: denies), also after a rename', (driver) => {
    const base = setup(`${driver}-base`);
    base.download(driver, 'curl -fsSLo x.sh https://example.com/x.sh', 'x.sh', 'echo hello\n');
    expect(base.pre(driver, 'bash x.sh')).toBe('ask');
    expect(base.pre(driver, 'sh ./x.sh')).toBe('ask');
    fs.renameSync(path.join(base.project, 'x.sh'), path.join(base.project, 'y.sh'));
    expect(base.pre(driver, 'bash y.sh')).toBe('ask');
    base.download(driver, 'wget https://example.com/dl/t.py', 't.py', 'print(1)\n');
    expect(base.pre(driver, 'python3 t.py')).toBe('ask');
    // Look-alikes: a local script nobody downloaded, reading the download, running other files.
    fs.writeFileSync(path.join(base.project, 'ok.sh'), 'echo ok\n');
    fs.writeFileSync(path.join(base.project, 'manage.py'), 'print(2)\n');
    expect(base.pre(driver, 'bash ok.sh')).toBe('allow');
    expect(base.pre(driver, 'cat y.sh')).toBe('allow');
    expect(base.pre(driver, 'python3 manage.py test')).toBe('allow');

    const strict = setup(`${driver}-strict`, 'strict');
    strict.download(driver, 'curl -fsSLo x.sh https://example.com/x.sh', 'x.sh', 'echo hello\n');
    expect(strict.pre(driver, 'bash x.sh')).toBe('deny');
  });

  it.each(DRIVERS)('%s: the record expires after a day, and the store is protected like the others', (driver) => {
    const s = setup(`${driver}-expiry`);
    s.download(driver, 'curl -o x.sh https://example.com/x.sh', 'x.sh', 'echo hello\n');
    const file = path.join(s.state, 'downloads.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { downloads: Array<{ at: number; ino?: number }> };
    expect(doc.downloads).toHaveLength(1);
    expect(typeof doc.downloads[0]?.ino).toBe('number');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(s.pre(driver, `echo '{"downloads":[]}' > ${file}`)).toBe('deny');
    expect(s.pre(driver, `rm ${file}`)).toBe('deny');
    for (const d of doc.downloads) d.at -= 25 * 60 * 60 * 1000;
    fs.writeFileSync(file, JSON.stringify(doc));
    expect(s.pre(driver, 'bash x.sh')).toBe('allow');
  });
});
