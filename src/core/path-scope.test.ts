import { describe, expect, it } from 'vitest';
import { normalizeAbsolute, projectRoots, resolvePath, type PathContext, type PathScope } from './path-scope.ts';

const ctx: PathContext = { home: '/home/dev', roots: ['/home/dev/proj'], temp: ['/tmp', '/var/tmp', '/home/dev/.tmp'], tmpdir: '/home/dev/.tmp' };
const CWD = '/home/dev/proj';

describe('resolvePath', () => {
  // written, dynamic, cwd, → path, scope, holdsProject
  it.each<[string, boolean, string | null, string | null, PathScope, boolean]>([
    ['node_modules', false, CWD, '/home/dev/proj/node_modules', 'project', false],
    ['./out/x', false, CWD, '/home/dev/proj/out/x', 'project', false],
    ['build/', false, CWD, '/home/dev/proj/build', 'project', false],
    ['.', false, CWD, '/home/dev/proj', 'home', true],
    ['..', false, CWD, '/home/dev', 'home', true],
    ['../proj/src', false, CWD, '/home/dev/proj/src', 'project', false],
    ['../other', false, CWD, '/home/dev/other', 'home', false],
    ['/', false, CWD, '/', 'system', true],
    ['/etc/hosts', false, CWD, '/etc/hosts', 'system', false],
    ['//etc//hosts/.', false, CWD, '/etc/hosts', 'system', false],
    ['~', false, CWD, '/home/dev', 'home', true],
    ['~/', false, CWD, '/home/dev', 'home', true],
    ['~/.config', false, CWD, '/home/dev/.config', 'home', false],
    ['~/proj/build', false, '/', '/home/dev/proj/build', 'project', false],
    ['~root', false, CWD, null, 'runtime', false],
    ['$HOME', true, CWD, '/home/dev', 'home', true],
    ['${HOME}/.ssh/id_rsa', true, CWD, '/home/dev/.ssh/id_rsa', 'home', false],
    ['$HOMEX/a', true, CWD, null, 'runtime', false],
    ['$HOME/$X', true, CWD, null, 'runtime', false],
    ['$TMPDIR/x', true, CWD, '/home/dev/.tmp/x', 'temp', false],
    ['$DIR', true, CWD, null, 'runtime', false],
    ['$(pwd)/x', true, CWD, null, 'runtime', false],
    ['/tmp/x', false, CWD, '/tmp/x', 'temp', false],
    ['/tmp', false, CWD, '/tmp', 'system', false],
    ['/var/tmp/a/b', false, CWD, '/var/tmp/a/b', 'temp', false],
    ['x', false, null, null, 'runtime', false],
    ['/abs/even/without/cwd', false, null, '/abs/even/without/cwd', 'system', false],
    ['', false, CWD, null, 'runtime', false],
  ])('%j (dynamic %s, cwd %j) → %j %s holds=%s', (w, dyn, cwd, path, scope, holds) => {
    const r = resolvePath(w, dyn, cwd, ctx);
    expect(r.path).toBe(path);
    expect(r.scope).toBe(scope);
    expect(r.holdsProject).toBe(holds);
    expect(r.written).toBe(w);
  });

  it('a literal `$HOME` (not an expansion) is a relative name', () => {
    expect(resolvePath('$HOME', false, CWD, ctx).path).toBe('/home/dev/proj/$HOME');
  });

  it('without a home, ~ and $HOME are run-time; without TMPDIR, $TMPDIR is', () => {
    const bare: PathContext = { roots: [], temp: ['/tmp'] };
    expect(resolvePath('~/x', false, CWD, bare).scope).toBe('runtime');
    expect(resolvePath('$HOME/x', true, CWD, bare).scope).toBe('runtime');
    expect(resolvePath('$TMPDIR/x', true, CWD, bare).scope).toBe('runtime');
  });

  it.each<[string, string, PathScope, boolean]>([
    ['~/*', '/home/dev', 'home', true],
    ['~/.c*', '/home/dev', 'home', true],
    ['build/*', '/home/dev/proj/build', 'project', false],
    ['./*', '/home/dev/proj', 'project', false],
    ['/tmp/*', '/tmp', 'temp', false],
    ['/*', '/', 'system', true],
    ['/etc/*.conf', '/etc', 'system', false],
    ['*', '/home/dev/proj', 'project', false],
  ])('a glob %j has the scope of an entry inside %j: %s (may match a project root: %s)', (w, prefix, scope, holds) => {
    const r = resolvePath(w, false, CWD, ctx);
    expect(r.glob).toBe(true);
    expect(r.path).toBe(prefix);
    expect(r.scope).toBe(scope);
    expect(r.holdsProject).toBe(holds);
  });

  it.each(['/dev/null', '/dev/stderr', '/dev/stdout', '/dev/stdin', '/dev/tty', '/dev/zero', '/dev/fd/3', '/dev/../dev/null'])(
    '%s is not a file',
    (w) => expect(resolvePath(w, false, CWD, ctx).pseudo).toBe(true),
  );
  it.each(['/dev/sda', '/dev/nvme0n1', '/etc/null'])('%s is a file (or device)', (w) => {
    expect(resolvePath(w, false, CWD, ctx).pseudo).toBe(false);
  });
});

describe('projectRoots', () => {
  it.each<[string[], string[]]>([
    [['/home/dev/proj'], ['/home/dev/proj']],
    [['/home/dev/proj/', '/home/dev/proj'], ['/home/dev/proj']],
    [['/'], []],
    [['/home/dev'], []],
    [['/home'], []],
    [['relative/dir'], []],
    [['/srv/app', '/home/dev/x/../y'], ['/srv/app', '/home/dev/y']],
  ])('%j → %j (never /, home or an ancestor of home)', (roots, want) => {
    expect(projectRoots({ home: '/home/dev', roots })).toEqual(want);
  });
});

describe('normalizeAbsolute', () => {
  it.each([
    ['/', '/'],
    ['/..', '/'],
    ['/a/../../b', '/b'],
    ['/a/./b//c/', '/a/b/c'],
  ])('%j → %j', (p, want) => expect(normalizeAbsolute(p)).toBe(want));
});

describe('a home directory inside a temp directory (HOME under TMPDIR): home wins', () => {
  const inTemp: PathContext = { home: '/tmp/ci/home', roots: ['/tmp/ci/home/proj'], temp: ['/tmp', '/var/tmp'], tmpdir: '/tmp' };
  it.each<[string, PathScope]>([
    ['~', 'home'],
    ['~/projects', 'home'],
    ['/tmp/ci/home/.ssh', 'home'],
    ['~/proj/build', 'project'],
    // Look-alikes: what lies in the temp directory outside the home stays temp.
    ['/tmp/ci/other', 'temp'],
    ['/tmp/ci', 'temp'],
    ['/tmp/x', 'temp'],
  ])('%s → %s', (written, scope) => {
    expect(resolvePath(written, false, '/tmp/ci/home/proj', inTemp).scope).toBe(scope);
  });
  it('a temp directory inside the home directory is still temp', () => {
    const tmpInHome: PathContext = { home: '/tmp/ci/home', roots: [], temp: ['/tmp', '/tmp/ci/home/.tmp'], tmpdir: '/tmp/ci/home/.tmp' };
    expect(resolvePath('/tmp/ci/home/.tmp/x', false, '/', tmpInHome).scope).toBe('temp');
    expect(resolvePath('/tmp/ci/home/x', false, '/', tmpInHome).scope).toBe('home');
  });
});
