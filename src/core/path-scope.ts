/**
 * Paths as resources: where a path a command names lies, resolved lexically (no file system:
 * the core is pure). The context the core may not look up itself (home directory, project
 * roots, temp directories, `$TMPDIR`) comes from the driver, in the PolicyInput.
 *
 * Scopes (docs/packs.md, "Paths"): **project** (inside a project root, not the
 * root itself), **temp**, **home** (the home directory and what is in it that is neither project
 * nor temp), **system** (every other absolute path), **runtime** (known only when it runs).
 * Symlinks are not followed: a path is judged by how it is written.
 */

export type PathScope = 'project' | 'temp' | 'home' | 'system' | 'runtime';

export interface PathContext {
  /** The home directory, absolute; undefined makes `~` and `$HOME` run-time. */
  home?: string | undefined;
  /** Project roots as the harness or driver reports them (filtered by `projectRoots`). */
  roots: readonly string[];
  /** Temp directories, absolute: /tmp, /var/tmp and `$TMPDIR` as the driver saw it. */
  temp: readonly string[];
  /** `$TMPDIR` as the driver saw it; undefined makes a path built on `$TMPDIR` run-time. */
  tmpdir?: string | undefined;
}

export interface ScopedPath {
  /** The word as the command wrote it. */
  written: string;
  /** Absolute and normalised; for a glob, its fixed prefix. Null when run-time. */
  path: string | null;
  scope: PathScope;
  /**
   * The path is a project root, or an ancestor of one: deleting or moving it is not "inside
   * the project" (spec: treated as home/system for deletes).
   */
  holdsProject: boolean;
  /** A glob: the path is the fixed prefix, and the scope is that prefix's. */
  glob: boolean;
  /** Not a file: /dev/null, /dev/zero, /dev/stdin, /dev/stdout, /dev/stderr, /dev/tty, /dev/fd/*. */
  pseudo: boolean;
}

const PSEUDO = new Set(['/dev/null', '/dev/zero', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/random', '/dev/urandom']);

/**
 * Whether `p` holds `//`, or `/.` or `/..` followed by `/` or the end: what
 * `/\/\/|\/\.\.?(?:\/|$)/` finds, without compiling a regular expression on every hook
 * (a property test checks the two agree).
 */
export function notNormal(p: string): boolean {
  for (let i = p.indexOf('/'); i >= 0 && i < p.length; i = p.indexOf('/', i + 1)) {
    const c = p.charCodeAt(i + 1);
    if (c === 47) return true;
    if (c === 46) {
      let j = i + 2;
      if (p.charCodeAt(j) === 46) j++;
      if (j === p.length || p.charCodeAt(j) === 47) return true;
    }
  }
  return false;
}

/** Collapses `//`, `.` and `..` of an absolute POSIX path (`/..` stays `/`). */
export function normalizeAbsolute(p: string): string {
  // Most paths are already normal: no `//`, `/./`, `/../`, trailing `/` (measured: splitting
  // every path was a fifth of a decision's time).
  if (p === '/' || (p.charCodeAt(0) === 47 && p.charCodeAt(p.length - 1) !== 47 && !notNormal(p))) return p;
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** Whether `p` is `dir` or inside it (both normalised). */
export function isWithin(p: string, dir: string): boolean {
  return p === dir || (dir === '/' ? p.startsWith('/') : p.startsWith(`${dir}/`));
}

/**
 * The roots that count as projects: absolute, normalised, and never `/`, the home directory or
 * an ancestor of it, whatever the harness reports (an agent started in `~`, or `git init ~`,
 * does not make home a project).
 */
export function projectRoots(ctx: Pick<PathContext, 'roots' | 'home'>): string[] {
  const cached = rootsCache.get(ctx);
  if (cached !== undefined) return cached;
  const out = filterRoots(ctx);
  rootsCache.set(ctx, out);
  return out;
}

const rootsCache = new WeakMap<object, string[]>();

function filterRoots(ctx: Pick<PathContext, 'roots' | 'home'>): string[] {
  const home = ctx.home === undefined ? undefined : normalizeAbsolute(ctx.home);
  const out: string[] = [];
  for (const r of ctx.roots) {
    if (!r.startsWith('/')) continue;
    const n = normalizeAbsolute(r);
    if (n === '/' || (home !== undefined && isWithin(home, n))) continue;
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/** The index of the first `*`, `?` or `[` in `p`, or -1 (no regular expression on the hook path). */
function firstGlobChar(p: string): number {
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c === 42 || c === 63 || c === 91) return i;
  }
  return -1;
}

/** The fixed prefix of a glob, up to the last `/` before its first glob character. */
function globPrefix(p: string): string {
  const i = firstGlobChar(p);
  if (i === -1) return p;
  const slash = p.lastIndexOf('/', i);
  return slash <= 0 ? (p.startsWith('/') ? '/' : '') : p.slice(0, slash);
}

/**
 * The variable a word starts with, if it is `$NAME` or `${NAME}` followed by `/` or the end,
 * and the rest of the word.
 */
function leadingVariable(w: string): { name: string; rest: string } | null {
  const m = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})(?=\/|$)/.exec(w);
  if (m === null) return null;
  return { name: (m[1] ?? m[2]) as string, rest: w.slice(m[0].length) };
}

function runtime(written: string): ScopedPath {
  return { written, path: null, scope: 'runtime', holdsProject: false, glob: false, pseudo: false };
}

/** The scope of an absolute, normalised path. */
export function scopeOfAbsolute(p: string, ctx: PathContext, roots: readonly string[] = projectRoots(ctx)): { scope: PathScope; holdsProject: boolean } {
  const holdsProject = roots.some((r) => isWithin(r, p));
  if (!holdsProject && roots.some((r) => isWithin(p, r))) return { scope: 'project', holdsProject };
  if (ctx.temp.some((t) => t.startsWith('/') && isWithin(p, normalizeAbsolute(t)) && p !== normalizeAbsolute(t))) {
    return { scope: 'temp', holdsProject };
  }
  if (ctx.home !== undefined && isWithin(p, normalizeAbsolute(ctx.home))) return { scope: 'home', holdsProject };
  return { scope: 'system', holdsProject };
}

/**
 * Where the word `written` (a command's file operand, a redirection target, a file tool's path)
 * lies. `dynamic`: the word holds a run-time expansion (the shell analysis says so); only a
 * leading `$HOME`, `${HOME}`, `$TMPDIR` or `${TMPDIR}` is resolved then. `cwd`: the command's
 * directory, null when known only at run time (after `cd "$X"`).
 */
export function resolvePath(written: string, dynamic: boolean, cwd: string | null, ctx: PathContext): ScopedPath {
  let w = written;
  if (w === '') return runtime(written);
  let base: string | null = null;
  if (w === '~' || w.startsWith('~/')) {
    if (ctx.home === undefined) return runtime(written);
    base = ctx.home;
    w = w.slice(1);
  } else if (w.startsWith('~')) {
    return runtime(written); // another user's home: not known here
  } else if (dynamic) {
    const v = leadingVariable(w);
    const value = v === null ? undefined : v.name === 'HOME' ? ctx.home : v.name === 'TMPDIR' ? ctx.tmpdir : undefined;
    if (v === null || value === undefined || v.rest.includes('$') || v.rest.includes('`')) return runtime(written);
    base = value;
    w = v.rest;
  }
  let abs: string;
  if (base !== null) abs = `${base}/${w}`;
  else if (w.startsWith('/')) abs = w;
  else if (cwd === null || !cwd.startsWith('/')) return runtime(written);
  else abs = `${cwd}/${w}`;
  const glob = firstGlobChar(abs) >= 0;
  const fixed = glob ? globPrefix(abs) : abs;
  if (fixed === '') return runtime(written);
  const path = normalizeAbsolute(fixed);
  const pseudo = !glob && (PSEUDO.has(path) || path.startsWith('/dev/fd/') || path === '/proc/self/fd' || path.startsWith('/proc/self/fd/'));
  if (!glob) return { written, path, pseudo, glob, ...scopeOfAbsolute(path, ctx) };
  // A glob names entries inside its fixed prefix (`~/*` is the home directory's contents,
  // `build/*` is inside the project): its scope is that of a child of the prefix, and it may
  // match a project root when the prefix is above one.
  const roots = projectRoots(ctx);
  const child = scopeOfAbsolute(path === '/' ? '/\u0000' : `${path}/\u0000`, ctx, roots);
  const holdsProject = roots.some((r) => r !== path && isWithin(r, path));
  return { written, path, pseudo, glob, scope: holdsProject ? scopeOfAbsolute(path, ctx, roots).scope : child.scope, holdsProject };
}
