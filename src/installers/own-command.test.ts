import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { hookCommand, launchPrefix, quoteWord, readOwnCommand, readOwnWords, shellWords, withoutEvent } from './own-command.ts';

describe('readOwnCommand', () => {
  const ours: [string, string | null][] = [
    ["'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver cursor", 'cursor'],
    ["'/usr/bin/node' '/home/me/.local/share/buckler/current/dist/buckler.cjs' --driver claude-code", 'claude-code'],
    ["'/home/me/.local/bin/buckler' --driver cursor", 'cursor'],
    ['/home/me/.local/bin/buckler --driver=cursor', 'cursor'],
    ['buckler --driver cursor', 'cursor'],
    ['buckler', null],
    ['npx buckler --driver cursor', 'cursor'],
    ['npx -y buckler@0.1.0 --driver cursor', 'cursor'],
    ['node --max-old-space-size=64 /x/buckler.cjs --driver cursor', 'cursor'],
    ['"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\me\\buckler\\dist\\buckler.cjs" --driver cursor', 'cursor'],
    ['C:\\Users\\me\\AppData\\Local\\Buckler\\bin\\buckler.cmd --driver cursor', 'cursor'],
    ['BUCKLER_DRIVER=cursor buckler', null],
    ['env BUCKLER_BYPASS=0 /x/buckler --driver cursor', 'cursor'],
    ['python3 -m buckler --driver cursor', 'cursor'],
    ['python -m buckler.adapters.cursor', null],
    ["'/opt/my dir/node' '/opt/my dir/buckler.cjs' --driver cursor", 'cursor'],
    ["'/it'\\''s/node' '/it'\\''s/buckler.cjs' --driver cursor", 'cursor'],
  ];
  it.each(ours)('recognises %s', (line, driver) => {
    expect(readOwnCommand(line)?.driver).toBe(driver);
  });

  const theirs = [
    './hooks/gate.sh',
    'node /x/other.cjs --driver cursor',
    '/x/buckler-wrapper.sh --driver cursor',
    '/x/buckler.backup.sh',
    'buckler evaluate',
    'buckler --driver cursor --audit',
    'buckler --driver Cursor',
    'buckler --driver cursor; rm -rf /',
    'buckler --driver cursor | tee log',
    'buckler --driver cursor > /dev/null',
    '$(buckler) --driver cursor',
    'echo `buckler`',
    "'/x/buckler.cjs --driver cursor",
    'python3 /x/buckler.py --driver cursor',
    'node',
    '',
  ];
  it.each(theirs)('leaves %j to its owner', (line) => {
    expect(readOwnCommand(line)).toBeNull();
  });

  it('names the files a command needs', () => {
    expect(readOwnCommand("'/usr/bin/node' '/b/dist/buckler.cjs' --driver cursor")?.files).toEqual(['/usr/bin/node', '/b/dist/buckler.cjs']);
    expect(readOwnCommand("'/home/me/.local/bin/buckler' --driver cursor")?.files).toEqual(['/home/me/.local/bin/buckler']);
    expect(readOwnCommand('npx buckler --driver cursor')?.files).toEqual(['npx']);
  });

  it('reads the --event a command passes (Copilot CLI native hooks)', () => {
    const base = "'/usr/bin/node' '/b/dist/buckler.cjs' --driver copilot-cli";
    expect(readOwnCommand(`${base} --event preToolUse`)).toEqual({ driver: 'copilot-cli', event: 'preToolUse', files: ['/usr/bin/node', '/b/dist/buckler.cjs'] });
    expect(readOwnCommand(`${base} --event=postToolUse`)?.event).toBe('postToolUse');
    expect(readOwnCommand(`${base}`)?.event).toBeUndefined();
    for (const bad of [`${base} --event`, `${base} --event pre-tool`, `${base} --event a b`, 'buckler --event preToolUse', `${base} --events x`]) {
      expect(readOwnCommand(bad), bad).toBeNull();
    }
    expect(withoutEvent(`${base} --event preToolUse`)).toBe(base);
    expect(withoutEvent(base)).toBe(base);
  });

  it('reads exec-form words (Claude Code `args`)', () => {
    expect(readOwnWords(['/usr/bin/node', '/b/buckler.cjs', '--driver', 'claude-code'])?.driver).toBe('claude-code');
    expect(readOwnWords(['/usr/bin/node', '/b/other.cjs', '--driver', 'claude-code'])).toBeNull();
  });
});

describe('quoting', () => {
  it('quotes every word for a POSIX shell so that it reads back the same', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (word) => {
        fc.pre(!/[\n\r]/.test(word));
        expect(shellWords(quoteWord(word, 'linux'))).toEqual([word]);
      }),
    );
  });

  it('builds a command that is recognised as Buckler with its driver', () => {
    const prefix = launchPrefix(["/opt/no'de/bin/node", '/opt/a b/dist/buckler.cjs'], 'linux');
    expect(prefix).toBe(`'/opt/no'\\''de/bin/node' '/opt/a b/dist/buckler.cjs'`);
    const own = readOwnCommand(hookCommand(prefix, 'claude-code'));
    expect(own).toEqual({ driver: 'claude-code', files: ["/opt/no'de/bin/node", '/opt/a b/dist/buckler.cjs'] });
  });

  it('double-quotes on Windows', () => {
    const prefix = launchPrefix(['C:\\Program Files\\nodejs\\node.exe', 'C:\\b\\buckler.cjs'], 'win32');
    expect(prefix).toBe('"C:\\Program Files\\nodejs\\node.exe" "C:\\b\\buckler.cjs"');
    expect(readOwnCommand(hookCommand(prefix, 'cursor'))?.files).toEqual(['C:\\Program Files\\nodejs\\node.exe', 'C:\\b\\buckler.cjs']);
  });
});
