/**
 * Issue 21 (found by unseen tests), through the built hook (`--driver claude-code` and `--driver
 * cursor`): a bypass variable made persistent in a shell start-up file is denied in both tiers
 * (agent-tamper/no-persistent-bypass), whether the text arrives as words, a here-document, a
 * here-string, or a file tool's content (Claude Code Write, Edit, MultiEdit; Cursor preToolUse
 * Write). Look-alikes: other text written there stays as it was (ask: content Buckler cannot see,
 * or allow for literal words), the variable written elsewhere, or removed by an Edit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eDir, hookDecision, shellEvent } from './e2e.testing.ts';

type Driver = 'claude-code' | 'cursor';
const DRIVERS: Driver[] = ['claude-code', 'cursor'];
const TIERS = ['baseline', 'strict'] as const;

const tmp = e2eDir('buckler-persistent-bypass-');
const home = path.join(tmp, 'home');
const project = path.join(home, 'project');
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home });

function setTier(tier: 'baseline' | 'strict'): void {
  fs.writeFileSync(path.join(home, '.config', 'buckler', 'config.toml'), `[core]\ntier = "${tier}"\n`);
}

beforeAll(() => {
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.mkdirSync(path.join(home, '.config', 'buckler', 'rules.d'), { recursive: true });
  fs.mkdirSync(path.join(home, '.config', 'fish'), { recursive: true });
  fs.writeFileSync(path.join(home, '.bashrc'), '# bashrc\n');
});

const shell = (driver: Driver, command: string): string => hookDecision(driver, shellEvent(driver, command, project), { env: env(), cwd: project, timeout: 30_000 });

function tool(driver: Driver, name: string, toolInput: Record<string, unknown>): string {
  const payload =
    driver === 'claude-code'
      ? { session_id: 's', transcript_path: '/t', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: name, tool_input: toolInput, tool_use_id: 'u' }
      : { conversation_id: 'c', generation_id: 'g', hook_event_name: 'preToolUse', workspace_roots: [project], tool_name: name, tool_input: toolInput, tool_use_id: 'u', cwd: project };
  return hookDecision(driver, payload, { env: env(), cwd: project, timeout: 30_000 });
}

const SHELL_DENIED = [
  "cat >> ~/.bashrc <<'EOF'\nexport BUCKLER_BYPASS=1\nEOF",
  'cat >> ~/.zshrc <<EOF\nexport RETHUNK_ALLOW_SHELL=1\nEOF',
  "tee -a ~/.profile <<< 'export BUCKLER_BYPASS=1'",
  'cat >> ~/.config/fish/config.fish <<< "set -gx BUCKLER_BYPASS 1"',
  "echo 'export BUCKLER_BYPASS=1' >> ~/.bashrc",
];

describe('a bypass variable made persistent in a start-up file is denied in both tiers', () => {
  it.each(SHELL_DENIED)('%s', (command) => {
    for (const tier of TIERS) {
      setTier(tier);
      for (const d of DRIVERS) expect([tier, d, shell(d, command)]).toEqual([tier, d, 'deny']);
    }
    setTier('baseline');
  });

  it.each<[Driver, string, Record<string, unknown>]>([
    ['claude-code', 'Write', { file_path: '~/.bashrc', content: '# bashrc\nexport BUCKLER_BYPASS=1\n' }],
    ['claude-code', 'Edit', { file_path: '~/.bashrc', old_string: '# bashrc', new_string: '# bashrc\nexport BUCKLER_BYPASS=1' }],
    ['claude-code', 'MultiEdit', { file_path: '~/.zshrc', edits: [{ old_string: 'a', new_string: 'export RETHUNK_ALLOW_SHELL=1' }] }],
    ['cursor', 'Write', { file_path: '~/.profile', content: 'export BUCKLER_BYPASS=1\n' }],
  ])('%s %s %j', (driver, name, input) => {
    const abs = { ...input, file_path: String(input['file_path']).replace('~', home) };
    for (const tier of TIERS) {
      setTier(tier);
      expect([tier, tool(driver, name, abs)]).toEqual([tier, 'deny']);
    }
    setTier('baseline');
  });

  it('look-alikes stay as they were', () => {
    setTier('baseline');
    for (const d of DRIVERS) {
      // Other text in a start-up file: a here-document is content Buckler asks about, literal words are allowed.
      expect(shell(d, "cat >> ~/.bashrc <<'EOF'\nexport EDITOR=vim\nEOF")).toBe('ask');
      expect(shell(d, "echo 'export EDITOR=vim' >> ~/.bashrc")).toBe('allow');
      // The variable's name written elsewhere, or read.
      expect(shell(d, "cat > notes.txt <<'EOF'\nBUCKLER_BYPASS=1 is the person's switch\nEOF")).toBe('allow');
      expect(shell(d, 'grep BUCKLER_BYPASS ~/.bashrc')).toBe('allow');
    }
    const rc = path.join(home, '.bashrc');
    expect(tool('claude-code', 'Write', { file_path: rc, content: 'export EDITOR=vim\n' })).not.toBe('deny');
    expect(tool('cursor', 'Write', { file_path: rc, content: 'export EDITOR=vim\n' })).not.toBe('deny');
    // Removing the variable is not making it persistent.
    expect(tool('claude-code', 'Edit', { file_path: rc, old_string: 'export BUCKLER_BYPASS=1', new_string: '' })).not.toBe('deny');
    expect(tool('claude-code', 'Write', { file_path: path.join(project, 'notes.md'), content: 'export BUCKLER_BYPASS=1' })).toBe('allow');
  });
});
