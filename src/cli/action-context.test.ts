import { describe, expect, it } from 'vitest';
import type { PolicyInput } from '../core/contract.ts';
import { actionContext, gitTopLevel } from './action-context.ts';

const input = (extra: Partial<PolicyInput> = {}): PolicyInput => ({ policy_io_version: '1', trigger: 'pre_shell_exec', harness: 't', ...extra });
const exists = (set: string[]) => (p: string): boolean => set.includes(p);

describe('actionContext', () => {
  it('takes home and $TMPDIR from the hook process, cwd from the event', () => {
    const c = actionContext(input({ shell: { command: 'x', cwd: '/w/p/' } }), { env: { HOME: '/home/u', TMPDIR: '/var/t' }, cwd: '/elsewhere', exists: exists([]) });
    const { locations, ...rest } = c;
    expect(rest).toEqual({ cwd: '/w/p', home: '/home/u', tmpdir: '/var/t', temp_dirs: ['/tmp', '/var/tmp', '/var/t'], project_roots: ['/w/p'] });
    // Named locations for that home (locations.test.ts has the detail).
    expect(locations?.['buckler_config']).toEqual(['/home/u/.config/buckler', '/home/u/.config/buckler/**']);
  });

  it('prefers the harness workspace roots, as given', () => {
    const c = actionContext(input({ session: { workspace_roots: ['/w/a', '/w/b'] } }), { env: { HOME: '/home/u' }, cwd: '/w/a/sub', exists: exists(['/w/.git']) });
    expect(c.project_roots).toEqual(['/w/a', '/w/b']);
    expect(c.temp_dirs).toEqual(['/tmp', '/var/tmp']);
    expect(c.tmpdir).toBeUndefined();
  });

  it('else the git top-level above cwd, not one in home or above', () => {
    expect(actionContext(input(), { env: { HOME: '/home/u' }, cwd: '/home/u/p/src/x', exists: exists(['/home/u/p/.git']) }).project_roots).toEqual(['/home/u/p']);
    expect(actionContext(input(), { env: { HOME: '/home/u' }, cwd: '/home/u/p/src', exists: exists(['/home/u/.git']) }).project_roots).toEqual(['/home/u/p/src']);
    expect(actionContext(input(), { env: { HOME: '/home/u' }, cwd: '/home/u/p', exists: exists(['/.git']) }).project_roots).toEqual(['/home/u/p']);
  });

  it('keeps what the adapter gave', () => {
    const c = actionContext(input({ context: { cwd: '/a', home: '/h', project_roots: ['/a'] } }), { env: { HOME: '/home/u' }, cwd: '/b', exists: exists([]) });
    expect(c).toMatchObject({ cwd: '/a', home: '/h', project_roots: ['/a'] });
  });
});

describe('gitTopLevel', () => {
  it('walks up to the nearest .git, bounded', () => {
    expect(gitTopLevel('/a/b/c', exists(['/a/.git']))).toBe('/a');
    expect(gitTopLevel('/a/b/c', exists(['/.git']))).toBe('/');
    expect(gitTopLevel('/a/b/c', exists([]))).toBeNull();
  });
});
