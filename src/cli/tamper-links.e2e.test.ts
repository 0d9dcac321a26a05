/**
 * Issue 21, routes 1 and 3, through the built hook (`--driver claude-code` and `--driver cursor`):
 * a protected location is protected through links and parent folders (docs/security.md, "Links
 * and parent folders").
 *
 * - Links on disk: a symbolic link the agent made earlier (`cfg` → `~/.config/buckler`, `h` →
 *   home) and a hard link to `config.toml` are followed by the hook, for shell commands and for
 *   the file tools (Claude Code Write/Edit, Cursor preToolUse Write).
 * - Links on the line: making a link to, inside or to an ancestor of a protected location is a
 *   write to it; a link made earlier on the line counts; a link to home asks.
 * - Parent folders: moving, unpacking, cloning or recursively copying into or over a folder
 *   that holds a protected location, and copying a file into a folder that holds a protected
 *   file of that name.
 *
 * Each is next to the look-alikes the issue lists, which stay allowed. HOME is a temporary
 * directory; Buckler's directories are the defaults under it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eDir, hookDecision, shellEvent } from './e2e.testing.ts';

type D = 'allow' | 'ask' | 'deny';
type Driver = 'claude-code' | 'cursor';

const tmp = e2eDir('buckler-tamper-links-');
const home = path.join(tmp, 'home');
const project = path.join(home, 'project');
const cfg = path.join(home, '.config', 'buckler');
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home });

beforeAll(() => {
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.mkdirSync(path.join(cfg, 'rules.d'), { recursive: true });
  fs.writeFileSync(path.join(cfg, 'config.toml'), '[core]\ntier = "baseline"\n');
  fs.mkdirSync(path.join(home, '.cursor'), { recursive: true });
  fs.mkdirSync(path.join(home, 'shared'), { recursive: true });
  fs.mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
  // What earlier, allowed-looking calls left behind: links into Buckler's config, to home, and a
  // hard link sharing config.toml's inode; and an ordinary link to a sibling folder.
  fs.symlinkSync(cfg, path.join(project, 'cfg'));
  fs.symlinkSync(home, path.join(project, 'h'));
  fs.linkSync(path.join(cfg, 'config.toml'), path.join(project, 'notes.toml'));
  fs.symlinkSync('../shared', path.join(project, 'lib'));
});

function shell(driver: Driver, command: string): D {
  return hookDecision(driver, shellEvent(driver, command, project), { env: env(), cwd: project, timeout: 30_000 }) as D;
}

function tool(driver: Driver, name: string, file: string): D {
  const payload =
    driver === 'claude-code'
      ? { session_id: 's', transcript_path: '/t', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: name, tool_input: { file_path: file, content: 'x', old_string: 'a', new_string: 'b' }, tool_use_id: 'u' }
      : { conversation_id: 'c', generation_id: 'g', hook_event_name: 'preToolUse', workspace_roots: [project], tool_name: name, tool_input: { file_path: file, content: 'x' }, tool_use_id: 'u', cwd: project };
  return hookDecision(driver, payload, { env: env(), cwd: project, timeout: 30_000 }) as D;
}

const DRIVERS: Driver[] = ['claude-code', 'cursor'];

describe('route 1: a path is judged at its name and at its target', () => {
  it.each<[string, D]>([
    // Links on disk, made by an earlier call.
    ['cp evil.yaml cfg/rules.d/x.yaml', 'deny'],
    ['echo "tier = \\"baseline\\"" > cfg/config.toml', 'deny'],
    ['rm -rf cfg/rules.d', 'deny'],
    ['rm -rf h/', 'deny'],
    ['rm -rf h/.config', 'deny'],
    ['echo x > notes.toml', 'deny'],
    ['sed -i s/a/b/ notes.toml', 'deny'],
    // Links made now, or earlier on the same line.
    ['ln -s ~/.config/buckler cfg2', 'deny'],
    ['ln -s ~/.config c', 'deny'],
    ['ln -s ~/.config/buckler/rules.d r', 'deny'],
    ['ln ~/.config/buckler/config.toml x', 'deny'],
    ['cp -s ~/.config/buckler/config.toml y', 'deny'],
    ['ln -s ~ home-link', 'ask'],
    ['ln -s ~ h2 && rm -rf h2/', 'deny'],
    ['ln -s ~/.local/share d; cp stub.cjs d/buckler/current/dist/buckler.cjs', 'deny'],
    // Look-alikes.
    ['ln -s ../shared lib2', 'allow'],
    ['ln -s ../node_modules/.bin/x bin-x', 'allow'],
    ['cp config.example.toml config.toml', 'allow'],
    ['echo x > lib/a.txt', 'allow'],
    ['rm h', 'allow'],
    ['cat cfg/config.toml', 'allow'],
    ['cat notes.toml', 'allow'],
  ])('%s → %s', (command, want) => {
    for (const d of DRIVERS) expect([d, shell(d, command)]).toEqual([d, want]);
  });

  it.each<[Driver, string, string, D]>([
    ['claude-code', 'Write', 'cfg/config.toml', 'deny'],
    ['claude-code', 'Edit', 'cfg/rules.d/x.yaml', 'deny'],
    ['claude-code', 'Write', 'h/.cursor/hooks.json', 'deny'],
    ['claude-code', 'Edit', 'notes.toml', 'deny'],
    ['cursor', 'Write', 'cfg/config.toml', 'deny'],
    ['cursor', 'Write', 'notes.toml', 'deny'],
    ['cursor', 'Write', 'h/.config/buckler/rules.d/x.yaml', 'deny'],
    ['claude-code', 'Write', 'lib/a.txt', 'allow'],
    ['cursor', 'Write', 'lib/a.txt', 'allow'],
    ['claude-code', 'Read', 'cfg/config.toml', 'allow'],
  ])('%s %s %s → %s', (driver, name, file, want) => {
    expect(tool(driver, name, file)).toBe(want);
  });
});

describe('route 3: a folder written as a whole holds what is inside it', () => {
  it.each<[string, D]>([
    ['mv ~/.config x', 'deny'],
    ['mv ~/.local/share x', 'deny'],
    ['mv ~/.cursor /tmp/c', 'deny'],
    ['tar -xf t.tar -C ~/.config', 'deny'],
    ['tar --extract --file t.tar --directory ~/.local/share', 'deny'],
    ['git clone https://example.com/r.git ~/.config/buckler/rules.d', 'deny'],
    ['cp -r vendor/. ~/.local/share/', 'deny'],
    ['cp -a dotfiles/. ~/.cursor', 'deny'],
    ['rsync -a vendor/ ~/.local/share/', 'deny'],
    ['cp /tmp/hooks.json ~/.cursor/', 'deny'],
    ['rsync -a settings.json ~/.claude/', 'deny'],
    ['install -m 644 hooks.json ~/.codex/', 'deny'],
    ['cp -t ~/.cursor /tmp/hooks.json', 'deny'],
    ['cp credentials ~/.aws/', 'deny'],
    // Look-alikes.
    ['cp -r template/. new-app/', 'allow'],
    ['mv build old-build', 'allow'],
    ['tar -xf deps.tar -C vendor', 'allow'],
    ['git clone https://example.com/r.git vendor/r', 'allow'],
    ['cp config.example.toml config.toml', 'allow'],
    ['cp notes.md ~/.cursor/', 'allow'],
    ['rsync -a src/ /tmp/backup/', 'allow'],
  ])('%s → %s', (command, want) => {
    for (const d of DRIVERS) expect([d, shell(d, command)]).toEqual([d, want]);
  });
});
