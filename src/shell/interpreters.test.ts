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
    // A literal with more after it is not the whole command.
    ['python', 'os.system("git push " + flag)', [{ kind: 'unknown', text: 'os.system("git push " + flag)' }]],
    ['ruby', 'system "git push " + flag', [{ kind: 'unknown', text: 'system "git push " + flag' }]],
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
    // awk: system(), "CMD" | getline, print … | "CMD" (a shell fed by print runs what is printed).
    ['awk', 'BEGIN { system("git push -f") }', [{ kind: 'shell', text: 'git push -f' }]],
    ['awk', 'BEGIN { "git rev-parse HEAD" | getline h; print h }', [{ kind: 'shell', text: 'git rev-parse HEAD' }]],
    ['awk', '{ print $0 | "sort -u" }', [{ kind: 'shell', text: 'sort -u', fed: true }]],
    ['awk', 'BEGIN { print "git push -f" | "sh" }', [{ kind: 'shell', text: 'sh', fed: true }]],
    ['awk', 'BEGIN { print "x" |& "/bin/bash -s" }', [{ kind: 'shell', text: '/bin/bash -s', fed: true }]],
    ['awk', '{ system("echo " $1) }', [{ kind: 'unknown', text: 'system("echo " $1) }' }]],
    ['awk', '{ n++ } END { print n }', []],
    ['awk', '$1 > 2 || $2 == "a|b" { print }', []],
    // Names imported under another name.
    ['python', 'import subprocess as sp; sp.run(["git", "push", "-f"])', [{ kind: 'argv', argv: ['git', 'push', '-f'] }]],
    ['python', 'import os as o, sys\no.system("git push")', [{ kind: 'shell', text: 'git push' }]],
    ['python', 'from os import system; system("git push -f")', [{ kind: 'shell', text: 'git push -f' }]],
    ['python', 'from os import system as s, getcwd\ns("git push")', [{ kind: 'shell', text: 'git push' }]],
    ['python', 'from subprocess import (run, Popen as P); P("git push", shell=True)', [{ kind: 'shell', text: 'git push' }]],
    ['python', 'from os import *; popen("git push")', [{ kind: 'shell', text: 'git push' }]],
    ['python', '__import__("os").system("git push -f")', [{ kind: 'shell', text: 'git push -f' }]],
    ['python', "__import__('subprocess').call(['git', 'push'])", [{ kind: 'argv', argv: ['git', 'push'] }]],
    ['python', 'import importlib; importlib.import_module("os").system("git push")', [{ kind: 'shell', text: 'git push' }]],
    ['python', 'import os; getattr(os, "system")("git push")', [{ kind: 'shell', text: 'git push' }]],
    // Look-alikes: another module's function of the same name, a local function.
    ['python', 'from mylib import system; system("git push")', []],
    ['python', 'import json as sp; sp.dumps("git push")', []],
    ['node', "const { execSync: run } = require('child_process'); run('git push -f')", [{ kind: 'shell', text: 'git push -f' }]],
    ['node', "import { spawnSync as sp } from 'node:child_process'; sp('git', ['push'])", [{ kind: 'argv', argv: ['git', 'push'] }]],
    ['node', "const { readFileSync: run } = require('fs'); run('git push')", []],
  ])('%s: %j', (lang, code, calls) => {
    expect(scanInlineCode(code, lang)).toEqual(calls);
  });
});
