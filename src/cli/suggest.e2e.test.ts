// `buckler suggest` end to end, through the built bundle: grants made with `buckler allow` become
// one rule exactly as broad as the grant (these words, this project), shown by default and
// written only with --write (never over a file); a grant for what agent-tamper blocks gives none.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, sandboxProject, type Ran } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-suggest-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const cli = (args: string[], cwd = project): Ran => buckler(args, { env, cwd });
const FORCE = ['git', 'push', '--force', 'origin', 'main'];
const rulesDir = (): string => path.join(env.BUCKLER_CONFIG_HOME ?? path.join(env.XDG_CONFIG_HOME as string, 'buckler'), 'rules.d');
const decision = (command: string, cwd = project): string => {
  const r = cli(['check', '--json', '--', command], cwd);
  return (JSON.parse(r.stdout) as { decision: string }).decision;
};

function grant(words: string[], times: number): void {
  for (let i = 0; i < times; i++) {
    const r = cli(['allow', '--project', project, '--', ...words]);
    expect(r.status, r.stderr).toBe(0);
  }
}

describe('buckler suggest (built CLI)', () => {
  it('a grant made three times gives one rule, no broader than the grant, written only with --write', () => {
    grant(FORCE, 3);
    grant(['git', 'push', '--force', 'origin', 'dev'], 1);
    const shown = cli(['suggest']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`git push --force origin main\n  in ${project}: allowed 3 times on `);
    expect(shown.stdout).toContain('blocked by agent-git/');
    expect(shown.stdout.match(/^ {2}- id: /gm)).toHaveLength(1);
    expect(shown.stdout).toContain('- argv: ["git", "push", "--force", "origin", "main"]');
    expect(shown.stdout).not.toContain('origin dev');
    // Shown only: nothing written, the command still denied.
    expect(fs.existsSync(rulesDir()) ? fs.readdirSync(rulesDir()) : []).toEqual([]);
    expect(decision(FORCE.join(' '))).toBe('deny');

    // Never over an existing file.
    const taken = path.join(project, 'taken.yaml');
    fs.writeFileSync(taken, 'mine\n');
    const refused = cli(['suggest', '--write', '--out', taken]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(`buckler suggest: ${taken} exists; not overwritten\n`);
    expect(fs.readFileSync(taken, 'utf8')).toBe('mine\n');

    const out = path.join(rulesDir(), 'mine.yaml');
    const wrote = cli(['suggest', '--write', '--out', out]);
    expect(wrote.status, wrote.stderr).toBe(0);
    expect(wrote.stdout).toContain(`wrote 1 rule to ${out}`);
    expect(cli(['validate']).status).toBe(0);
    // Exactly that command, in that project.
    expect(decision(FORCE.join(' '))).toBe('allow');
    expect(decision('git push --force origin main --tags')).toBe('deny');
    expect(decision('git push --force origin dev')).toBe('deny');
    expect(decision('git push --force origin')).toBe('deny');
    const other = path.join(env.HOME as string, 'other');
    fs.mkdirSync(path.join(other, '.git'), { recursive: true });
    expect(decision(FORCE.join(' '), other)).toBe('deny');

    // Once in force, the grants suggest nothing more.
    const after = cli(['suggest']);
    expect(after.stdout).toContain('no rule suggested: not blocked now (allow)');
    expect(after.stdout).not.toContain('- id:');
  }, 180_000);

  it('a grant for what agent-tamper blocks gives no rule', () => {
    grant(['buckler', 'trust'], 3);
    const r = cli(['suggest']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('allowed 3 times on ');
    expect(r.stdout).toMatch(/no rule suggested: blocked by agent-tamper\/[a-z-]+: agent-tamper is never lifted/);
    expect(r.stdout).not.toContain('- id:');
    const w = cli(['suggest', '--write']);
    expect(w.status).toBe(0);
    expect(fs.existsSync(rulesDir()) ? fs.readdirSync(rulesDir()) : []).toEqual([]);
  }, 120_000);

  it('fewer grants than --min give nothing; a bad --min is a usage error', () => {
    grant(FORCE, 1);
    const r = cli(['suggest']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no command was allowed 2 times or more \(1 grant recorded\)/);
    expect(cli(['suggest', '--min', '1']).stdout).toContain('- id:');
    expect(cli(['suggest', '--min', 'x']).status).toBe(2);
    expect(cli(['suggest', '--out', 'x.yaml']).status).toBe(2);
  }, 120_000);
});
