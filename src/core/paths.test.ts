import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import type { ActionContext, PolicyInput } from './contract.ts';
import { evaluate } from './evaluate.ts';
import { globMatches } from './paths.ts';
import { POLICY_FORMAT, type CompiledPolicy, type CompiledRule, type PathMatcher } from './policy.ts';

const CTX: ActionContext = { cwd: '/home/dev/project', home: '/home/dev', project_roots: ['/home/dev/project'], temp_dirs: ['/tmp', '/var/tmp'] };

const policy = (rules: CompiledRule[] = []): CompiledPolicy => ({ policy_format: POLICY_FORMAT, tier: 'baseline', packs: [], rules, grammars: BUILTIN_GRAMMARS, env_keys: [] });

const input = (command: string, context: ActionContext = CTX): PolicyInput => ({ policy_io_version: '1', trigger: 'pre_shell_exec', harness: 't', shell: { command }, context });

/** `access scope path [r]` for every path of every command of the line. */
function paths(command: string, context: ActionContext = CTX): string[] {
  const out = evaluate(input(command, context), policy(), { paths: true });
  return out.commands.flatMap((c) => (c.paths ?? []).map((p) => `${p.access} ${p.scope} ${p.path ?? p.written}${p.recursive === true ? ' r' : ''}`));
}

describe('paths a command touches', () => {
  it.each<[string, string[]]>([
    ['rm -rf ~', ['delete home /home/dev r']],
    ['rm -rf "~"', ['delete project /home/dev/project/~ r']],
    ["rm -r -f '~'/x", ['delete project /home/dev/project/~/x r']],
    ['rm --recursive $HOME/x', ['delete home /home/dev/x r']],
    ['rm -Rf "${HOME}"', ['delete home /home/dev r']],
    ['rm ~/.bashrc', ['delete home /home/dev/.bashrc']],
    ['cd .. && rm -rf project', ['delete home /home/dev/project r']],
    ['cd /etc; rm -rf x', ['delete system /etc/x r']],
    ['cd "$X" && rm -rf y', ['delete runtime y r']],
    ['test -d x && cd x; rm -rf y', ['delete runtime y r']],
    ['(cd /etc); rm -rf x', ['delete project /home/dev/project/x r']],
    ['cd /etc && bash -c "rm -rf x"', ['delete system /etc/x r']],
    ['D=build; rm -rf "$D"', ['delete project /home/dev/project/build r']],
    ['D=~/x; rm -rf $D', ['delete home /home/dev/x r']],
    ['rm -rf ../..', ['delete system /home r']],
    ['rm -rf ./out/*', ['delete project /home/dev/project/out/* r']],
    ['rm -rf /tmp/x', ['delete temp /tmp/x r']],
    ['rm "$F"', ['delete runtime $F']],
    ['find . -name "*.pyc" -delete', ['delete project /home/dev/project/* r']],
    ['find ~ -delete', ['delete home /home/dev/* r']],
    ['find / -name x -exec rm {} \\;', ['delete system /* r', 'read system /']],
    ['find "$D" -exec rm {} +', ['delete runtime {}', 'read runtime $D']],
    ['rsync -a --delete src/ ~/backup/', ['read project /home/dev/project/src/* r', 'delete home /home/dev/backup/* r']],
    ['echo x > /etc/hosts', ['write system /etc/hosts']],
    ['echo x >> ~/.bashrc 2>&1', ['write home /home/dev/.bashrc']],
    ['> /etc/motd', ['write system /etc/motd']],
    ['{ echo; } &> /etc/y', ['write system /etc/y']],
    ['wc < ~/.netrc', ['read home /home/dev/.netrc']],
    ['while read l; do :; done < <(ls)', []],
    ['sudo tee /etc/x', ['write system /etc/x']],
    ['cp x /usr/local/bin/', ['read project /home/dev/project/x', 'write system /usr/local/bin', 'write system /usr/local/bin/x']],
    ['mv ~ /tmp/x', ['delete home /home/dev', 'write temp /tmp/x']],
    // A link's target, written through the link; a link made earlier on the line is followed.
    ['ln -s ~/.config/buckler cfg', ['read home /home/dev/.config/buckler', 'write project /home/dev/project/cfg', 'write home /home/dev/.config/buckler']],
    ['ln -s ../shared lib', ['read home /home/dev/shared', 'write project /home/dev/project/lib', 'write home /home/dev/shared']],
    // A symbolic link's relative target is resolved from the link's folder.
    ['ln -s ../../x .git/hooks/pre-push', ['read system /home/x', 'write project /home/dev/project/.git/hooks/pre-push', 'write project /home/dev/project/x']],
    [
      'ln -s ~ h && rm -rf h/',
      ['read home /home/dev', 'write project /home/dev/project/h', 'write home /home/dev', 'delete project /home/dev/project/h r', 'delete home /home/dev r'],
    ],
    ['chmod -R 755 ~', ['metadata home /home/dev r']],
    ['dd if=/dev/zero of=/dev/sda', ['read system /dev/zero', 'write system /dev/sda']],
    ['fdisk /dev/sda', ['write system /dev/sda']],
    ['fdisk -l /dev/sda', ['read system /dev/sda']],
    ['ls /', []],
  ])('%s', (command, expected) => {
    expect(paths(command)).toEqual(expected);
  });

  it('resolves $TMPDIR only when the driver saw it', () => {
    expect(paths('rm -rf "$TMPDIR/x"')).toEqual(['delete runtime $TMPDIR/x r']);
    expect(paths('rm -rf "$TMPDIR/x"', { ...CTX, tmpdir: '/var/folders/t', temp_dirs: ['/tmp', '/var/folders/t'] })).toEqual(['delete temp /var/folders/t/x r']);
  });

  it('marks what is no file, a project root and what holds one', () => {
    const out = evaluate(input('cat x > /dev/null; rm -rf .'), policy(), { paths: true });
    expect(out.commands[0]?.paths?.find((p) => p.written === '/dev/null')?.pseudo).toBe(true);
    expect(out.commands[1]?.paths?.[0]).toMatchObject({ project_root: true, holds_project: true, scope: 'home' });
  });

  it('without a known directory, relative paths are run-time', () => {
    expect(paths('rm -rf build', { home: '/home/dev' })).toEqual(['delete runtime build r']);
  });

  it('lists paths only when asked', () => {
    expect(evaluate(input('rm -rf x'), policy()).commands[0]?.paths).toBeUndefined();
  });
});

describe('rule globs', () => {
  it.each<[string, string, boolean]>([
    ['~/.ssh/**', '/home/dev/.ssh/id_rsa', true],
    ['~/.ssh/**', '/home/dev/.ssh', false],
    ['~/.ssh/**', '/home/dev/project/.ssh/x', false],
    ['*.pub', '/home/dev/.ssh/id_ed25519.pub', true],
    ['.env', '/home/dev/project/a/.env', true],
    ['.env.*', '/home/dev/project/.env.local', true],
    ['.env.*', '/home/dev/project/.envrc', false],
    ['~', '/home/dev', true],
    ['~', '/home/dev/x', false],
    ['/dev/**', '/dev/sda', true],
    ['/dev/{shm,pts}/**', '/dev/shm/x', true],
    ['.git/**', '/home/dev/project/.git/refs/heads/x', true],
    ['~/.config/gcloud/**', '/home/dev/.config/gcloud/a/b', true],
    ['**/x.json', '/a/x.json', true],
  ])('%s ~ %s: %s', (g, p, want) => {
    expect(globMatches(g, p, '/home/dev')).toBe(want);
  });
});

describe('paths conditions', () => {
  const rule = (paths: PathMatcher, program?: string[]): CompiledRule => ({
    id: 't/r',
    pack: 't',
    triggers: ['pre_shell_exec', 'pre_shell_tool'],
    action: 'deny',
    priority: 50,
    tier: 'baseline',
    shell_segments: [program ? { program, paths } : { paths }],
    tool_name: null,
    env: null,
    user_message: null,
    agent_message: null,
    additional_context: null,
  });
  const decide = (r: CompiledRule, command: string): string => evaluate(input(command), policy([r])).decision;

  it.each<[PathMatcher, string, string]>([
    [{ access: ['delete'], recursive: true, scope: ['home', 'system'] }, 'rm -rf ~/x', 'deny'],
    [{ access: ['delete'], recursive: true, scope: ['home', 'system'] }, 'rm ~/x', 'allow'],
    [{ access: ['delete'], recursive: false, scope: ['home'] }, 'rm ~/x', 'deny'],
    [{ access: ['delete'], recursive: true, scope: ['home', 'system'] }, 'rm -rf build', 'allow'],
    [{ holds_project: true }, 'rm -rf ..', 'deny'],
    [{ project_root: false, scope: ['home'] }, 'chmod -R 700 .', 'allow'],
    [{ project_root: false, scope: ['home'] }, 'chmod -R 700 ..', 'deny'],
    [{ access: ['write'], glob: ['/dev/**'] }, 'echo > /dev/null', 'allow'],
    [{ access: ['write'], glob: ['/dev/**'] }, 'echo > /dev/sdb', 'deny'],
    [{ access: ['read'], glob: ['~/.ssh/**'], not_glob: ['*.pub'] }, 'cat ~/.ssh/id_rsa', 'deny'],
    [{ access: ['read'], glob: ['~/.ssh/**'], not_glob: ['*.pub'] }, 'cat ~/.ssh/id_rsa.pub', 'allow'],
    [{ access: ['read'], glob: ['~/.ssh/**'], not_glob: ['*.pub'] }, 'cat ~/.ssh/id_*', 'deny'],
  ])('%j on %s: %s', (m, command, want) => {
    expect(decide(rule(m), command)).toBe(want);
  });

  it('judges a file-tool call like a command that touches its paths', () => {
    const tool = (paths: { path: string; access: 'read' | 'write' }[]): PolicyInput => ({
      policy_io_version: '1',
      trigger: 'pre_shell_tool',
      harness: 't',
      tool: { name: 'Read', paths },
      context: CTX,
    });
    const r = rule({ access: ['read'], glob: ['~/.ssh/**'] });
    expect(evaluate(tool([{ path: '/home/dev/.ssh/id_rsa', access: 'read' }]), policy([r])).decision).toBe('deny');
    expect(evaluate(tool([{ path: '../.ssh/id_rsa', access: 'read' }]), policy([r])).decision).toBe('deny');
    expect(evaluate(tool([{ path: 'src/a.ts', access: 'read' }]), policy([r])).decision).toBe('allow');
    // An entry that names a program never matches a tool call.
    const p = rule({ access: ['read'], glob: ['~/.ssh/**'] }, ['cat']);
    expect(evaluate(tool([{ path: '/home/dev/.ssh/id_rsa', access: 'read' }]), policy([p])).decision).toBe('allow');
  });
});
