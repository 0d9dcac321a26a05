/**
 * Named locations (`context.locations`, `paths.location`) and the segment conditions
 * `words_contain`, `dynamic_words` and `not`, in the pure core: PolicyInput in, decision out.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS } from '../grammars/index.ts';
import type { ActionContext, PolicyInput } from './contract.ts';
import { evaluate } from './evaluate.ts';
import { POLICY_FORMAT, type CompiledPolicy, type CompiledRule, type SegmentMatcher } from './policy.ts';

const LOCATIONS = { settings: ['/home/dev/.h/settings.json', '.h/settings.json'], conf: ['/home/dev/.config/b', '/home/dev/.config/b/**'] };
const CTX: ActionContext = { cwd: '/home/dev/project', home: '/home/dev', project_roots: ['/home/dev/project'], temp_dirs: ['/tmp'], locations: LOCATIONS };

const rule = (segments: SegmentMatcher[]): CompiledRule => ({
  id: 't/r',
  pack: 't',
  triggers: ['pre_shell_exec', 'pre_shell_tool'],
  action: 'deny',
  priority: 50,
  tier: 'baseline',
  shell_segments: segments,
  tool_name: null,
  env: null,
  user_message: null,
  agent_message: null,
  additional_context: null,
});
const policy = (segments: SegmentMatcher[]): CompiledPolicy => ({ policy_format: POLICY_FORMAT, tier: 'baseline', packs: [], rules: [rule(segments)], grammars: BUILTIN_GRAMMARS, env_keys: [] });

function decide(segments: SegmentMatcher[], command: string, context: ActionContext = CTX): string {
  const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command }, context };
  return evaluate(input, policy(segments)).decision;
}

function decideTool(segments: SegmentMatcher[], path: string, access: 'read' | 'write'): string {
  const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_tool', tool: { name: 'Write', paths: [{ path, access }] }, context: CTX };
  return evaluate(input, policy(segments)).decision;
}

describe('paths.location', () => {
  const loc: SegmentMatcher[] = [{ paths: { access: ['write', 'delete'], location: ['settings', 'conf'] } }];
  it.each<[string, string]>([
    ['echo x > ~/.h/settings.json', 'deny'],
    ['echo x > .h/settings.json', 'deny'],
    ['echo x > /srv/other/.h/settings.json', 'deny'],
    ['rm -rf .h', 'deny'],
    ['rm -rf ~/.config', 'deny'],
    ['rm -rf ~/.config/b/..', 'deny'],
    ['rm ~/.config/b/x/y.toml', 'deny'],
    ['rm -rf ~/.config/b', 'deny'],
    ['rm ~/.h/*.json', 'deny'],
    ['cd ~/.config/b && echo > x', 'deny'],
    ['cat ~/.h/settings.json', 'allow'],
    ['echo x > ~/.h/other.json', 'allow'],
    ['rm -rf build', 'allow'],
    ['rm ~/.config', 'allow'],
    ['echo x > "$F"', 'allow'],
  ])('%s → %s', (command, expected) => {
    expect(decide(loc, command)).toBe(expected);
  });

  it('matches no path when the context names no locations', () => {
    const { locations: _none, ...bare } = CTX;
    expect(decide(loc, 'echo x > ~/.h/settings.json', bare)).toBe('allow');
  });

  it('applies to file-tool calls', () => {
    expect(decideTool(loc, '/home/dev/.config/b/config.toml', 'write')).toBe('deny');
    expect(decideTool(loc, '.h/settings.json', 'write')).toBe('deny');
    expect(decideTool(loc, '/home/dev/.config/b/config.toml', 'read')).toBe('allow');
  });
});

describe('a glob the command writes meets a selecting glob it overlaps, never an exclusion', () => {
  const ssh: SegmentMatcher[] = [{ paths: { access: ['read'], glob: ['~/.ssh/**', '.env'], not_glob: ['*.pub'] } }];
  it.each<[string, string]>([
    ['cat ~/.ssh/id_*', 'deny'],
    ['cat ~/.ssh/*', 'deny'],
    ['cat ~/.s*/id_rsa', 'deny'],
    ['cat .env*', 'deny'],
    ['cat ~/.ssh/*.pub', 'allow'],
    ['cat *.md', 'allow'],
    ['cat config/*', 'allow'],
    ['rsync -a --delete src/ dist/', 'allow'],
  ])('%s → %s', (command, expected) => {
    expect(decide(ssh, command)).toBe(expected);
  });
});

describe('words_contain, dynamic_words and not', () => {
  it.each<[SegmentMatcher[], string, string]>([
    [[{ words_contain: ['buckler_bypass'] }], "echo 'export BUCKLER_BYPASS=1'", 'deny'],
    [[{ words_contain: ['core.hookspath'] }], 'git config CORE.HooksPath x', 'deny'],
    [[{ words_contain: ['buckler_bypass'] }], 'echo "$BUCKLER_BYPASS"', 'allow'],
    [[{ program: ['echo'], dynamic_words: true }], 'echo "$X"', 'deny'],
    [[{ program: ['echo'], dynamic_words: true }], "echo 'x'", 'allow'],
    [[{ program: ['tool'], not: [{ subcommand: ['status'] }, { flags_any: ['--help'] }] }], 'tool strip', 'deny'],
    [[{ program: ['tool'], not: [{ subcommand: ['status'] }, { flags_any: ['--help'] }] }], 'tool status', 'allow'],
    [[{ program: ['tool'], not: [{ subcommand: ['status'] }, { flags_any: ['--help'] }] }], 'tool strip --help', 'allow'],
  ])('%j: %s → %s', (segments, command, expected) => {
    expect(decide(segments, command)).toBe(expected);
  });

  it('a file-tool call meets paths with a not naming a program (which never matches a tool)', () => {
    const seg: SegmentMatcher[] = [{ paths: { access: ['write'], glob: ['~/.bashrc'] }, not: [{ program: ['echo'] }] }];
    expect(decideTool(seg, '/home/dev/.bashrc', 'write')).toBe('deny');
    expect(decide(seg, "echo 'x' >> ~/.bashrc")).toBe('allow');
    expect(decide(seg, 'cat x >> ~/.bashrc')).toBe('deny');
  });
});

describe('text_contains: words, a here-document or here-string, a file tool\'s written text', () => {
  const seg: SegmentMatcher[] = [{ text_contains: ['buckler_bypass'], paths: { access: ['write'], glob: ['~/.bashrc'] } }];
  it.each<[string, string]>([
    ["echo 'export BUCKLER_BYPASS=1' >> ~/.bashrc", 'deny'],
    ["cat >> ~/.bashrc <<'EOF'\nexport BUCKLER_BYPASS=1\nEOF", 'deny'],
    ["cat >> ~/.bashrc <<< 'export Buckler_Bypass=1'", 'deny'],
    ["tee -a ~/.bashrc <<EOF\nexport X=1\nexport BUCKLER_BYPASS=$V\nEOF", 'deny'],
    ["cat >> ~/.bashrc <<'EOF'\nexport EDITOR=vim\nEOF", 'allow'],
    ["cat > notes.txt <<'EOF'\nBUCKLER_BYPASS=1\nEOF", 'allow'],
    ['cat ~/.bashrc <<< BUCKLER_BYPASS', 'allow'],
    ['echo "$BUCKLER_BYPASS" >> ~/.bashrc', 'allow'],
  ])('%s → %s', (command, expected) => {
    expect(decide(seg, command)).toBe(expected);
  });

  it.each<[unknown, string]>([
    [{ file_path: '/home/dev/.bashrc', content: 'export BUCKLER_BYPASS=1\n' }, 'deny'],
    [{ file_path: '/home/dev/.bashrc', old_string: 'x', new_string: 'export BUCKLER_BYPASS=1' }, 'deny'],
    [{ filePath: '/home/dev/.bashrc', edits: [{ oldString: 'x', newString: 'export BUCKLER_BYPASS=1' }] }, 'deny'],
    [{ path: '/home/dev/.bashrc', file_text: 'BUCKLER_BYPASS=1' }, 'deny'],
    [{ file_path: '/home/dev/.bashrc', content: 'export EDITOR=vim\n' }, 'allow'],
    [{ file_path: '/home/dev/.bashrc', old_string: 'export BUCKLER_BYPASS=1', new_string: '' }, 'allow'],
    [undefined, 'allow'],
  ])('a Write/Edit of ~/.bashrc with %j → %s', (toolInput, expected) => {
    const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_tool', tool: { name: 'Edit', input: toolInput, paths: [{ path: '/home/dev/.bashrc', access: 'write' }] }, context: CTX };
    expect(evaluate(input, policy(seg)).decision).toBe(expected);
  });
});

describe('{path} in messages of a rule that matched by location', () => {
  it.each<[string, string]>([
    ['echo x > ~/.h/settings.json', '/home/dev/.h/settings.json'],
    ['rm -rf ~/.config/b', '/home/dev/.config/b'],
  ])('%s names %s', (command, path) => {
    const p = policy([{ paths: { access: ['write', 'delete'], location: ['settings', 'conf'] } }]);
    p.rules[0] = { ...p.rules[0]!, user_message: 'changes {path} ({rule})' };
    const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command }, context: CTX };
    expect(evaluate(input, p).user_message).toBe(`changes ${path} (t/r)`);
  });
});
