/**
 * Paths as resources (docs/packs.md, "Paths"): the paths one simple command or one file-tool
 * call touches, how (read, write, delete, metadata; recursively or not) and where they lie
 * (path-scope.ts), for rules' `paths` conditions and for `check --json`.
 *
 * Sources: the program's file data (src/grammars, `files:`), the command's redirections, and
 * the tool's `tool.paths` from the adapter. Only paths named in the command count: a recursive
 * search or listing of a directory is not a read of each file in it. Resolution is lexical
 * (no file system): symlinks are not followed.
 */
import { programData, readWords } from '../grammars/reader.ts';
import type { Access, CommandGrammar, Grammars, Word } from '../grammars/types.ts';
import type { PathWord, ShellCommand } from '../shell/types.ts';
import type { ActionContext, ToolPath } from './contract.ts';
import { isWithin, normalizeAbsolute, projectRoots, resolvePath, type PathContext, type PathScope } from './path-scope.ts';

export interface PathFact {
  /** The path as the command or the tool wrote it. */
  written: string;
  access: Access;
  /** With everything below it (`rm -r`, `chmod -R`, `find -delete`, `rsync --delete`). */
  recursive: boolean;
  /** Absolute and normalised (a glob keeps its pattern); null when known only at run time. */
  path: string | null;
  scope: PathScope;
  /** The path is a project root or an ancestor of one. */
  holdsProject: boolean;
  /** The path is a project root itself. */
  projectRoot: boolean;
  glob: boolean;
  /** Not a file (`/dev/null`, `/dev/stdout`, …): never a write or a delete. */
  pseudo: boolean;
}

/** What paths are resolved against, prepared once per evaluation. */
export interface PathEnv {
  ctx: PathContext;
  roots: string[];
  /** The event's directory; null when not known (relative paths are then run-time). */
  cwd: string | null;
  home: string | null;
  /** Named locations (`context.locations`): name → path patterns; null when none were given. */
  locations: Readonly<Record<string, readonly string[]>> | null;
}

const DEFAULT_TEMP: readonly string[] = ['/tmp', '/var/tmp'];

export function pathEnv(context: ActionContext | undefined, shellCwd: string | undefined): PathEnv {
  const c = context ?? {};
  const home = c.home !== undefined && c.home.startsWith('/') ? normalizeAbsolute(c.home) : undefined;
  const cwdRaw = c.cwd ?? shellCwd;
  const cwd = cwdRaw !== undefined && cwdRaw.startsWith('/') ? normalizeAbsolute(cwdRaw) : null;
  // Defaults for a caller that gives less (an older input): the temp directories every system
  // has, and the command's directory as the project (as the driver's last fallback).
  const temp = (c.temp_dirs ?? DEFAULT_TEMP).filter((t) => t.startsWith('/')).map(normalizeAbsolute);
  const ctx: PathContext = { home, roots: c.project_roots ?? (cwd === null ? [] : [cwd]), temp, tmpdir: c.tmpdir };
  const roots = projectRoots(ctx);
  return { ctx: { ...ctx, roots }, roots, cwd, home: home ?? null, locations: c.locations ?? null };
}

interface IndexedWord extends Word {
  readonly i: number;
}

const hasFilesCache = new WeakMap<CommandGrammar, boolean>();

/** Whether the program's data names files at any level (cached per grammar object). */
function hasFiles(g: CommandGrammar): boolean {
  let v = hasFilesCache.get(g);
  if (v === undefined) {
    v = g.files !== undefined || Object.values(g.subcommands ?? {}).some(hasFiles);
    hasFilesCache.set(g, v);
  }
  return v;
}

/** The directory a command runs in: the event's, changed by the line's `cd`s. */
function commandCwd(cmd: ShellCommand, env: PathEnv): string | null {
  if (!('cwd' in cmd)) return env.cwd;
  const c = cmd.cwd;
  if (c === null || c === undefined) return null;
  const r = resolvePath(c.value, c.dynamic, env.cwd, env.ctx);
  return r.path !== null && !r.glob ? r.path : null;
}

function fact(w: PathWord, quotedTilde: boolean, access: Access, recursive: boolean, cwd: string | null, env: PathEnv, contents = false): PathFact {
  // A quoted leading `~` is a directory named `~` (bash expands only the unquoted one).
  let written = quotedTilde && w.value.startsWith('~') ? `./${w.value}` : w.value;
  // What is inside a directory (`find DIR -delete`): judged like `DIR/*`.
  if (contents && !w.dynamic) written = `${written.replace(/\/+$/, '')}/*`;
  const r = resolvePath(written, w.dynamic, cwd, env.ctx);
  let path = r.path;
  if (r.glob && path !== null) {
    // Keep the pattern (normalised) so rules' globs can test it: `~/.ssh/id_*`.
    const base = written.startsWith('~') ? `${env.home ?? ''}${written.slice(1)}` : written.startsWith('/') ? written : `${cwd ?? ''}/${written}`;
    path = base.startsWith('/') && !base.includes('$') ? normalizeAbsolute(base) : path;
  }
  const projectRoot = r.path !== null && !r.glob && env.roots.includes(r.path);
  return { written: w.value, access, recursive, path, scope: r.scope, holdsProject: r.holdsProject, projectRoot, glob: r.glob, pseudo: r.pseudo };
}

/** The paths one simple command touches. */
export function commandPaths(cmd: ShellCommand, grammars: Grammars, program: string, env: PathEnv): PathFact[] {
  const out: PathFact[] = [];
  const cwd = commandCwd(cmd, env);
  if (!cmd.opaque && cmd.argv.length > 1) {
    const data = programData(program, grammars);
    if (data !== undefined && hasFiles(data.grammar)) {
      const { argv, dynamic } = cmd;
      const words: IndexedWord[] = new Array<IndexedWord>(argv.length);
      for (let i = 0; i < argv.length; i++) words[i] = { value: argv[i]!, dynamic: dynamic.length > 0 && dynamic.includes(i), i };
      const r = readWords(words, data.grammar, program, 'all');
      for (const f of r.files) {
        const walked = cmd.walk !== undefined && cmd.walk.indices.includes(f.word.i) ? cmd.walk.under : null;
        if (walked !== null && walked.length > 0 && !walked.some((u) => u.dynamic)) {
          // `find DIR -exec rm {} ;`: every path found under DIR, all the way down.
          for (const u of walked) out.push(fact(u, false, f.access, true, cwd, env, true));
          continue;
        }
        const qt = cmd.quoted_tilde !== undefined && cmd.quoted_tilde.includes(f.word.i);
        out.push(fact(f.word, qt, f.access, f.recursive === true, cwd, env, f.contents === true));
      }
    }
  }
  if (cmd.redirs !== undefined) {
    for (const r of cmd.redirs) out.push(fact(r, r.quoted_tilde === true, r.access, false, cwd, env));
  }
  return out;
}

/** The paths a file-tool call touches (`tool.paths`, relative to the event's directory). */
export function toolPaths(paths: readonly ToolPath[], env: PathEnv): PathFact[] {
  return paths.map((p) => fact({ value: p.path, dynamic: false }, false, p.access, false, env.cwd, env));
}

// ---- globs in rules --------------------------------------------------------------------------

const globCache = new Map<string, RegExp>();

/**
 * A rule's path glob as a regular expression over an absolute path (`~` stands for the home
 * directory and is replaced before matching):
 * - `/…` and `~/…` are anchored; a pattern with no `/` (or starting with `**​/`) matches the
 *   path's last components anywhere (`.env`, `*.pem`, `.git/**`);
 * - `*` and `?` stay within one component, `**` crosses them, `{a,b}` is either; `DIR/**` is
 *   everything inside DIR (not DIR itself).
 */
export function globRegExp(pattern: string): RegExp {
  let re = globCache.get(pattern);
  if (re === undefined) {
    re = new RegExp(`^${globSource(pattern)}$`);
    globCache.set(pattern, re);
  }
  return re;
}

function globSource(pattern: string): string {
  let p = pattern;
  let prefix = '';
  if (p.startsWith('/')) prefix = '';
  else if (p.startsWith('**/')) {
    prefix = '(?:.*/)?';
    p = p.slice(3);
  } else prefix = '(?:.*/)?';
  let out = '';
  let brace = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') {
      if (p[i + 1] === '*') {
        // `/**/` crosses zero or more components; `**` elsewhere, anything.
        if (p[i + 2] === '/' && (i === 0 || p[i - 1] === '/')) {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      brace++;
      out += '(?:';
    } else if (c === '}' && brace > 0) {
      brace--;
      out += ')';
    } else if (c === ',' && brace > 0) out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  // `DIR/**` at the end: what is inside DIR.
  return prefix + out.replace(/\/\.\*$/, '/.+');
}

/** Whether `path` (absolute, normalised) matches the rule glob `pattern`. */
export function globMatches(pattern: string, path: string, home: string | null): boolean {
  if (pattern === '~' || pattern.startsWith('~/')) {
    if (home === null || !isWithin(path, home)) return false;
    return globTest(`${home === '/' ? '' : home}${pattern.slice(1)}`, path);
  }
  return globTest(pattern, path);
}

/** Whether `s` holds a glob character (`*`, `?`, `{`). */
export function hasGlobChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 42 || c === 63 || c === 123) return true;
  }
  return false;
}

/**
 * `globRegExp(pattern).test(path)`, with the common shapes of rule globs decided by string
 * comparison: a fixed path (`~/.aws/credentials`, `.cursor/hooks.json` anywhere) and a fixed
 * directory's contents (`/dev/**`, `~/.ssh/**`). A hook checks every path of a command against
 * dozens of such globs, each with the home directory filled in; as regular expressions each
 * was compiled on its first use in every hook process (about 60 for `rm -rf out`, a millisecond
 * and more; docs/performance.md). Other shapes use the expression. A property test checks the
 * two agree.
 */
export function globTest(pattern: string, path: string): boolean {
  const anchored = pattern.startsWith('/');
  const body = anchored ? pattern : pattern.startsWith('**/') ? pattern.slice(3) : pattern;
  if (!hasGlobChar(body)) return anchored ? path === body : endsWithComponents(path, body);
  if (body.endsWith('/**') && body.length > 3 && !hasGlobChar(body.slice(0, -3))) {
    const dir = `${body.slice(0, -2)}`; // with its trailing `/`
    if (anchored) return path.length > dir.length && path.startsWith(dir);
    // `(?:.*/)?DIR/.+`: DIR/ at the start or after a `/`, with something after it.
    for (let i = path.indexOf(dir); i >= 0; i = path.indexOf(dir, i + 1)) {
      if ((i === 0 || path.charCodeAt(i - 1) === 47) && path.length > i + dir.length) return true;
    }
    return false;
  }
  // A fixed directory and a last component with `*` only (`.env.*`, `.github/hooks/*.json`).
  const slash = body.lastIndexOf('/');
  const last = body.slice(slash + 1);
  const dir = body.slice(0, slash + 1);
  if (!hasGlobChar(dir) && !last.includes('?') && !last.includes('{') && !last.includes('**')) {
    const at = path.lastIndexOf('/');
    const name = path.slice(at + 1);
    if (!starMatch(last, name)) return false;
    const head = path.slice(0, at + 1);
    if (anchored) return head === dir;
    return dir === '' || endsWithComponents(head.slice(0, -1), dir.slice(0, -1));
  }
  return globRegExp(pattern).test(path);
}

/** Whether `name` (one component) matches `pat`, whose only glob character is `*`. */
function starMatch(pat: string, name: string): boolean {
  const parts = pat.split('*');
  const first = parts[0] as string;
  const lastPart = parts[parts.length - 1] as string;
  if (name.length < first.length + lastPart.length || !name.startsWith(first) || !name.endsWith(lastPart)) return false;
  let at = first.length;
  const end = name.length - lastPart.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const k = name.indexOf(parts[i] as string, at);
    if (k < 0 || k + (parts[i] as string).length > end) return false;
    at = k + (parts[i] as string).length;
  }
  return true;
}

/** The unanchored pattern TAIL matches: the path is TAIL, or ends with `/TAIL`. */
function endsWithComponents(path: string, tail: string): boolean {
  return path === tail || (path.endsWith(tail) && path.charCodeAt(path.length - tail.length - 1) === 47);
}

/**
 * Whether the path a command wrote as a glob (`~/.claude/*.json`, `.env*`, `~/.s*` followed by `/id_rsa`) can
 * name a file the rule pattern matches: the two are compared component by component (`**`
 * spans any number of them; a rule pattern without a leading `/` or `~` may start anywhere), and
 * two components overlap when one's pattern matches the other's fixed letters. Used for
 * conditions that select (`glob`, `location`), never for exclusions (`not_glob`): `cat ~/.ssh/*`
 * may name a private key even though it may also name `id_ed25519.pub`.
 */
export function globOverlaps(pattern: string, path: string, home: string | null): boolean {
  let rule = pattern;
  if (rule === '~' || rule.startsWith('~/')) {
    if (home === null) return false;
    rule = `${home === '/' ? '' : home}${rule.slice(1)}`;
  }
  const r = rule.startsWith('/') ? rule.slice(1).split('/') : ['**', ...rule.replace(/^\*\*\//, '').split('/')];
  const p = path.slice(1).split('/');
  return componentsOverlap(r, 0, p, 0, 0);
}

/** Bounded: a pattern has few `**`, and the walk gives up (no overlap) past 10 000 steps. */
function componentsOverlap(r: string[], i: number, p: string[], j: number, steps: number): boolean {
  if (steps > 10_000) return false;
  if (i === r.length) return j === p.length;
  if (r[i] === '**') return componentsOverlap(r, i + 1, p, j, steps + 1) || (j < p.length && componentsOverlap(r, i, p, j + 1, steps + 1));
  if (j === p.length) return false;
  if (p[j] === '**') return componentsOverlap(r, i, p, j + 1, steps + 1) || componentsOverlap(r, i + 1, p, j, steps + 1);
  return componentOverlaps(r[i]!, p[j]!) && componentsOverlap(r, i + 1, p, j + 1, steps + 1);
}

/** `a`: a rule's component; `b`: the command's. */
function componentOverlaps(a: string, b: string): boolean {
  if (!hasGlobChar(a) && !hasGlobChar(b)) return a === b;
  const fixed = (x: string): string => x.replace(/\{([^,}]*)[^}]*\}/g, '$1').replace(/\*/g, '').replace(/\?/g, 'x');
  // The shell's `*` and `?` do not match a leading dot: `src/*` names no `.env`.
  if (/^[*?[]/.test(b) && fixed(a).startsWith('.')) return false;
  return globRegExp(`/${a}`).test(`/${fixed(b)}`) || globRegExp(`/${b}`).test(`/${fixed(a)}`);
}

/**
 * Whether a path lies in one of the named locations: it matches one of the location's
 * patterns, or (touched recursively) it holds one (`rm -rf ~/.config/buckler/..` and
 * `rm -rf ~/.claude` hold `~/.claude/settings.json`).
 */
export function inLocation(pattern: string, p: { path: string | null; glob: boolean; recursive: boolean }, home: string | null): boolean {
  const path = p.path;
  if (path === null) return false;
  if (globMatches(pattern, path, home)) return true;
  if (p.glob && globOverlaps(pattern, path, home)) return true;
  if (p.recursive && !p.glob) {
    const abs = pattern === '~' || pattern.startsWith('~/') ? (home === null ? null : `${home === '/' ? '' : home}${pattern.slice(1)}`) : pattern;
    if (abs !== null && abs.startsWith('/')) {
      let end = 0;
      while (end < abs.length && !hasGlobChar(abs[end] as string)) end++;
      const fixed = abs.slice(0, end);
      if (isWithin(fixed, path)) return true;
    } else if (abs !== null) {
      // A pattern matched anywhere (`.claude/settings.json`): the path ends with its leading
      // components (`rm -rf .claude`, `rm -rf x/.claude`).
      const parts = abs.split('/');
      for (let k = 1; k < parts.length; k++) if (globMatches(parts.slice(0, k).join('/'), path, home)) return true;
    }
  }
  return false;
}
