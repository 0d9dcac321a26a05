// `buckler hooks merge` under concurrency, end to end: 20 merges of the built bundle run at once
// while a "user" keeps adding entries to the same config. Counts what survives. Bounded: 20
// merges, 30 user edits, no timing assertions.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLE } from './build.testing.ts';
import { bundle } from './e2e.testing.ts';

const MERGES = 20;
const USER_EDITS = 30;

beforeAll(() => void bundle(), 120_000);

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-hooks-race-')));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

/**
 * A user's editor that cooperates through Buckler's documented lock protocol (docs/hooks.md):
 * create `<file>.buckler-lock` with O_EXCL, read, change, write a temporary file and rename it,
 * remove the lock. Each edit appends one entry `./user-<i>.sh` to the `stop` list.
 */
const USER_EDITOR = `
import fs from 'node:fs';
const [file, count] = [process.argv[2], Number(process.argv[3])];
const lock = file + '.buckler-lock';
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(pause, 0, 0, ms);
// Start once the first merge has written, so the edits overlap the merges (bounded wait).
for (let waited = 0; waited < 20000 && !fs.readFileSync(file, 'utf8').includes('--driver'); waited += 2) sleep(2);
for (let i = 0; i < count; i++) {
  for (;;) {
    try {
      const fd = fs.openSync(lock, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: 'user-editor', at: Date.now() }));
      fs.closeSync(fd);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      sleep(1);
    }
  }
  const value = JSON.parse(fs.readFileSync(file, 'utf8'));
  (value.hooks.stop ??= []).push({ command: './user-' + i + '.sh' });
  const tmp = file + '.user-' + process.pid + '.tmp';
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\\n');
  fs.renameSync(tmp, file);
  fs.unlinkSync(lock);
  sleep(Math.random() * 8);
}
`;

interface Done {
  code: number | null;
  stderr: string;
}

function run(args: string[], env: Record<string, string>): Promise<Done> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('hooks merge: concurrent merges and a concurrent user', () => {
  it(`${MERGES} merges at once lose none of ${USER_EDITS} user edits, and leave one wiring`, async () => {
    const file = path.join(home, '.cursor', 'hooks.json');
    fs.mkdirSync(path.dirname(file));
    const original = { version: 1, hooks: { beforeShellExecution: [{ command: './audit.sh' }], stop: [] as unknown[] } };
    fs.writeFileSync(file, `${JSON.stringify(original, null, 2)}\n`);
    // Each merge wires a different (runnable) path to the bundle, so each one rewrites the file.
    const commands = Array.from({ length: MERGES }, (_, i) => {
      const dir = path.join(home, 'copies', String(i));
      fs.mkdirSync(dir, { recursive: true });
      fs.symlinkSync(BUNDLE, path.join(dir, 'buckler.cjs'));
      return `'${process.execPath}' '${path.join(dir, 'buckler.cjs')}'`;
    });
    const editor = path.join(home, 'editor.mjs');
    fs.writeFileSync(editor, USER_EDITOR);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };

    const user = run([editor, file, String(USER_EDITS)], env);
    const merges = commands.map((command) => run([BUNDLE, 'hooks', 'merge', '--harness', 'cursor', '--command', command], env));
    const results = await Promise.all([user, ...merges]);

    const value = JSON.parse(fs.readFileSync(file, 'utf8'));
    const userEntries = (value.hooks.stop as { command: string }[]).map((e) => e.command);
    // Every user edit survived, once each, in the order made.
    expect(userEntries).toEqual(Array.from({ length: USER_EDITS }, (_, i) => `./user-${i}.sh`));
    // Every merge succeeded (planned again from the user's bytes when they changed meanwhile).
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    expect(value.hooks.beforeShellExecution.filter((e: { command: string }) => e.command === './audit.sh')).toHaveLength(1);
    // Buckler's entries: one per wanted event, all from one of the merges.
    const ours = Object.values(value.hooks as Record<string, { command: string }[]>)
      .flat()
      .filter((e) => / --driver cursor$/.test(e.command));
    const events = Object.entries(value.hooks as Record<string, { command: string }[]>).filter(([, list]) => list.some((e) => / --driver cursor$/.test(e.command)));
    expect(ours).toHaveLength(events.length);
    expect(new Set(ours.map((e) => e.command)).size).toBe(1);
    expect(commands.map((c) => `${c} --driver cursor`)).toContain(ours[0]?.command);
    // Nothing left behind: no lock, no temporary file; the backup holds the original.
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['hooks.json', 'hooks.json.buckler-backup']);
  }, 120_000);
});
