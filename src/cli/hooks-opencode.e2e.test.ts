// `buckler hooks --harness opencode` on real files (the built bundle, a temporary HOME), and the
// plugin module it writes, loaded and driven the way OpenCode 1.18.33 calls it
// (`tool.execute.before(input, output)` / `tool.execute.after(input, output)`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderPlugin } from '../installers/opencode/plugin.ts';
import { BUNDLE } from './build.testing.ts';
import { buckler as run, bundle } from './e2e.testing.ts';

const COMMAND = `'${process.execPath}' '${fs.realpathSync(BUNDLE)}' --driver opencode`;

beforeAll(() => void bundle(), 120_000);

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-hooks-opencode-')));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

function buckler(args: string[], env: Record<string, string> = {}): { code: number | null; out: string } {
  const r = run(['hooks', ...args], { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env } });
  return { code: r.status, out: r.stdout + r.stderr };
}

const userFile = (): string => path.join(home, '.config', 'opencode', 'plugins', 'buckler.js');

describe('buckler hooks --harness opencode on real files', () => {
  it('merge writes the plugin, status is ok, a second merge changes nothing, strip deletes it', () => {
    const r = buckler(['merge', '--harness', 'opencode']);
    expect(r.code, r.out).toBe(0);
    const text = fs.readFileSync(userFile(), 'utf8');
    expect(text).toContain(`const COMMAND = ${JSON.stringify(COMMAND)};`);
    expect(buckler(['status', '--harness', 'opencode']).code).toBe(0);
    expect(buckler(['merge', '--harness', 'opencode']).code).toBe(0);
    expect(fs.readFileSync(userFile(), 'utf8')).toBe(text);
    expect(buckler(['strip', '--harness', 'opencode']).code).toBe(0);
    expect(fs.existsSync(userFile())).toBe(false);
    expect(fs.readdirSync(path.dirname(userFile()))).toEqual([]);
  });

  it('rewrites an outdated Buckler plugin in place, without a backup', () => {
    expect(buckler(['merge', '--harness', 'opencode']).code).toBe(0);
    const text = fs.readFileSync(userFile(), 'utf8');
    fs.writeFileSync(userFile(), text.replace('MAX_REPLY = 1 << 20', 'MAX_REPLY = 1 << 10'));
    expect(buckler(['status', '--harness', 'opencode']).code).toBe(1);
    expect(buckler(['merge', '--harness', 'opencode']).code).toBe(0);
    expect(fs.readFileSync(userFile(), 'utf8')).toBe(text);
    expect(fs.readdirSync(path.dirname(userFile()))).toEqual(['buckler.js']);
  });

  it('leaves a plugin file it did not write alone, with a clear error, for merge, strip and status', () => {
    fs.mkdirSync(path.dirname(userFile()), { recursive: true });
    const mine = 'export const Mine = async () => ({});\n';
    fs.writeFileSync(userFile(), mine);
    for (const action of ['merge', 'strip', 'status']) {
      const r = buckler([action, '--harness', 'opencode']);
      expect(r.code, action).toBe(1);
      expect(r.out).toContain(`${userFile()}: is not a plugin file Buckler wrote; left unchanged`);
    }
    expect(fs.readFileSync(userFile(), 'utf8')).toBe(mine);
    expect(fs.readdirSync(path.dirname(userFile()))).toEqual(['buckler.js']);
  });

  it('honours XDG_CONFIG_HOME and the project scope', () => {
    const xdg = path.join(home, 'xdg');
    expect(buckler(['merge', '--harness', 'opencode'], { XDG_CONFIG_HOME: xdg }).code).toBe(0);
    expect(fs.existsSync(path.join(xdg, 'opencode', 'plugins', 'buckler.js'))).toBe(true);
    fs.mkdirSync(path.join(home, 'proj'));
    expect(buckler(['merge', '--harness', 'opencode', '--scope', 'project', '--project', 'proj']).code).toBe(0);
    expect(fs.existsSync(path.join(home, 'proj', '.opencode', 'plugins', 'buckler.js'))).toBe(true);
    expect(fs.existsSync(userFile())).toBe(false);
  });

  it('is wired by --harness all when ~/.config/opencode exists', () => {
    fs.mkdirSync(path.join(home, '.config', 'opencode'), { recursive: true });
    expect(buckler(['merge', '--harness', 'all']).code).toBe(0);
    expect(fs.existsSync(userFile())).toBe(true);
  });
});

type Hook = (input: Record<string, unknown>, output: Record<string, unknown>) => Promise<void>;
type Hooks = Record<'tool.execute.before' | 'tool.execute.after', Hook>;

/** The plugin for `command`, loaded as OpenCode loads it (an ES module; `.mjs` so Node reads it as one). */
async function loadPlugin(command: string, dir: string): Promise<Hooks> {
  const file = path.join(dir, `plugin-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, renderPlugin({ hooks: { command, current: true } }));
  const mod = (await import(pathToFileURL(file).href)) as { BucklerPlugin: (ctx: Record<string, unknown>) => Promise<Hooks> };
  return mod.BucklerPlugin({ directory: dir, worktree: dir });
}

const bash = (command: string, callID = 'c1') => ({ input: { tool: 'bash', sessionID: 's', callID }, output: { args: { command, description: 'scripted' } } });

describe('the OpenCode plugin Buckler writes, driven as OpenCode drives it', () => {
  it('throws the reason on a denied call, lets an allowed one through, adds a nudge to the result', async () => {
    const hooks = await loadPlugin(COMMAND, home);
    const push = bash('git push --force origin main');
    await expect(hooks['tool.execute.before'](push.input, push.output)).rejects.toThrow(/force/i);
    const echo = bash('echo hi', 'c2');
    await expect(hooks['tool.execute.before'](echo.input, echo.output)).resolves.toBeUndefined();
    const after = { title: 'echo hi', output: 'hi', metadata: { exit: 0 } };
    await hooks['tool.execute.after']({ ...echo.input, args: echo.output.args }, after);
    expect(after.output).toBe('hi');
    const add = bash('git add README.md', 'c3');
    await hooks['tool.execute.before'](add.input, add.output);
    const added = { title: 'git add', output: '', metadata: { exit: 0 } };
    await hooks['tool.execute.after']({ ...add.input, args: add.output.args }, added);
    expect(added.output).toMatch(/\n\n\S/);
  });

  it.each([
    ['exits non-zero', 'echo broken >&2; exit 3', /exited with 3: broken/],
    ['cannot be found', "'/nonexistent/buckler' --driver opencode", /exited with 127/],
    ['answers something that is not one JSON object', 'echo not-json', /not one JSON object/],
    ['answers a JSON array', "echo '[1]'", /not one JSON object/],
  ])('when the hook command %s: blocks before the call, never after', async (_n, command, why) => {
    const hooks = await loadPlugin(command, home);
    const call = bash('echo hi');
    const err = await hooks['tool.execute.before'](call.input, call.output).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/^Buckler could not check this bash call \(/);
    expect(err?.message).toMatch(why);
    const after = { title: '', output: 'hi', metadata: { exit: 0 } };
    await expect(hooks['tool.execute.after']({ ...call.input, args: call.output.args }, after)).resolves.toBeUndefined();
    expect(after.output).toBe('hi');
  });
});
