import { describe, expect, it } from 'vitest';
import { BUILTIN_GRAMMARS, readArgv } from './index.ts';
import { splitAliasWords } from './split.ts';

const read = (line: string, dynamic: number[] = []) => readArgv(line.split(' '), dynamic, BUILTIN_GRAMMARS);

describe('readArgv: subcommand path', () => {
  const cases: Array<[string, string[]]> = [
    ['git commit -m x', ['commit']],
    ['git -C /r commit', ['commit']],
    ['git -c k=v -c a=b commit --amend', ['commit']],
    ['git --git-dir=/r/.git --work-tree /r commit', ['commit']],
    ['git --no-pager -p commit', ['commit']],
    ['git --namespace ns --super-prefix x/ --config-env k=V --exec-path=/x push', ['push']],
    ['git --exec-path /x push', ['push']],
    ['git -- commit', ['commit']],
    ['git commit-graph write', ['commit-graph']],
    ['git log --grep=commit', ['log']],
    ['git branch commit-review', ['branch']],
    ['git remote rm origin', ['remote', 'remove']],
    ['git remote remove origin', ['remote', 'remove']],
    ['git remote -v', ['remote']],
    ['git remote -v set-url origin x', ['remote', 'set-url']],
    ['gh repo delete o/r --yes', ['repo', 'delete']],
    ['gh -R o/r repo delete', ['repo', 'delete']],
    ['gh pr -R o/r close 12', ['pr', 'close']],
    ['gh secret delete TOKEN', ['secret', 'remove']],
    ['gh release delete-asset v1 a.zip', ['release', 'delete-asset']],
    ['gh api repos/o/r', ['api']],
    ['gh cs list', ['codespace', 'list']],
    ['kubectl delete pod x', ['delete']],
    ['git', []],
    ['git -C /r', []],
  ];
  it.each(cases)('%s', (line, path) => {
    expect(read(line).subcommand).toEqual(path);
  });
});

describe('readArgv: flags and values', () => {
  it('splits bundles and normalises inline values', () => {
    const r = read('git push -uf origin main --force-with-lease=main:abc');
    expect([...r.flags].sort()).toEqual(['--force', '--force-with-lease', '--set-upstream', '-f', '-u'].sort());
    expect(r.values.get('--force-with-lease')).toEqual(['main:abc']);
    expect(r.positionals).toEqual(['origin', 'main']);
  });
  it('a value-taking short option ends the bundle and takes the rest or the next word', () => {
    const r = read('git push -o ci.skip origin main');
    expect(r.values.get('-o')).toEqual(['ci.skip']);
    expect(r.values.get('--push-option')).toEqual(['ci.skip']);
    expect(r.flags.has('-f')).toBe(false);
    expect(r.positionals).toEqual(['origin', 'main']);
    const b = read('git push -vof origin');
    expect(b.flags.has('-v')).toBe(true);
    expect(b.flags.has('-f')).toBe(false);
    expect(b.values.get('-o')).toEqual(['f']);
  });
  it('reads gh api methods in every spelling', () => {
    for (const line of ['gh api -X DELETE x', 'gh api -XDELETE x', 'gh api -X=DELETE x', 'gh api --method DELETE x', 'gh api --method=delete x', 'gh api x -Xdelete']) {
      const r = read(line);
      expect(r.values.get('--method')?.map((v) => v.toUpperCase()), line).toEqual(['DELETE']);
      expect(r.positionals, line).toEqual(['x']);
    }
    expect(read('gh api -H Accept:x -f a=b x').positionals).toEqual(['x']);
  });
  it('inherits gh options at inner levels and reads flags after positionals', () => {
    const r = read('gh pr close 42 -R o/r -d');
    expect(r.subcommand).toEqual(['pr', 'close']);
    expect(r.positionals).toEqual(['42']);
    expect(r.flags.has('--delete-branch')).toBe(true);
    expect(r.values.get('--repo')).toEqual(['o/r']);
  });
  it('gh pr close -c takes its value: a comment is not a flag', () => {
    const r = read('gh pr close 42 -c -d');
    expect(r.flags.has('-d')).toBe(false);
    expect(r.values.get('--comment')).toEqual(['-d']);
  });
  it('expands unique abbreviations of git long options, not ambiguous ones', () => {
    expect(read('git push --forc origin').flags.has('--force')).toBe(false);
    expect(read('git push --del origin x').flags.has('--delete')).toBe(true);
    expect(read('git push --mir origin').flags.has('--mirror')).toBe(true);
    expect(read('git push --force-w origin').flags.has('--force-with-lease')).toBe(true);
    expect(read('git reset --har').flags.has('--hard')).toBe(true);
    expect(read('git push --force origin').flags.has('--force')).toBe(true);
  });
  it('stops reading options at --', () => {
    const r = read('git push origin -- -f');
    expect(r.flags.has('-f')).toBe(false);
    expect(r.positionals).toEqual(['origin', '-f']);
  });
  it('a lone - is a word', () => {
    expect(read('git commit -F -').values.get('-F')).toEqual(['-']);
    expect(read('git apply -').positionals).toEqual(['-']);
  });
  it('global options are not taken for subcommand words', () => {
    const r = read('git -C commit push');
    expect(r.subcommand).toEqual(['push']);
    expect(r.values.get('-C')).toEqual(['commit']);
  });
});

describe('readArgv: dynamic words and aliases', () => {
  it('marks a dynamic word in subcommand position', () => {
    const r = read('git $SUB -m x', [1]);
    expect(r.subcommand).toEqual([]);
    expect(r.subcommand_dynamic).toBe(true);
  });
  it('a dynamic positional is just a positional', () => {
    const r = read('git push origin $BR', [3]);
    expect(r.subcommand_dynamic).toBe(false);
    expect(r.positionals).toEqual(['origin', '$BR']);
  });
  it('resolves inline git aliases, case-insensitively, with arguments', () => {
    expect(readArgv(['git', '-c', 'alias.ci=commit', 'ci', '-m', 'x'], [], BUILTIN_GRAMMARS).subcommand).toEqual(['commit']);
    expect(readArgv(['git', '-c', 'alias.CI=commit -a', 'ci'], [], BUILTIN_GRAMMARS).flags.has('-a')).toBe(true);
    const p = readArgv(['git', '-c', 'alias.p=push --force', 'p', 'origin'], [], BUILTIN_GRAMMARS);
    expect(p.subcommand).toEqual(['push']);
    expect(p.flags.has('--force')).toBe(true);
    expect(p.positionals).toEqual(['origin']);
  });
  it('follows aliases of aliases, but not forever', () => {
    const r = readArgv(['git', '-c', 'alias.a=b', '-c', 'alias.b=commit', 'a'], [], BUILTIN_GRAMMARS);
    expect(r.subcommand).toEqual(['commit']);
    const loop = readArgv(['git', '-c', 'alias.a=b', '-c', 'alias.b=a', 'a'], [], BUILTIN_GRAMMARS);
    expect(loop.subcommand.length).toBe(1);
  });
  it('never lets an alias shadow a git command', () => {
    expect(readArgv(['git', '-c', 'alias.commit=status', 'commit'], [], BUILTIN_GRAMMARS).subcommand).toEqual(['commit']);
  });
  it('hands a shell alias back as text, with the arguments', () => {
    const r = readArgv(['git', '-c', 'alias.x=!git commit', 'x', '-m', 'a b'], [], BUILTIN_GRAMMARS);
    expect(r.shell_alias).toBe("git commit -m 'a b'");
    expect(r.subcommand).toEqual([]);
  });
});

describe('splitAliasWords', () => {
  it.each([
    ['commit -a', ['commit', '-a']],
    ['  log  --oneline ', ['log', '--oneline']],
    [`commit -m "a b"`, ['commit', '-m', 'a b']],
    [`commit -m 'a "b"'`, ['commit', '-m', 'a "b"']],
    ['a\\ b c', ['a b', 'c']],
    ['""', ['']],
    ['', []],
  ])('%s', (text, words) => {
    expect(splitAliasWords(text)).toEqual(words);
  });
});
