/**
 * agent-fs end to end (protection-packs.md §2): every row of the table in both tiers and every
 * "must stay allowed" example, in several spellings, through the built CLI (`buckler check`
 * with --home/--project/--cwd) and through both drivers (`--driver claude-code` / `--driver
 * cursor` with native shell events), and file-tool calls through `buckler evaluate`.
 *
 * The fake home and project are directories that exist only as names (paths are resolved
 * lexically): nothing is created or deleted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buckler, decisionOf, e2eDir, hookDecision, shellEvent } from './e2e.testing.ts';

const HOME = '/home/dev';
const PROJECT = '/home/dev/project';

type D = 'allow' | 'ask' | 'deny';
/** [row, baseline, strict, spellings…] */
type Row = [string, D, D, string[]];

const ROWS: Row[] = [
  [
    'recursive delete of /, a system path, home, ~/*, a project root or its parent, outside project and temp',
    'deny',
    'deny',
    [
      'rm -rf /',
      'rm -rf /*',
      'rm -rf ~',
      'rm -rf ~/',
      'rm -rf "$HOME"',
      'rm -rf ${HOME}',
      'rm -Rf ~/*',
      'rm -r -f ~/.config',
      'rm --recursive --force /usr/local',
      'rm -fr /etc',
      'sudo rm -rf /var/lib/x',
      'env -i rm -rf ~',
      'bash -c "rm -rf ~/Documents"',
      "sh -c 'rm -rf $HOME/x'",
      'rm -rf .',
      'rm -rf ..',
      'rm -rf ../..',
      'rm -rf ../other-project',
      'cd .. && rm -rf project',
      'cd / && rm -rf home',
      'cd ~ && rm -rf .config',
      'pushd /etc && rm -rf ssl',
      'D=~/x; rm -rf "$D"',
      'T=/usr; rm -rf $T/lib',
      'find ~ -name "*.log" -delete',
      'find / -delete',
      'find /etc -exec rm {} \\;',
      'find ~ -type f -exec rm -f {} +',
      'rsync -a --delete src/ ~/backup/',
      'rsync -a --delete-after src/ /srv/www/',
      'timeout 5 nice rm -rf /opt',
      'echo ok; rm -rf ~/.ssh',
    ],
  ],
  [
    'recursive delete inside the project or temp',
    'allow',
    'allow',
    ['rm -rf build', 'rm -rf ./out/*', 'rm -rf /tmp/x', 'rm -rf /var/tmp/y', 'cd build && rm -rf out', 'find . -name x -delete', 'find . -exec rm {} \\;', 'rsync -a --delete src/ dist/'],
  ],
  ['recursive delete of a run-time path', 'ask', 'deny', ['rm -rf "$DIR"', 'rm -rf "$(pwd)/x"', 'cd "$X" && rm -rf build', 'rm -r -f $1', 'find "$D" -delete', 'rm -rf "$TMPDIR/x"']],
  ['non-recursive delete of a home or system file', 'ask', 'deny', ['rm ~/.bashrc', 'rm -f /etc/hosts', 'unlink ~/x', 'rm "$HOME/.profile"', 'rmdir ~/empty', 'cd ~ && rm .zshrc', 'rm ../notes.txt']],
  ['non-recursive delete of a run-time path', 'allow', 'ask', ['rm "$F"', 'rm -f $1', 'find "$D" -exec rm {} \\;', 'xargs rm < list.txt']],
  [
    'devices and file systems',
    'deny',
    'deny',
    [
      'dd if=/dev/zero of=/dev/sda bs=1M',
      'sudo dd if=x.iso of=/dev/disk2',
      'mkfs.ext4 /dev/sdb1',
      'sudo mkfs -t xfs /dev/sdb',
      'wipefs -a /dev/sdb',
      'fdisk /dev/sda',
      'sfdisk /dev/sda < layout',
      'parted /dev/sda mklabel gpt',
      'shred -u ~/.bash_history',
      'shred /tmp/x',
      'echo x > /dev/sda',
      'cat img > /dev/nvme0n1',
    ],
  ],
  ['chmod/chown/chgrp -R of a system or home path, or a project root\'s parent', 'deny', 'deny', ['chmod -R 777 ~', 'sudo chown -R me /usr', 'chmod -R u+w ..', 'chgrp --recursive staff /etc', 'chmod -R 700 "$HOME/.ssh"']],
  ['mv of a system path, the home directory or a project root', 'deny', 'deny', ['mv /etc/hosts /tmp/h', 'sudo mv /usr/bin/x /tmp/', 'mv ~ /tmp/h', 'mv "${HOME}" /tmp/h', 'mv . ../moved', 'cd .. && mv project old']],
  ['write into a system path', 'ask', 'deny', ['echo x > /etc/hosts', 'echo x >> /etc/profile', 'echo x | sudo tee /etc/x', 'cp tool /usr/local/bin/', 'sudo sed -i s/a/b/ /etc/ssh/sshd_config', '> /etc/motd', 'echo x &> /opt/log']],
  ['write into home outside project and temp', 'allow', 'ask', ['echo x >> ~/.bashrc', 'cp a ~/bin/', 'echo x > "$HOME/notes"', 'cd ~ && touch x && echo y > z', 'tee ~/.config/x < a']],
];

const ALLOWED: string[] = [
  'rm -rf node_modules dist build/',
  'rm -rf ./out/*',
  'rm -rf /tmp/x',
  'D=build; rm -rf "$D"',
  "find . -name '*.pyc' -delete",
  'ls /',
  'cat /etc/hosts',
  "echo 'rm -rf /'",
  "grep -rn 'rm -rf' .",
  'ls > /dev/null',
  'ls 2>/dev/stderr',
  '> /dev/null',
  'echo x 2>&1 >/dev/null',
  'rm "~"',
];

const tmp = e2eDir('buckler-agent-fs-');
let env: NodeJS.ProcessEnv = {};

beforeAll(() => {
  const config = path.join(tmp, 'config');
  mkdirSync(path.join(config, 'rules.d'), { recursive: true });
  writeFileSync(path.join(config, 'config.toml'), '[core]\ntier = "baseline"\n');
  const strict = path.join(tmp, 'strict');
  mkdirSync(path.join(strict, 'rules.d'), { recursive: true });
  writeFileSync(path.join(strict, 'config.toml'), '[core]\ntier = "strict"\n');
  env = { ...process.env, HOME, BUCKLER_CONFIG_HOME: config };
  delete env['TMPDIR'];
  delete env['BUCKLER_BYPASS'];
  delete env['RETHUNK_ALLOW_SHELL'];
});

function check(command: string, tier: 'baseline' | 'strict', extra: string[] = []): D {
  return decisionOf(['check', '--json', '--tier', tier, '--home', HOME, '--project', PROJECT, '--cwd', PROJECT, ...extra, '--', command], { env }) as D;
}

/** The tier is read from config.toml: each tier has its config directory. */
const tierEnv = (tier: 'baseline' | 'strict'): NodeJS.ProcessEnv => ({ ...env, BUCKLER_CONFIG_HOME: path.join(tmp, tier === 'strict' ? 'strict' : 'config') });

const hook = (driver: 'claude-code' | 'cursor', command: string, tier: 'baseline' | 'strict'): D =>
  hookDecision(driver, shellEvent(driver, command, PROJECT), { env: tierEnv(tier) }) as D;

const cases = ROWS.flatMap(([row, base, strict, spellings]) => spellings.map((s) => [row, s, base, strict] as const));

describe('agent-fs through buckler check', () => {
  it.each(cases)('%s: %s → %s / %s', (_row, command, base, strict) => {
    expect(check(command, 'baseline')).toBe(base);
    expect(check(command, 'strict')).toBe(strict);
  });

  it.each(ALLOWED)('must stay allowed: %s', (command) => {
    expect(check(command, 'baseline')).toBe('allow');
    expect(check(command, 'strict')).toBe('allow');
  });

  it('knows where it stands: the project root can be deep in home, $TMPDIR only when set', () => {
    expect(check('rm -rf ~/proj/build', 'strict', ['--project', '/home/dev/proj'])).toBe('allow');
    expect(check('rm -rf ~/proj/build', 'baseline')).toBe('deny');
    const withTmp = decisionOf(['check', '--json', '--home', HOME, '--project', PROJECT, '--cwd', PROJECT, '--', 'rm -rf "$TMPDIR/x"'], {
      env: { ...env, TMPDIR: '/var/folders/xy/T' },
    });
    expect(withTmp).toBe('allow');
  });

  it('shows each command\'s paths, access and scope', () => {
    const r = buckler(['check', '--json', '--home', HOME, '--project', PROJECT, '--cwd', PROJECT, '--', 'cd .. && rm -rf project > /tmp/log'], { env });
    const out = JSON.parse(r.stdout) as { commands: Array<{ argv: string[]; paths?: unknown[] }> };
    expect(out.commands.find((c) => c.argv[0] === 'rm')?.paths).toEqual([
      { written: 'project', path: PROJECT, access: 'delete', scope: 'home', recursive: true, holds_project: true, project_root: true },
      { written: '/tmp/log', path: '/tmp/log', access: 'write', scope: 'temp' },
    ]);
  });
});

describe('agent-fs through the hook drivers', () => {
  // One or two spellings per row and tier keep the spawn count reasonable.
  const sample = ROWS.flatMap(([row, base, strict, spellings]) => spellings.slice(0, 2).map((s) => [row, s, base, strict] as const));
  it.each(sample)('%s: %s → %s / %s', (_row, command, base, strict) => {
    for (const driver of ['claude-code', 'cursor'] as const) {
      expect([driver, hook(driver, command, 'baseline')]).toEqual([driver, base]);
      expect([driver, hook(driver, command, 'strict')]).toEqual([driver, strict]);
    }
  });

  // Allowed in strict means no rule of either tier matched: allowed in baseline too.
  it.each(ALLOWED)('must stay allowed: %s', (command) => {
    for (const driver of ['claude-code', 'cursor'] as const) expect([driver, hook(driver, command, 'strict')]).toEqual([driver, 'allow']);
  });

  it('knows where it stands: the workspace root deep in home is the project; $TMPDIR from the hook\'s environment', () => {
    const strict = { ...env, BUCKLER_CONFIG_HOME: path.join(tmp, 'strict') };
    const decide = (driver: 'claude-code' | 'cursor', command: string, cwd: string, e: NodeJS.ProcessEnv): D => {
      return hookDecision(driver, shellEvent(driver, command, cwd), { env: e }) as D;
    };
    // Cursor names its workspace root; for Claude Code the project is the git top-level above
    // cwd, else cwd (none exists here: cwd).
    for (const driver of ['claude-code', 'cursor'] as const) {
      expect([driver, decide(driver, 'rm -rf ~/proj/build', '/home/dev/proj', strict)]).toEqual([driver, 'allow']);
      expect([driver, decide(driver, 'rm -rf ~/proj/build', PROJECT, strict)]).toEqual([driver, 'deny']);
      expect([driver, decide(driver, 'rm -rf "$TMPDIR/x"', PROJECT, { ...strict, TMPDIR: '/var/folders/xy/T' })]).toEqual([driver, 'allow']);
      expect([driver, decide(driver, 'rm -rf "$TMPDIR/x"', PROJECT, strict)]).toEqual([driver, 'deny']);
    }
  });
});

describe('file-tool events through the hook drivers', () => {
  function toolHook(driver: 'claude-code' | 'cursor', tool: string, file: string, tier: 'baseline' | 'strict'): D {
    const payload =
      driver === 'claude-code'
        ? {
            session_id: 's',
            transcript_path: '/t',
            cwd: PROJECT,
            permission_mode: 'default',
            hook_event_name: 'PreToolUse',
            tool_name: tool,
            tool_input: tool === 'MultiEdit' ? { file_path: file, edits: [{ old_string: 'a', new_string: 'b' }] } : { file_path: file, content: 'x', old_string: 'a', new_string: 'b' },
            tool_use_id: 'u',
          }
        : { conversation_id: 'c', generation_id: 'g', hook_event_name: 'preToolUse', workspace_roots: [PROJECT], tool_name: tool, tool_input: { file_path: file, content: 'x' }, tool_use_id: 'u', cwd: PROJECT };
    return hookDecision(driver, payload, { env: tierEnv(tier) }) as D;
  }
  it.each<['claude-code' | 'cursor', string, string, D, D]>([
    ['claude-code', 'Write', '/etc/hosts', 'ask', 'deny'],
    ['claude-code', 'Edit', '/etc/ssh/sshd_config', 'ask', 'deny'],
    ['claude-code', 'Write', '../../../etc/hosts', 'ask', 'deny'],
    ['claude-code', 'Write', '/home/dev/notes.txt', 'allow', 'ask'],
    ['claude-code', 'Write', 'src/a.ts', 'allow', 'allow'],
    ['claude-code', 'Write', '/tmp/x', 'allow', 'allow'],
    ['claude-code', 'Read', '/etc/hosts', 'allow', 'allow'],
    ['cursor', 'Write', '/etc/hosts', 'ask', 'deny'],
    ['cursor', 'Write', '/home/dev/notes.txt', 'allow', 'ask'],
    ['cursor', 'Write', '/home/dev/project/src/a.ts', 'allow', 'allow'],
    // A file tool that deletes (Cursor's Delete): a single home or system file asks (strict: denies).
    ['cursor', 'Delete', '/home/dev/.bashrc', 'ask', 'deny'],
    ['cursor', 'Delete', '../notes.txt', 'ask', 'deny'],
    ['cursor', 'Delete', '/etc/hosts', 'ask', 'deny'],
    ['cursor', 'Delete', '../../../usr/local/bin/tool', 'ask', 'deny'],
    ['cursor', 'Delete', 'build/out.js', 'allow', 'allow'],
    ['cursor', 'Delete', '/tmp/x', 'allow', 'allow'],
    // Devices: a Write tool call into a disk.
    ['claude-code', 'Write', '/dev/sda', 'deny', 'deny'],
    ['cursor', 'Write', '/dev/nvme0n1', 'deny', 'deny'],
    ['claude-code', 'Write', '/dev/null', 'allow', 'allow'],
    // Write into a system path, several spellings; into home outside the project.
    ['claude-code', 'Edit', '/usr/local/bin/tool', 'ask', 'deny'],
    ['claude-code', 'MultiEdit', '/etc/hosts', 'ask', 'deny'],
    ['cursor', 'Write', '../../../etc/motd', 'ask', 'deny'],
    ['claude-code', 'Write', '../other/notes.md', 'allow', 'ask'],
    ['cursor', 'Write', '/home/dev/.config/app/x.json', 'allow', 'ask'],
  ])('%s %s %s → %s / %s', (driver, tool, file, base, strict) => {
    expect(toolHook(driver, tool, file, 'baseline')).toBe(base);
    expect(toolHook(driver, tool, file, 'strict')).toBe(strict);
  });
});

describe('file-tool calls judged like commands that touch the same paths (buckler evaluate)', () => {
  const evaluate = (paths: Array<{ path: string; access: string }>, tier: 'baseline' | 'strict'): D => {
    const input = {
      policy_io_version: '1',
      trigger: 'pre_shell_tool',
      harness: 'claude-code',
      tool: { name: 'Write', paths },
      context: { cwd: PROJECT, home: HOME, project_roots: [PROJECT], temp_dirs: ['/tmp', '/var/tmp'] },
    };
    return decisionOf(['evaluate', '--tier', tier], { env, stdin: JSON.stringify(input) }) as D;
  };
  it.each<[string, string, D, D]>([
    ['/etc/hosts', 'write', 'ask', 'deny'],
    ['../../../etc/hosts', 'write', 'ask', 'deny'],
    ['/home/dev/notes.txt', 'write', 'allow', 'ask'],
    ['src/a.ts', 'write', 'allow', 'allow'],
    ['/tmp/x', 'write', 'allow', 'allow'],
    ['/dev/sda', 'write', 'deny', 'deny'],
    ['/etc/hosts', 'read', 'allow', 'allow'],
  ])('%s (%s) → %s / %s', (p, access, base, strict) => {
    expect(evaluate([{ path: p, access }], 'baseline')).toBe(base);
    expect(evaluate([{ path: p, access }], 'strict')).toBe(strict);
  });
});
