// `buckler replay` re-decides each record where its hook judged it: with the recorded home,
// project roots and temp directories (`rm -rf ~` stays a deny, not a run-time `~` that asks),
// and says which records hold no context and so cannot be replayed faithfully.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buckler, bundle, hookDecision, sandboxProject, shellEvent } from './e2e.testing.ts';

beforeAll(() => void bundle(), 120_000);

let root: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ root, env, project } = sandboxProject('buckler-replay-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const logFile = (): string => (env.BUCKLER_STATE_HOME !== undefined ? path.join(env.BUCKLER_STATE_HOME, 'audit.jsonl') : path.join(env.XDG_STATE_HOME as string, 'buckler', 'audit.jsonl'));

describe('buckler replay with the recorded context (built CLI)', () => {
  it('a hook\'s deny of rm -rf ~ replays as the same deny; a record without context is named', () => {
    expect(hookDecision('claude-code', shellEvent('claude-code', 'rm -rf ~', project), { env, cwd: project })).toBe('deny');
    const [line] = fs.readFileSync(logFile(), 'utf8').trim().split('\n');
    const record = JSON.parse(line as string) as { context?: { home?: string; project_roots?: string[]; temp_dirs?: string[] } };
    expect(record.context?.home).toBe(env.HOME);
    expect(record.context?.project_roots).toEqual([project]);
    expect(record.context?.temp_dirs?.length).toBeGreaterThan(0);

    // Replayed by a person whose environment differs (another HOME): the recorded one counts.
    const other = { ...env, HOME: path.join(root, 'elsewhere') };
    fs.mkdirSync(other.HOME, { recursive: true });
    const r = buckler(['replay', '--json'], { env: other, cwd: project });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const text = buckler(['replay'], { env: other, cwd: project });
    expect(text.stderr).toBe('buckler replay: 1 command replayed, 0 would change\n');

    // An older record, without context: replayed with this machine's, and said so.
    const { context: _dropped, ...old } = record;
    fs.writeFileSync(logFile(), `${JSON.stringify(old)}\n`);
    const o = buckler(['replay'], { env, cwd: project });
    expect(o.status, o.stderr).toBe(0);
    expect(o.stderr).toContain('1 command replayed, 0 would change\n');
    expect(o.stderr).toContain('buckler replay: 1 record holds no context (written before home, project roots and temp directories were recorded)');
  }, 120_000);
});
