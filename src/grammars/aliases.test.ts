/**
 * Alias expansion on argv, alias writes, and GIT_CONFIG_PARAMETERS (checked against what git
 * itself puts in that variable). The decisions these lead to are in src/packs/git-aliases.test.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aliasesFromVariables, aliasWrites, expandAliases, mayTouchAliases, meaningsOf, parseConfigParameters, type AliasTable } from './aliases.ts';
import { git } from './git.ts';

const table = (defs: Record<string, (string | null)[]>, anyName: (string | null)[] = []): (() => AliasTable) => () => ({
  byName: new Map(Object.entries(defs)),
  anyName,
});
const none = (): undefined => undefined;
const argvs = (argv: string[], defs: Record<string, (string | null)[]> = {}) =>
  expandAliases(argv, [], git, table(defs), none)?.map((e) => (e.kind === 'argv' ? e.argv.join(' ') : `!${e.text}`)) ?? null;

describe('expandAliases', () => {
  it.each([
    [['git', 'x', '-f'], { x: ['push'] }, ['git push -f']],
    [['git', '-C', '/r', '--no-pager', 'x'], { x: ['push'] }, ['git -C /r --no-pager push']],
    [['git', '-Cdir', 'x'], { x: ['push'] }, ['git -Cdir push']],
    [['git', 'X'], { x: ['push'] }, ['git push']],
    [['git', 'x'], { x: ['push', 'status'] }, ['git push', 'git status']],
    [['git', 'x', 'a b'], { x: ['!echo'] }, ["!echo 'a b'"]],
    [['git', 'x'], { x: ['-c core.pager=cat y'], y: ['push -f'] }, ['git -c core.pager=cat push -f']],
    [['git', 'x'], { x: ["'push' \"-f\" a\\ b"] }, ['git push -f a b']],
    [['git', '-c', 'alias.x=status', 'x'], { x: ['push -f'] }, ['git -c alias.x=status status']],
    [['git', '-c', 'alias.x=log', '-c', 'ALIAS.X=status', 'x'], {}, ['git -c alias.x=log -c ALIAS.X=status status']],
    [['git', 'x'], { x: [null] }, ['git ${alias.x}']],
    [['git', 'a'], { a: ['b'], b: ['a'] }, ['git a']],
  ] as [string[], Record<string, (string | null)[]>, string[]][])('%j with %j', (argv, defs, want) => {
    expect(argvs(argv, defs)).toEqual(want);
  });

  it.each([
    [['git', 'status'], { status: ['push -f'] }],
    [['git', 'y'], { x: ['push'] }],
    [['git'], { x: ['push'] }],
    [['git', '--version'], { x: ['push'] }],
  ] as [string[], Record<string, string[]>][])('%j is no alias use', (argv, defs) => {
    expect(argvs(argv, defs)).toBeNull();
  });

  it('leaves a run-time subcommand word to the grammar (git $SUB)', () => {
    expect(expandAliases(['git', '$SUB'], [1], git, table({}, [null]), none)).toBeNull();
  });

  it('reads the table only for a word that may be an alias', () => {
    let reads = 0;
    const counting = (): AliasTable => {
      reads++;
      return { byName: new Map(), anyName: [] };
    };
    expandAliases(['git', 'status'], [], git, counting, none);
    expandAliases(['git', '-c', 'alias.x=log', 'x'], [], git, counting, none);
    expect(reads).toBe(0);
    expandAliases(['git', 'x'], [], git, counting, none);
    expect(reads).toBe(1);
  });

  it('--config-env takes the variable’s values on the line, or an unknown value', () => {
    const vars = (n: string) => (n === 'V' ? ['push -f'] : undefined);
    const run = (argv: string[]) => expandAliases(argv, [], git, table({}), vars)?.map((e) => (e.kind === 'argv' ? e.argv.join(' ') : e.text));
    expect(run(['git', '--config-env=alias.x=V', 'x'])).toEqual(['git --config-env=alias.x=V push -f']);
    expect(run(['git', '--config-env', 'alias.x=W', 'x'])).toEqual(['git --config-env alias.x=W ${alias.x}']);
  });
});

describe('mayTouchAliases', () => {
  it.each([
    [['git', 'status'], [], false],
    [['git', '-C', '/r', 'status'], [], false],
    [['git', '-C', '$D', 'push'], [2], false],
    [['git', '-c', 'x=$V', 'log'], [2], false],
    [['git', '--git-dir', '/g', 'log'], [], false],
    [['git', '$SUB'], [1], false],
    [['git'], [], false],
    [['git', 'x'], [], true],
    [['git', '-C', '/r', 'x'], [], true],
    [['git', 'config', 'alias.x', 'y'], [], true],
    [['git', 'gui'], [], true],
  ] as [string[], number[], boolean][])('%j', (argv, dyn, want) => {
    expect(mayTouchAliases(argv, dyn, git)).toBe(want);
  });
});

describe('aliasWrites', () => {
  it.each([
    ['git config alias.p push', [{ name: 'p', value: 'push' }]],
    ['git config --global --add alias.P push', [{ name: 'p', value: 'push' }]],
    ['git config -f x.cfg alias.p push', [{ name: 'p', value: 'push' }]],
    ['git config --file x.cfg alias.p push', [{ name: 'p', value: 'push' }]],
    ['git config --type=bool alias.p push', [{ name: 'p', value: 'push' }]],
    ['git config set --append alias.p push', [{ name: 'p', value: 'push' }]],
    ['git config --replace-all alias.p push old', [{ name: 'p', value: 'push' }]],
    ['git config alias.p.command push', [{ name: 'p', value: 'push' }]],
    ['git -C r config alias.p push', [{ name: 'p', value: 'push' }]],
    ['git config --get alias.p', []],
    ['git config get alias.p', []],
    ['git config --unset alias.p', []],
    ['git config unset alias.p', []],
    ['git config --get-regexp alias', []],
    ['git config -l', []],
    ['git config alias.p', []],
    ['git config user.name push', []],
    ['git status alias.p push', []],
  ])('%s', (line, want) => {
    expect(aliasWrites(line.split(' '), [], git)).toEqual(want);
  });

  it('a value that starts with - is a value once the key is read', () => {
    expect(aliasWrites(['git', 'config', 'alias.p', '-c x=y push'], [], git)).toEqual([{ name: 'p', value: '-c x=y push' }]);
  });

  it('run-time keys and values are unknown', () => {
    expect(aliasWrites(['git', 'config', 'alias.$n', 'push'], [2], git)).toEqual([{ name: null, value: 'push' }]);
    expect(aliasWrites(['git', 'config', '$k', 'push'], [2], git)).toEqual([{ name: null, value: 'push' }]);
    expect(aliasWrites(['git', 'config', 'user.$k', 'push'], [2], git)).toEqual([]);
    expect(aliasWrites(['git', 'config', 'alias.p', '$v'], [3], git)).toEqual([{ name: 'p', value: null }]);
  });
});

describe('meaningsOf', () => {
  const ia = git.inline_aliases!;
  it.each([
    [{ key: 'alias.x', keyDynamic: false, value: 'push' }, [{ kind: 'alias', write: { name: 'x', value: 'push' } }]],
    [{ key: 'include.path', keyDynamic: false, value: 'f' }, [{ kind: 'include', path: 'f' }]],
    [{ key: 'INCLUDE.Path', keyDynamic: false, value: 'f' }, [{ kind: 'include', path: 'f' }]],
    [{ key: 'includeIf.gitdir:~/x/.path', keyDynamic: false, value: 'f' }, [{ kind: 'include', path: 'f' }]],
    [{ key: 'includeIf.path', keyDynamic: false, value: 'f' }, []],
    [{ key: 'user.name', keyDynamic: false, value: 'f' }, []],
    [{ key: '$k', keyDynamic: true, value: 'v' }, [{ kind: 'alias', write: { name: null, value: 'v' } }, { kind: 'include', path: 'v' }]],
    [{ key: 'inc$k', keyDynamic: true, value: 'v' }, [{ kind: 'include', path: 'v' }]],
    [{ key: 'user.$k', keyDynamic: true, value: 'v' }, []],
  ] as const)('%j', (entry, want) => {
    expect(meaningsOf(ia, entry)).toEqual(want);
  });
});

describe('aliasesFromVariables', () => {
  it('pairs GIT_CONFIG_KEY_n with GIT_CONFIG_VALUE_n and reads GIT_CONFIG_PARAMETERS', () => {
    const vars = new Map<string, (string | null)[]>([
      ['GIT_CONFIG_COUNT', ['2']],
      ['GIT_CONFIG_KEY_0', ['alias.x']],
      ['GIT_CONFIG_VALUE_0', ['push -f']],
      ['GIT_CONFIG_KEY_1', ['user.name']],
      ['GIT_CONFIG_VALUE_1', ['x']],
      ['GIT_CONFIG_KEY_2', [null]],
      ['GIT_CONFIG_PARAMETERS', ["'alias.y'='status' 'core.x=1'"]],
    ]);
    expect(aliasesFromVariables(git.inline_aliases!, vars)).toEqual([
      { name: 'x', value: 'push -f' },
      { name: null, value: null },
      { name: 'y', value: 'status' },
    ]);
  });
});

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-params-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const gitEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmp, GIT_CONFIG_NOSYSTEM: '1' };
const hasGit = spawnSync('git', ['--version'], { env: gitEnv }).status === 0;

describe.skipIf(!hasGit)('parseConfigParameters reads what git writes', () => {
  // git -c … runs an alias that prints the variable git built from its -c options.
  it.each([
    [['alias.x=push -f']],
    [["a.b=it's"]],
    [['alias.x=!git push -f', 'core.pager=less -R']],
    [['alias.q="a b" \\c']],
    [['x.y=', 'alias.z=!']],
  ])('%j', (entries) => {
    const args = entries.flatMap((e) => ['-c', e]);
    const r = spawnSync('git', [...args, '-c', 'alias.print-params=!printenv GIT_CONFIG_PARAMETERS', 'print-params'], { cwd: tmp, env: gitEnv, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const want = [...entries, 'alias.print-params=!printenv GIT_CONFIG_PARAMETERS'].map((e) => {
      const eq = e.indexOf('=');
      return [e.slice(0, eq), e.slice(eq + 1)];
    });
    expect(parseConfigParameters(r.stdout.trim())).toEqual(want);
  });

  it('old single-entry format, and text it cannot read', () => {
    expect(parseConfigParameters("'alias.x=status'")).toEqual([['alias.x', 'status']]);
    expect(parseConfigParameters("'alias.x")).toEqual([[null, null]]);
    expect(parseConfigParameters('alias.x=status')).toEqual([[null, null]]);
  });
});
