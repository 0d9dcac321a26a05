import { describe, expect, it } from 'vitest';
import { type InlineCall, type InlineLanguage, scanInlineCode } from './interpreters.ts';

describe('scanInlineCode', () => {
  it.each<[InlineLanguage, string, InlineCall[]]>([
    ['python', 'import os; os.system("git push")', [{ kind: 'shell', text: 'git push' }]],
    ['python', "os.system('a'); os.popen('b')", [{ kind: 'shell', text: 'a' }, { kind: 'shell', text: 'b' }]],
    ['python', 'subprocess.run(["git", "push"], check=True)', [{ kind: 'argv', argv: ['git', 'push'] }]],
    ['python', "subprocess.check_output('git push', shell=True)", [{ kind: 'shell', text: 'git push' }]],
    ['python', 'subprocess.Popen(r"git push")', [{ kind: 'shell', text: 'git push' }]],
    ['python', 'subprocess.run(f"git {x}")', [{ kind: 'unknown', text: 'subprocess.run(f"git {x}")' }]],
    // Call names are looked for inside string literals too (code run by exec() is code):
    // a lookalike in a string is reported as unknown rather than missed.
    ['python', 'print("os.system(1)")', [{ kind: 'unknown', text: 'os.system(1)")' }]],
    ['python', 'myos.system("x")', []],
    ['node', "require('child_process').execSync('git push')", [{ kind: 'shell', text: 'git push' }]],
    ['node', "const cp=require('child_process'); cp.spawnSync('git', ['push'])", [{ kind: 'argv', argv: ['git', 'push'] }]],
    ['node', 'execSync(`git ${x}`)', [{ kind: 'unknown', text: 'execSync(`git ${x}`)' }]],
    ['node', 'db.exec("DROP")', []],
    ['perl', 'system("git", "push")', [{ kind: 'argv', argv: ['git', 'push'] }]],
    ['perl', 'my $x = `git push`; qx{ls}', [{ kind: 'shell', text: 'git push' }, { kind: 'shell', text: 'ls' }]],
    ['perl', 'system("git $x")', [{ kind: 'unknown', text: 'system("git $x")' }]],
    ['ruby', 'system "git push"', [{ kind: 'shell', text: 'git push' }]],
    ['php', 'passthru("git push");', [{ kind: 'shell', text: 'git push' }]],
  ])('%s: %j', (lang, code, calls) => {
    expect(scanInlineCode(code, lang)).toEqual(calls);
  });
});
