/**
 * The one reader on the builtin program data, table-driven: option spellings, what runs
 * (another command, shell text, code, a script) and file operands with how each is touched.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS, mergeGrammar, programData, readWords, dashedCommand } from './index.ts';
import { grammarProblems } from './validate.ts';
import type { ProgramGrammar, Reading, Run, Word } from './types.ts';

/** Words split on blanks; `⟨a b⟩` is one word with a blank; `$x` is a run-time word. */
function words(line: string): Word[] {
  return (line.match(/(?:[^\s⟨]|⟨[^⟩]*⟩)+/g) ?? []).map((w) => ({ value: w.replace(/[⟨⟩]/g, ''), dynamic: w.includes('$') }));
}

function read(line: string, grammars = BUILTIN_GRAMMARS): Reading<Word> {
  const ws = words(line);
  const name = ws[0]!.value;
  return readWords(ws, programData(name, grammars)?.grammar, name);
}

/** `[label] kind: words` for each run. */
function runs(line: string): string[] {
  const r = read(line);
  if (r.unknown !== null) return [`unknown: ${r.unknown}`];
  const show = (run: Run<Word>): string => {
    switch (run.kind) {
      case 'command':
        return `[${run.label}] command: ${run.argv.map((w) => (w.dynamic ? `?${w.value}` : w.value)).join(' ')}`;
      case 'shell':
        return `[${run.label}] shell: ${run.text.dynamic ? '?' : ''}${run.text.value}${(run.args ?? []).length > 0 ? ` | ${(run.args ?? []).map((a) => a.value).join(' ')}` : ''}`;
      case 'code':
        return `[${run.label}] ${run.language}: ${run.code.value}`;
      case 'script':
        return `[${run.label}] script: ${run.path.value}`;
      case 'stdin_code':
        return `stdin ${run.language}`;
      case 'stdin_script':
        return 'stdin script';
    }
  };
  return [...r.runs.map(show), ...(r.self ? ['self'] : [])];
}

function files(line: string): string[] {
  return read(line).files.map((f) => `${f.access} ${f.word.value}${f.whole === true ? ' whole' : ''}${f.link !== undefined ? ` link:${f.link.kind}@${f.link.at?.value ?? '-'}` : ''}`);
}

describe('options, in every spelling', () => {
  it.each<[string, string, string | null]>([
    // attached, `=`, separate
    ['sudo -uroot git', '-u', 'root'],
    ['sudo --user=root git', '--user', 'root'],
    ['sudo --user root git', '--user', 'root'],
    ['sudo -Hu root git', '-u', 'root'],
    // abbreviations of GNU long options
    ['env --uns=HOME git', '--unset', 'HOME'],
    // optional values: only attached
    ['sudo -h git', '-h', null],
    ['xargs -i echo', '-i', null],
    ['xargs -i% echo', '-i', '%'],
    // numeric options
    ['nice -5 git', '-#', '5'],
    ['nice --10 git', '-#', '-10'],
    ['head -20 f', '-#', '20'],
    // single-dash long options
    ['find . -name x -delete', '-name', 'x'],
    ['openssl enc -in a -out b', '-in', 'a'],
    // a lone `-`
    ['env - git', '-i', null],
    ['su - root', '-l', null],
  ])('%s: %s', (line, option, value) => {
    const r = read(line);
    expect(r.unknown).toBeNull();
    expect(r.flags.has(option)).toBe(true);
    expect(r.values.get(option)?.[0] ?? null).toBe(value);
  });

  it('stops at `--` and, for POSIX programs, at the first operand', () => {
    expect(read('sudo -- -x').operands.map((k) => read('sudo -- -x').words[k]!.value)).toEqual(['-x']);
    const r = read('nice git push -f');
    expect(r.flags.has('-f')).toBe(false);
    expect(r.operands).toEqual([1, 2, 3]);
  });

  it('a strict program does not guess at what it does not know', () => {
    expect(read('sudo -Z git').unknown).toBe('unknown option -Z');
    expect(read('env --bogus git').unknown).toBe('unknown option --bogus');
    expect(read('sudo $OPT git').unknown).toBeNull();
    expect(read('sudo -$X git').unknown).toBe('run-time option -$X');
    expect(read('timeout -s').unknown).toBe('option -s needs a value');
    expect(read('env --null=x git').unknown).toBe('option --null takes no value');
  });
});

describe('what runs', () => {
  it.each<[string, string[]]>([
    // another command
    ['sudo -u root git push', ['[sudo] command: git push']],
    // a script that is a program of its own (script_commands): Buckler's bundle run by node
    ['node /opt/b/dist/buckler.cjs trust --project test', ['[node] command: /opt/b/dist/buckler.cjs trust --project test', 'self']],
    ['node --no-warnings dist/buckler.cjs hooks strip', ['[node] command: dist/buckler.cjs hooks strip', 'self']],
    ['node scripts/trust.js allow', ['self']],
    ['bunx buckler allow x', ['[bunx] command: buckler allow x', 'self']],
    ['sudo -l git push', ['self']],
    ['env -i A=1 B=2 git push', ['[env] command: git push']],
    ['env -S ⟨-i git push⟩ -f', ['[env] command: git push -f']],
    ['timeout -s KILL 5 git push', ['[timeout] command: git push']],
    ['chrt -p 5 123', ['self']],
    ['flock /tmp/l git push', ['[flock] command: git push']],
    ['flock /tmp/l -c ⟨git push⟩', ['[flock -c] shell: git push']],
    ['xargs -I {} git push {}', ['[xargs] command: git push ?{}']],
    ['xargs git push', ['[xargs] command: git push ?$XARGS_ARGS']],
    ['xargs', ['[xargs] command: echo ?$XARGS_ARGS']],
    ['find . -exec git push {} ; -print', ['[find -exec] command: git push ?{}', 'self']],
    ['find . -execdir rm {} +', ['[find -execdir] command: rm ?{}', 'self']],
    ['strace -f -e trace=all -o out git push', ['[strace] command: git push']],
    ['ltrace -o x git push', ['[ltrace] command: git push']],
    ['nsenter -t 1 -m -u git push', ['[nsenter] command: git push']],
    ['nsenter --mount=/proc/1/ns/mnt git push', ['[nsenter] command: git push']],
    ['unbuffer -p git push', ['[unbuffer] command: git push']],
    ['caffeinate -i -t 60 git push', ['[caffeinate] command: git push']],
    ['stdbuf -oL git push', ['[stdbuf] command: git push']],
    ['ionice -c 3 git push', ['[ionice] command: git push']],
    ['setsid -f git push', ['[setsid] command: git push']],
    ['docker exec -it -u root box git push', ['[docker exec] command: git push', 'self']],
    ['docker container exec box git push', ['[docker container exec] command: git push', 'self']],
    ['podman exec --env A=1 box git push', ['[podman exec] command: git push', 'self']],
    ['kubectl exec -it pod -c main -- git push', ['[kubectl exec] command: git push', 'self']],
    ['kubectl -n ns exec pod -- sh -c x', ['[kubectl exec] command: sh -c x', 'self']],
    ['runuser -u app -- git push', ['[runuser] command: git push']],
    // shell text
    ['bash -c ⟨git push⟩ arg0 arg1', ['[bash -c] shell: git push | arg0 arg1']],
    ['bash -euxc ⟨git push⟩', ['[bash -c] shell: git push']],
    ['bash -oe pipefail -c ⟨git push⟩', ['[bash -c] shell: git push']],
    ['bash -eo pipefail -c ⟨git push⟩', ['[bash -c] shell: git push']],
    ['bash -oo errexit pipefail -c ⟨git push⟩', ['[bash -c] shell: git push']],
    ['bash -ocx pipefail ⟨git push⟩', ['[bash -c] shell: git push']],
    ['sh +o posix -c ⟨git push⟩', ['[sh -c] shell: git push']],
    ['sh script.sh a', ['[sh script.sh] script: script.sh', 'self']],
    ['sh -s', ['stdin script', 'self']],
    ['bash', ['stdin script', 'self']],
    ['fish --command=⟨git push⟩', ['[fish -c] shell: git push']],
    ['su -c ⟨git push⟩ root', ['[su -c] shell: git push']],
    ['script -qc ⟨git push⟩ /dev/null', ['[script -c] shell: git push']],
    ['sg wheel -c ⟨git push⟩', ['[sg] shell: git push']],
    ['sg wheel ⟨git push⟩', ['[sg] shell: git push']],
    ['ssh -p 22 host git push -f', ['[ssh] shell: git push -f']],
    // OpenSSH reads options again after the destination; the command starts at the next operand.
    ['ssh host -p 22 git push -f', ['[ssh] shell: git push -f']],
    ['ssh host -- git push -f', ['[ssh] shell: git push -f']],
    ['ssh host git -p push', ['[ssh] shell: git -p push']],
    ['ssh host', ['self']],
    ['watch -n1 git push', ['[watch] shell: git push']],
    ['watch -x git push', ['[watch] command: git push']],
    ['eval git push', ['[eval] shell: git push']],
    ['eval', []],
    ['trap ⟨git push⟩ EXIT', ['[trap] shell: git push', 'self']],
    ['trap - EXIT', ['self']],
    ['parallel -j4 ⟨git push {}⟩ ::: a b', ['[parallel] shell: git push a', '[parallel] shell: git push b']],
    ['parallel git push ::: -f', ['[parallel] shell: git push -f']],
    ['parallel dash -c ::: ⟨echo x; git push⟩', ["[parallel] shell: dash -c 'echo x; git push'"]],
    ['parallel git push :::: args.txt', ['[parallel] shell: ?git push $ARG']],
    ['parallel ⟨git push {}⟩', ['[parallel] shell: ?git push {}']],
    ['parallel ::: ⟨git push⟩ ⟨git status⟩', ['[parallel] shell: git push', '[parallel] shell: git status']],
    ['npx -c ⟨git push⟩', ['[npx -c] shell: git push', 'self']],
    ['npm exec --call=⟨git push⟩', ['[npm exec -c] shell: git push', 'self']],
    ['npm x -c ⟨git push⟩', ['[npm exec -c] shell: git push', 'self']],
    ['git submodule foreach git status', ['[git submodule foreach] shell: git status', 'self']],
    ['git submodule --quiet foreach --recursive ⟨git push -f⟩', ['[git submodule foreach] shell: git push -f', 'self']],
    ['git rebase -x ⟨make test⟩ main', ['[git rebase --exec] shell: make test', 'self']],
    ['git rebase --exec=⟨make test⟩ main', ['[git rebase --exec] shell: make test', 'self']],
    ['git bisect run make test', ['[git bisect run] shell: make test', 'self']],
    ['git push -f', ['self']],
    // settings whose value is shell text
    ['git -c core.pager=⟨git push -f⟩ log', ['[git -c core.pager] shell: git push -f', 'self']],
    ['git -c core.sshCommand=⟨ssh -i k⟩ -c user.name=x fetch', ['[git -c core.sshCommand] shell: ssh -i k', 'self']],
    ['git -c CORE.PAGER=less log', ['[git -c CORE.PAGER] shell: less', 'self']],
    ['git -c pager.log=⟨sh -c x⟩ log', ['[git -c pager.log] shell: sh -c x', 'self']],
    ['git -c credential.helper=⟨!f() { echo; }; f⟩ push', ['[git -c credential.helper] shell: f() { echo; }; f', 'self']],
    ['git -c user.name=pager log', ['self']],
    ['ssh -o ProxyCommand=⟨nc %h %p⟩ host', ['[ssh -o ProxyCommand] shell: nc %h %p', 'self']],
    ['ssh -o ⟨LocalCommand git push⟩ -o PermitLocalCommand=yes host ls', ['[ssh] shell: ls', '[ssh -o LocalCommand] shell: git push']],
    // code
    ['python3 -c ⟨import os⟩', ['[python3 -c] python: import os', 'self']],
    ['python -Bc ⟨x⟩ a b', ['[python -c] python: x', 'self']],
    ['python -m http.server', ['stdin python', 'self']],
    ['python script.py', ['self']],
    // A run-time first operand may be the option itself.
    ['bash $X ⟨git push⟩', ['[bash $X] script: $X', '[bash -c] shell: git push', 'self']],
    ['python3 $F ⟨x⟩', ['[python3 -c] python: x', 'self']],
    ['node --eval=⟨x⟩', ['[node -e] node: x', 'self']],
    ['node -p ⟨x⟩', ['[node -e] node: x', 'self']],
    ['perl -lane ⟨x⟩', ['[perl -e] perl: x', 'self']],
    ['perl -Mstrict -e ⟨x⟩', ['[perl -e] perl: x', 'self']],
    ['perl -I lib -Ilib2 -e ⟨x⟩', ['[perl -e] perl: x', 'self']],
    ['python -W ignore -X dev -c ⟨x⟩', ['[python -c] python: x', 'self']],
    ['node -r dotenv/config --inspect -e ⟨x⟩', ['[node -e] node: x', 'self']],
    ['ruby -e ⟨x⟩', ['[ruby -e] ruby: x', 'self']],
    ['php -r ⟨x⟩', ['[php -r] php: x', 'self']],
  ])('%s', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });
});

describe('file operands and how each is touched', () => {
  it.each<[string, string[]]>([
    ['rm -rf a b', ['delete a', 'delete b']],
    ['rmdir d', ['delete d']],
    ['unlink f', ['delete f']],
    ['shred -n 3 f', ['write f']],
    ['shred -u f', ['delete f']],
    ['find . src -name x -delete', ['delete .', 'delete src']],
    ['find . -name x -fprint out', ['read .', 'write out']],
    // A recursive copy writes its destination as a whole; each source may land in it by name.
    ['cp -r a b dest', ['read a whole', 'read b whole', 'write dest whole', 'write dest/a whole', 'write dest/b whole']],
    ['cp a dest/', ['read a', 'write dest/', 'write dest/a']],
    ['cp -t dest a b', ['read a', 'read b', 'write dest', 'write dest/a', 'write dest/b']],
    ['cp -s ../x y', ['read ../x', 'write y', 'write ../x link:symbolic@y', 'write y/x']],
    ['mv a b', ['delete a whole', 'write b whole', 'write b/a whole']],
    ['install -m 755 a /usr/bin/a', ['read a', 'write /usr/bin/a', 'write /usr/bin/a/a']],
    ['ln -s target link', ['read target', 'write link', 'write target link:symbolic@link']],
    ['ln f hard', ['read f', 'write hard', 'write f link:hard@hard']],
    ['ln -s ~/.config', ['read ~/.config', 'write ~/.config link:symbolic@-']],
    ['tar -xf t.tar -C ~/.config', ['read t.tar whole', 'write ~/.config whole']],
    ['tar -cf t.tar -C ~/.config .', ['read .', 'write t.tar']],
    ['git clone https://example.com/r.git ~/.config/x', ['write ~/.config/x whole']],
    ['git clone https://example.com/r.git', []],
    ['unzip a.zip -d out', ['read a.zip whole', 'write out whole']],
    ['tee -a log', ['write log']],
    ['truncate -s 0 f', ['write f']],
    ['touch -d 2020-01-01 f', ['metadata f']],
    ['dd if=/dev/zero of=disk.img bs=1M', ['read /dev/zero', 'write disk.img']],
    ['sed -n p f', ['read f']],
    ['sed -i s/a/b/ f', ['write f']],
    ['sed -e s/a/b/ -i.bak f g', ['write f', 'write g']],
    ['perl -pi -e s/a/b/ f', ['write f']],
    ['chmod 600 f g', ['metadata f', 'metadata g']],
    ['chown -R user: d', ['metadata d']],
    ['chgrp --reference=r f', ['metadata f', 'read r']],
    ['cat a b', ['read a', 'read b']],
    ['tac f', ['read f']],
    ['less +G f', ['read +G', 'read f']],
    ['more f', ['read f']],
    ['head -n 5 f', ['read f']],
    ['head -20 f', ['read f']],
    ['tail -f log', ['read log']],
    ['nl f', ['read f']],
    ['od -c f', ['read f']],
    ['xxd f out', ['read f', 'write out']],
    ['hexdump -C f', ['read f']],
    ['strings -n 8 f', ['read f']],
    ['base64 -d f', ['read f']],
    ['bat -l sh f', ['read f']],
    ['grep -rn pattern src', ['read src']],
    ['grep -e a -e b f', ['read f']],
    ['grep -f pats f', ['read f', 'read pats']],
    ['rg -t ts x src', ['read src']],
    ['awk {print} f', ['read f']],
    ['awk -f prog.awk f', ['read f', 'read prog.awk']],
    ['tar -czf out.tgz src', ['read src', 'write out.tgz']],
    ['tar -xf in.tgz', ['read in.tgz whole']],
    ['tar --extract --file=in.tgz a', ['write a whole', 'read in.tgz whole']],
    ['zip -r out.zip src', ['write out.zip', 'read src']],
    ['unzip in.zip -d dir', ['read in.zip whole', 'write dir whole']],
    ['scp -i key a host:b', ['read a', 'write host:b']], // -i KEY: a key used, not read (agent-secrets)
    ['rsync -av src/ dst/', ['read src/ whole', 'write dst/ whole', 'write dst/src whole']],
    ['source env.sh', ['read env.sh']],
    ['. env.sh', ['read env.sh']],
    ['bash -c x', []],
    ['bash run.sh arg', ['read run.sh']],
    ['curl -d @body.json https://x', ['read body.json']],
    ['curl -d x=1 https://x', []],
    ['curl -T f https://x', ['read f']],
    ['curl --upload-file f https://x', ['read f']],
    ['curl -o out https://x', ['write out']],
    // uploads: a form field's file, after `=@` or `=<` (type suffix dropped), --data-urlencode NAME@FILE
    ['curl -F k=@up.bin https://x', ['read up.bin']],
    ['curl --form k=@up.bin;type=text/plain https://x', ['read up.bin']],
    ['curl -F k=<up.txt https://x', ['read up.txt']],
    ['curl --data-binary @up.bin https://x', ['read up.bin']],
    ['curl --data-urlencode q@up.txt https://x', ['read up.txt']],
    ['curl -F name=value https://x', []],
    ['curl -F a=b@c https://x', []],
    ['openssl enc -in a -out b', ['read a', 'write b']],
  ])('%s', (line, expected) => {
    expect(files(line)).toEqual(expected);
  });
});

describe('program names', () => {
  it('finds versioned interpreters and dashed git commands', () => {
    expect(programData('python3.12', BUILTIN_GRAMMARS)?.name).toBe('python');
    expect(programData('perl5.36', BUILTIN_GRAMMARS)?.name).toBe('perl');
    expect(programData('git2', BUILTIN_GRAMMARS)).toBeUndefined();
    expect(dashedCommand('git-push', BUILTIN_GRAMMARS)).toEqual(['git', 'push']);
    expect(dashedCommand('git-', BUILTIN_GRAMMARS)).toBeUndefined();
    expect(dashedCommand('gh-x', BUILTIN_GRAMMARS)).toBeUndefined();
  });

  it('roles: words the data names for rules', () => {
    expect(read('git push origin +main :old').roles.get('refspec')).toEqual(['origin', '+main', ':old']);
    expect(read('gh api -X DELETE repos/x').roles.get('http_method')).toEqual(['DELETE']);
    expect(read('git commit -m x').roles.size).toBe(0);
  });
});

describe('program data is valid and extensible', () => {
  it.each(Object.entries(BUILTIN_GRAMMARS))('builtin %s passes the pack checks', (name, g) => {
    expect(grammarProblems(JSON.parse(JSON.stringify(g)), name)).toEqual([]);
  });

  it('a pack extends a program: maps merge, lists gain entries', () => {
    const extra: ProgramGrammar = { flags: ['-Q'], runs: { no_run: ['--dry'] } };
    const g = mergeGrammar(BUILTIN_GRAMMARS['sudo'], extra);
    expect(g.flags).toContain('-Q');
    expect(g.flags).toContain('-A');
    expect(g.runs?.no_run).toEqual([...(BUILTIN_GRAMMARS['sudo']!.runs?.no_run ?? []), '--dry']);
    expect(g.runs?.command).toBe(true);
  });

  it('reports bad program data with the field', () => {
    expect(grammarProblems({ runs: { self: 'sometimes' } }, 'x')).toEqual(['program "x" runs: "self" must be one of always, idle, never']);
    expect(grammarProblems({ files: { operands: 'eat' } }, 'x')).toEqual(['program "x" files: "operands" must be one of read, write, delete, metadata']);
    expect(grammarProblems({ files: { when: { '-i': { operands: 'write', foo: 1 } } } }, 'x')).toEqual(['program "x" files when -i: unknown field "foo"']);
    expect(grammarProblems({ runs: { shell_options: ['c'] } }, 'x')).toEqual(['program "x" runs: "shell_options" entry "c" must start with -']);
    expect(grammarProblems({ options_after: -1 }, 'x')).toEqual(['program "x": "options_after" must be a whole number from 0 to 64']);
  });
});
