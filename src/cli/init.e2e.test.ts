// `buckler init` end to end, through the built bundle: a commented starter config.toml, or a
// project's starter .buckler/rules.d with a test file; each passes `buckler validate` (and the
// test file `buckler test`), and an existing file is never overwritten.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, sandboxProject, type Ran } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-init-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const cli = (...args: string[]): Ran => buckler(args, { env, cwd: project });
const configFile = (): string => path.join(env.BUCKLER_CONFIG_HOME ?? path.join(env.XDG_CONFIG_HOME as string, 'buckler'), 'config.toml');

describe('buckler init (built CLI)', () => {
  it('writes a commented config.toml that validates, and refuses to write it again', () => {
    const r = cli('init');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`wrote ${configFile()}\nnext: buckler validate\n`);
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(text).toMatch(/^\[core\]$/m);
    expect(text).toMatch(/^# tier = "baseline"$/m);
    expect(text).toMatch(/^\[packs\]$/m);
    expect(text).toMatch(/audit_log/);
    const v = cli('validate');
    expect(v.status, v.stdout + v.stderr).toBe(0);
    expect(v.stdout + v.stderr).not.toMatch(/config\.toml line/);

    fs.writeFileSync(configFile(), '[core]\ntier = "strict"\n');
    const again = cli('init');
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(`buckler init: ${configFile()} exists; nothing written (move it away to start again)\n`);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe('[core]\ntier = "strict"\n');
  });

  it('--project writes an example rule and a test file that pass validate and test', () => {
    const r = cli('init', '--project');
    expect(r.status, r.stderr).toBe(0);
    const rule = path.join(project, '.buckler', 'rules.d', 'example.yaml');
    const tests = path.join(project, '.buckler', 'tests.yaml');
    expect(r.stdout).toContain(`wrote ${rule}\nwrote ${tests}\n`);
    expect(fs.existsSync(configFile())).toBe(false);
    const v = cli('validate');
    expect(v.status, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toMatch(/project rules: .buckler\/rules.d: .* 1 loaded/);
    const t = cli('test', '.buckler/tests.yaml');
    expect(t.status, t.stdout + t.stderr).toBe(0);
    // A hook in the project: the example rule asks (it only tightens, trusted or not).
    const c = cli('check', '--json', '--', 'make deploy');
    expect((JSON.parse(c.stdout) as { decision: string; rule: string }).rule).toBe('project-example/ask-before-deploy');

    const again = cli('init', '--project');
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(`buckler init: ${rule} exists; nothing written (move it away to start again)\n`);
  });

  it('--dir without --project is a usage error; an agent is denied init', () => {
    expect(cli('init', '--dir', '.').status).toBe(2);
    const c = cli('check', '--json', '--', 'buckler init');
    expect((JSON.parse(c.stdout) as { decision: string }).decision).toBe('deny');
  });
});
