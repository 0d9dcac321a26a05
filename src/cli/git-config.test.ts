/**
 * The git config parser against git itself (`git config --file F --list -z`) on a table of
 * config texts, then the alias reader on temporary repositories and homes (includes, linked
 * worktrees, GIT_DIR, bounds, FIFOs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ANY_ALIAS, MAX_CONFIG_BYTES, parseGitConfig, readGitAliases } from './git-config.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-gitconfig-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const gitEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmp, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
const hasGit = spawnSync('git', ['--version'], { env: gitEnv }).status === 0;

/** git's reading of `text`: the entries, or null when git refuses the file. */
function gitReads(text: string): { key: string; value: string | null }[] | null {
  const f = path.join(tmp, 'differential.cfg');
  fs.writeFileSync(f, text);
  const r = spawnSync('git', ['config', '--file', f, '--list', '-z'], { env: gitEnv, encoding: 'utf8' });
  if (r.status !== 0) return null;
  return r.stdout
    .split('\0')
    .filter((e) => e !== '')
    .map((e) => {
      const nl = e.indexOf('\n');
      return nl < 0 ? { key: e, value: null } : { key: e.slice(0, nl), value: e.slice(nl + 1) };
    });
}

const TEXTS: string[] = [
  '[alias]\n\tp = push --force\n',
  '[alias]\n\tp = push --force # a comment\n\tq = push ; another\n',
  '[alias] p = push -f\n',
  '[Alias]\n\tP = push\n\tLG = log --oneline\n',
  '[alias]\n\tp = "push  --force"\n\tq = push  \t --force   \n',
  '[alias]\n\tp = "push # not a comment"\n\tq = "a;b"\n',
  '[alias]\n\tp = pu\\\nsh -f\n',
  '[alias]\n\tp = "pu\\\nsh" -f\n',
  '[alias]\n\tp = a\\tb\\nc\\\\d\\"e\n',
  '[alias]\n\tp = bad \\x escape\n',
  '[alias]\n\tp = "unterminated\n',
  '[alias]\n\tp\n\tq =\n\tr = ""\n',
  '[alias "Weird"]\n\tcommand = push -f\n',
  '[alias "a\\"b\\\\c\\d"]\n\tcommand = x\n',
  '[alias.Sub]\n\tx = y\n',
  '[alias]\r\n\tp = push -f\r\n',
  '\uFEFF[alias]\n\tp = push\n',
  '# comment\n; comment\n[core]\n\tbare = false\n[alias]\n\tci = commit\n',
  'x = y\n',
  '[alias\n]\n\tp = push\n',
  '[alias "x]\n',
  '[]\n\tp = push\n',
  '[alias]\n\t1p = push\n',
  '[alias]\n\tp-q = push\n\tp_q = push\n',
  '[alias]\n\tp # c\n',
  '[alias]\n\tp = !git push -f && echo "done"\n',
  "[alias]\n\tp = !sh -c 'git push -f'\n",
  '[alias]\n\tp = push\n[alias]\n\tp = status\n',
  '[include]\n\tpath = other.cfg\n[includeIf "gitdir:~/x/"]\n\tpath = ~/y.cfg\n',
  '[alias]\n\tp = "a" "b"  c\n',
  '[alias]\n\tp = a \\\n  b\n',
  '[alias]\n\tp=push\n\tq\t=\tpush\n',
  '[alias]   \n  p = push\n',
  '[alias] # comment\n  p = push\n',
  '[alias "x" ]\n',
  '[alias "x"] p = push\n',
  '[alias]\n\tp = push\\',
  '[alias]\n\tp = push',
  '',
];

describe.skipIf(!hasGit)('parseGitConfig agrees with git config --list', () => {
  it.each(TEXTS.map((t) => [JSON.stringify(t), t]))('%s', (_, text) => {
    const ours = parseGitConfig(text!);
    const theirs = gitReads(text!);
    if (theirs === null) expect(ours.errorLine, JSON.stringify(ours.entries)).toBeDefined();
    else {
      expect(ours.errorLine).toBeUndefined();
      expect(ours.entries).toEqual(theirs);
    }
  });
});

describe.skipIf(!hasGit)('parseGitConfig agrees with git on generated texts', () => {
  // Texts made of the pieces where config parsers go wrong: quotes, escapes, continuations,
  // comments inside and outside quotes, blanks, section forms, keys without values.
  const pick = (good: string[], bad: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 40 }, { arbitrary: fc.constantFrom(...bad), weight: 1 });
  const section = pick(['[alias]', '[Alias]', '[alias "x y"]', '[alias "a\\"b"]', '[alias.Sub]', '[alias "x"] p = q'], ['[alias', '[]', '[alias "x]']);
  const valuePiece = pick(
    ['push', ' ', '\t', '  ', '""', '" a  b "', '"# not; a comment"', '"x\\"y"', '\\"', '\\\\', '\\n', '\\t', '\\b', '\\\n', '#', ';', "'", '!', '=', 'a b', '-f', '\r'],
    ['\\x', '"', '"open'],
  );
  const value = fc.array(valuePiece, { maxLength: 8 }).map((ps) => ps.join(''));
  const name = pick(['p', 'P', 'p-q', 'x1', 'LongName'], ['1x', 'p_q', '']);
  const eq = pick([' = ', '=', ' =', '\t=\t'], ['', ' # c']);
  const keyLine = fc.tuple(name, eq, value).map(([k, e, v]) => `\t${k}${e}${e.includes('=') ? v : ''}`);
  const line = fc.oneof({ arbitrary: keyLine, weight: 4 }, { arbitrary: section, weight: 1 }, { arbitrary: fc.constantFrom('# comment', '; comment', '', '   '), weight: 1 });
  const text = fc.tuple(section, fc.array(line, { minLength: 1, maxLength: 6 })).map(([s0, ls]) => [s0, ...ls].join('\n') + '\n');

  it('on 300 texts', () => {
    fc.assert(
      fc.property(text, (t) => {
        const ours = parseGitConfig(t);
        const theirs = gitReads(t);
        if (theirs === null) return ours.errorLine !== undefined;
        return ours.errorLine === undefined && JSON.stringify(ours.entries) === JSON.stringify(theirs);
      }),
      { numRuns: 300, seed: 20261201 },
    );
  });
});

describe('readGitAliases', () => {
  let n = 0;
  const fresh = (): { home: string; repo: string } => {
    const root = path.join(tmp, `case${n++}`);
    const home = path.join(root, 'home');
    const repo = path.join(root, 'repo');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    return { home, repo };
  };

  it('reads the repository (from a subdirectory) and the user, lowest precedence first', () => {
    const { home, repo } = fresh();
    fs.writeFileSync(path.join(home, '.gitconfig'), '[alias]\n\tp = status\n\tg = log\n');
    fs.mkdirSync(path.join(home, '.config/git'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config/git/config'), '[alias]\n\tx = diff\n');
    fs.writeFileSync(path.join(repo, '.git/config'), '[core]\n\tbare = false\n[alias]\n\tP = push --force\n');
    fs.mkdirSync(path.join(repo, 'src/deep'), { recursive: true });
    expect(readGitAliases(path.join(repo, 'src/deep'), { HOME: home })).toEqual({ x: ['diff'], p: ['status', 'push --force'], g: ['log'] });
  });

  it('follows includes (relative, ~/, includeIf) within the bounds', () => {
    const { home, repo } = fresh();
    fs.writeFileSync(path.join(repo, '.git/config'), '[include]\n\tpath = more.cfg\n[includeIf "onbranch:x"]\n\tpath = ~/cond.cfg\n');
    fs.writeFileSync(path.join(repo, '.git/more.cfg'), '[alias]\n\tp = push -f\n[include]\n\tpath = more.cfg\n');
    fs.writeFileSync(path.join(home, 'cond.cfg'), '[alias]\n\tq = commit\n');
    const got = readGitAliases(repo, { HOME: home });
    expect(got['p']?.[0]).toBe('push -f');
    expect(got['q']).toEqual(['commit']);
    // The include loop is cut by the bounds, and says so.
    expect(got[ANY_ALIAS]).toEqual([]);
  });

  it('finds a linked worktree’s shared config and honours GIT_DIR and GIT_CONFIG_GLOBAL from the environment', () => {
    const { home, repo } = fresh();
    const main = path.join(repo, '.git');
    fs.mkdirSync(path.join(main, 'worktrees/wt'), { recursive: true });
    fs.writeFileSync(path.join(main, 'worktrees/wt/commondir'), '../..\n');
    fs.writeFileSync(path.join(main, 'config'), '[alias]\n\tp = push -f\n');
    const wt = path.join(repo, '..', 'wt');
    fs.mkdirSync(wt, { recursive: true });
    fs.writeFileSync(path.join(wt, '.git'), `gitdir: ${path.join(main, 'worktrees/wt')}\n`);
    expect(readGitAliases(wt, { HOME: home })).toEqual({ p: ['push -f'] });
    const other = path.join(repo, '..', 'other.git');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'config'), '[alias]\n\to = commit\n');
    fs.writeFileSync(path.join(home, 'global.cfg'), '[alias]\n\tgl = log\n');
    expect(readGitAliases(wt, { HOME: home, GIT_DIR: other, GIT_CONFIG_GLOBAL: path.join(home, 'global.cfg') })).toEqual({ gl: ['log'], o: ['commit'] });
  });

  it('marks the table incomplete for a file too large or not regular, and never blocks on a FIFO', () => {
    const { home, repo } = fresh();
    fs.writeFileSync(path.join(repo, '.git/config'), `[alias]\n\tp = push -f\n#${'x'.repeat(MAX_CONFIG_BYTES)}\n`);
    expect(readGitAliases(repo, { HOME: home })).toEqual({ [ANY_ALIAS]: [] });
    const b = fresh();
    execFileSync('mkfifo', [path.join(b.repo, '.git/config')]);
    expect(readGitAliases(b.repo, { HOME: b.home })).toEqual({ [ANY_ALIAS]: [] });
  });

  it('reads nothing outside a repository without a home', () => {
    const dir = path.join(tmp, 'norepo');
    fs.mkdirSync(dir);
    expect(readGitAliases(dir, {})).toEqual({});
  });
});
