/**
 * Issue 21, route 7: terminal control characters in a project path or a rules file name are
 * shown, not obeyed, by every person-facing listing (`trust`, `trust --status`, `trust --list`,
 * `allow`, `allow --list`), as `log` shows them: one escaping (src/cli/printable.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './build.testing.ts';
import { sandboxProject } from './e2e.testing.ts';
import { printable } from './printable.ts';

let BUNDLE: string;
let root: string;
let env: Record<string, string>;
let project: string;
/** A title-setting escape and a colour in the project's name; a colour in a rules file's name. */
const EVIL_DIR = 'app\u001b]0;owned\u0007\u001b[31m';
const EVIL_FILE = 'team\u001b[2J.yaml';

beforeAll(() => {
  BUNDLE = ensureBuilt();
  ({ root, env } = sandboxProject('buckler-listing-escapes-'));
  project = path.join(env.HOME as string, EVIL_DIR);
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.mkdirSync(path.join(project, '.buckler', 'rules.d'), { recursive: true });
  fs.writeFileSync(
    path.join(project, '.buckler', 'rules.d', EVIL_FILE),
    'pack: team\nrules:\n  - id: no-deploy\n    trigger: [pre_shell_exec]\n    match:\n      shell_segments:\n        - program: make\n          words_any: [deploy]\n    action: deny\n',
  );
}, 120_000);
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BUNDLE, ...args], { env, cwd: project, encoding: 'utf8' });
}

/** No control character but the line ends: nothing for the terminal to obey. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('person-facing listings escape control characters', () => {
  it('trust, trust --status, trust --list, allow, allow --list', () => {
    const outputs: Array<[string, string]> = [];
    const run = (args: string[]): string => {
      const r = cli(args);
      outputs.push([args.join(' '), r.stdout + r.stderr]);
      return r.stdout;
    };
    expect(run(['trust', '--status'])).toContain(printable(project));
    expect(run(['trust'])).toContain(printable(EVIL_FILE));
    expect(run(['trust', '--list'])).toContain(printable(project));
    run(['trust', '--status']);
    run(['allow', '--', 'git', 'push', '--force', 'origin', 'ma\u001b[1min']);
    const list = run(['allow', '--list']);
    expect(list).toContain(printable(project));
    expect(list).toContain('\\x1b[1m');
    for (const [args, out] of outputs) expect([args, CONTROL.test(out)]).toEqual([args, false]);
    // The JSON forms keep the exact values (JSON escapes them).
    const json = cli(['trust', '--list', '--json']).stdout;
    expect((JSON.parse(json.trim().split('\n')[0] as string) as { project: string }).project).toBe(project);
  }, 180_000);
});
