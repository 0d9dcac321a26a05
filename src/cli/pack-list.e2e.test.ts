/**
 * `buckler pack list` lists every pack (not only bundles), with its source (builtin, user,
 * bundle, project) and its state (on, or off in config.toml).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckler, bundle, sandboxProject, type SandboxProject } from './e2e.testing.ts';

let sb: SandboxProject;
beforeAll(() => {
  bundle();
  sb = sandboxProject('buckler-pack-list-');
  const config = sb.env.BUCKLER_CONFIG_HOME ?? path.join(sb.env.XDG_CONFIG_HOME as string, 'buckler');
  fs.mkdirSync(path.join(config, 'rules.d'), { recursive: true });
  fs.writeFileSync(path.join(config, 'config.toml'), '[packs]\nagent-git = { enabled = false }\n');
  const rule = (id: string): string => `pack: ${id}\nrules:\n  - id: r\n    trigger: pre_shell_exec\n    action: nudge\n    additional_context: hi\n    match: { shell_segments: [{ program: frobnicate }] }\n    examples: { match: [frobnicate], no_match: [ls] }\n`;
  fs.writeFileSync(path.join(config, 'rules.d', 'mine.yaml'), rule('my-rules'));
  fs.mkdirSync(path.join(sb.project, '.buckler', 'rules.d'), { recursive: true });
  fs.writeFileSync(path.join(sb.project, '.buckler', 'rules.d', 'team.yaml'), rule('team-rules'));
}, 120_000);
afterAll(() => fs.rmSync(sb.root, { recursive: true, force: true }));

describe('buckler pack list', () => {
  it('lists every pack with its source and state', () => {
    const r = buckler(['pack', 'list', '--json'], { env: sb.env, cwd: sb.project, timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const { packs } = JSON.parse(r.stdout) as { packs: { id: string; source: string; state: string }[] };
    const row = (id: string): { source: string; state: string } | undefined => packs.find((p) => p.id === id);
    expect(row('agent-git')).toMatchObject({ source: 'builtin', state: 'off' });
    expect(row('agent-fs')).toMatchObject({ source: 'builtin', state: 'on' });
    expect(row('my-rules')).toMatchObject({ source: 'user', state: 'on' });
    expect(row('team-rules')).toMatchObject({ source: 'project', state: 'on' });
    expect(packs.filter((p) => p.source === 'builtin').length).toBe(fs.readdirSync(path.join(__dirname, '..', '..', 'packs')).filter((f) => f.endsWith('.yaml')).length);
    const text = buckler(['pack', 'list'], { env: sb.env, cwd: sb.project, timeout: 60_000 });
    expect(text.stdout).toMatch(/^ {2}agent-git +builtin +off \(config\.toml\)$/m);
    expect(text.stdout).toMatch(/^ {2}my-rules +user +on/m);
    expect(text.stdout).toContain('no bundle installed');
  });
});
