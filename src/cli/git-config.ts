/**
 * git's aliases where a command runs: the repository's config (found from the working
 * directory upward, or `GIT_DIR` from the harness's environment, never the agent's line) and
 * the user's (`GIT_CONFIG_GLOBAL`, else `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`; the
 * system file only when `GIT_CONFIG_SYSTEM` names one),
 * following `include.path` and `includeIf.*.path` (every condition taken as true: reading more
 * aliases is the safe side). Handed to the core as `EvaluateOptions.readAliases`, which calls
 * it only when a command uses a word that may be an alias, so a typical hook reads nothing.
 *
 * Bounded: files of at most MAX_CONFIG_BYTES, at most MAX_CONFIG_FILES of them, includes at
 * most MAX_INCLUDE_DEPTH deep (git's own limit), opened non-blocking and read only when they
 * are regular files (a FIFO never blocks a hook). A file that exists but cannot be read within
 * these bounds makes the table incomplete: the name `*` (never a valid alias name) then says
 * that any word may be an alias of unknown value, and the core asks.
 *
 * The parser is small and hand-written: the npm packages for this (`parse-git-config`,
 * `gitconfiglocal`) read git config as INI and get git's quoting, `\` escapes, line
 * continuations and comments inside values wrong, which is exactly where an agent would hide
 * an alias; isomorphic-git's parser comes with the whole of isomorphic-git. It follows
 * config.c's grammar and is checked against `git config --list` on a table of texts
 * (git-config.test.ts).
 */
import path from 'node:path';
import fs from 'node:fs';
import type { AliasReader } from '../core/aliases.ts';
import { ANY_ALIAS } from '../core/contract.ts';
import { readSmallFile } from './script-reader.ts';

export const MAX_CONFIG_BYTES = 64 * 1024;
export const MAX_CONFIG_FILES = 16;
export const MAX_INCLUDE_DEPTH = 10;
export { ANY_ALIAS };

export interface ConfigEntry {
  /** `section.key` or `section.subsection.key`; section and key lower-cased, subsection as written. */
  key: string;
  /** null for a key without `=` (a boolean true). */
  value: string | null;
}

export interface ParsedConfig {
  entries: ConfigEntry[];
  /** The text has a syntax error at this line (git refuses the file; entries before it are kept). */
  errorLine?: number;
}

const isAlpha = (c: string): boolean => /^[A-Za-z]$/.test(c);
const isKeyChar = (c: string): boolean => /^[A-Za-z0-9-]$/.test(c);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

/** A read position in config text (config.c's `get_next_char`): past the end, every read is a newline. */
class ConfigReader {
  private i = 0;
  line = 1;
  constructor(private readonly text: string) {}
  get done(): boolean {
    return this.i >= this.text.length;
  }
  next(): string {
    if (this.i >= this.text.length) {
      this.i++;
      return '\n';
    }
    const c = this.text[this.i++]!;
    if (c === '\n') this.line++;
    return c;
  }
  skipLine(): void {
    while (!this.done && this.next() !== '\n');
  }
}

/** Parses git config text (config.c's `git_parse_source`). */
export function parseGitConfig(input: string): ParsedConfig {
  // get_next_char: "\r\n" reads as "\n"; a leading UTF-8 BOM is skipped.
  const r = new ConfigReader((input.startsWith('\uFEFF') ? input.slice(1) : input).replace(/\r\n/g, '\n'));
  const entries: ConfigEntry[] = [];
  let section = '';
  while (!r.done) {
    const c = r.next();
    if (c === '\n' || isSpace(c)) continue;
    if (c === '#' || c === ';') {
      r.skipLine();
      continue;
    }
    if (c === '[') {
      const s = parseSection(r);
      if (s === null) return { entries, errorLine: r.line };
      section = s;
      continue;
    }
    const entry = isAlpha(c) ? parseEntry(r, c, section) : null;
    if (entry === null) return { entries, errorLine: r.line };
    entries.push(entry);
  }
  return { entries };
}

/** A `name [= value]` line whose name starts with `first`, in `section`; null: a syntax error. */
function parseEntry(r: ConfigReader, first: string, section: string): ConfigEntry | null {
  let name = first.toLowerCase();
  let d = r.next();
  while (isKeyChar(d)) {
    name += d.toLowerCase();
    d = r.next();
  }
  while (d === ' ' || d === '\t') d = r.next();
  // git accepts a key before any section (its name is the key alone).
  const key = section === '' ? name : `${section}.${name}`;
  if (d === '\n') return { key, value: null };
  if (d !== '=') return null;
  const v = parseValue(r);
  return v === null ? null : { key, value: v };
}

function parseSection(r: ConfigReader): string | null {
  let name = '';
  for (;;) {
    const c = r.next();
    if (c === ']') return name === '' ? null : name;
    if (c === '\n') return null;
    if (isSpace(c)) return name === '' ? null : parseSubsection(r, name);
    if (!isKeyChar(c) && c !== '.') return null;
    name += c.toLowerCase();
  }
}

function parseSubsection(r: ConfigReader, base: string): string | null {
  let c: string;
  do c = r.next();
  while (c === ' ' || c === '\t');
  if (c !== '"') return null;
  let sub = '';
  for (;;) {
    c = r.next();
    if (c === '\n') return null;
    if (c === '"') break;
    if (c === '\\') {
      c = r.next();
      if (c === '\n') return null;
    }
    sub += c;
  }
  return r.next() === ']' ? `${base}.${sub}` : null;
}

/** A `\` escape inside a value, after the backslash: the character it stands for; '' for a line continuation; null: invalid. */
function escaped(c: string): string | null {
  if (c === '\n') return '';
  if (c === 't') return '\t';
  if (c === 'b') return '\b';
  if (c === 'n') return '\n';
  return c === '\\' || c === '"' ? c : null;
}

function parseValue(r: ConfigReader): string | null {
  let value = '';
  let spaces = 0;
  let quote = false;
  let comment = false;
  for (;;) {
    const c = r.next();
    if (c === '\n') return quote ? null : value;
    if (comment) continue;
    if (isSpace(c) && !quote) {
      if (value.length > 0) spaces++;
      continue;
    }
    if (!quote && (c === ';' || c === '#')) {
      comment = true;
      continue;
    }
    value += ' '.repeat(spaces);
    spaces = 0;
    if (c === '\\') {
      const e = escaped(r.next());
      if (e === null) return null;
      value += e;
      continue;
    }
    if (c === '"') quote = !quote;
    else value += c;
  }
}

/** Environment variables this reader honours (the harness's, never the agent's line). */
export type ConfigEnv = Readonly<Record<string, string | undefined>>;

/**
 * Aliases of git where `cwd` is, by lower-cased name, lowest precedence first; `include` is a
 * further file the line includes (absolute, `~/…`, or relative: tried against the working
 * directory and the git directory).
 */
export function readGitAliases(cwd: string, env: ConfigEnv, include?: string): Record<string, string[]> {
  const aliases: Record<string, string[]> = {};
  let files = 0;
  let incomplete = false;
  const home = env['HOME'];

  const readFile = (file: string, depth: number): void => {
    if (files >= MAX_CONFIG_FILES || depth > MAX_INCLUDE_DEPTH) {
      incomplete = true;
      return;
    }
    const read = readSmallFile(file, MAX_CONFIG_BYTES);
    if (read.kind === 'missing') return;
    files++;
    if (read.kind === 'refused') {
      incomplete = true;
      return;
    }
    for (const { key, value } of parseGitConfig(read.text).entries) {
      if (value === null) continue;
      const name = aliasName(key);
      if (name !== null) (aliases[name] ??= []).push(value);
      else if (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path'))) {
        const target = value.startsWith('~/') && home !== undefined ? path.join(home, value.slice(2)) : value;
        readFile(path.resolve(path.dirname(file), target), depth + 1);
      }
    }
  };

  // The system file only when a variable names it (the default one is the administrator's).
  const system = env['GIT_CONFIG_SYSTEM'];
  if (system !== undefined && system !== '') readFile(path.resolve(cwd, system), 0);
  const global = env['GIT_CONFIG_GLOBAL'];
  if (global !== undefined) readFile(path.resolve(cwd, global), 0);
  else {
    const xdg = env['XDG_CONFIG_HOME'] || (home !== undefined ? path.join(home, '.config') : undefined);
    if (xdg !== undefined) readFile(path.join(xdg, 'git', 'config'), 0);
    if (home !== undefined) readFile(path.join(home, '.gitconfig'), 0);
  }
  const gitDir = env['GIT_DIR'] !== undefined && env['GIT_DIR'] !== '' ? path.resolve(cwd, env['GIT_DIR']) : findGitDir(cwd);
  if (gitDir !== null) {
    const commonVar = env['GIT_COMMON_DIR'];
    const common = commonVar !== undefined && commonVar !== '' ? path.resolve(cwd, commonVar) : commonDir(gitDir);
    readFile(path.join(common, 'config'), 0);
    // The worktree's own config counts only with extensions.worktreeConfig; read it anyway.
    readFile(path.join(gitDir, 'config.worktree'), 0);
  }
  if (include !== undefined) {
    if (include.startsWith('~/') && home !== undefined) readFile(path.join(home, include.slice(2)), 0);
    else {
      readFile(path.resolve(cwd, include), 0);
      if (gitDir !== null && !path.isAbsolute(include)) readFile(path.resolve(gitDir, include), 0);
    }
  }
  if (incomplete) aliases[ANY_ALIAS] = [];
  return aliases;
}

/** `alias.x` (or `alias.x.command`, newer git's subsection form) → `x`, lower-cased. */
function aliasName(key: string): string | null {
  if (!key.startsWith('alias.')) return null;
  const rest = key.slice('alias.'.length);
  const sub = /^(.+)\.command$/.exec(rest);
  return (sub?.[1] ?? rest).toLowerCase();
}

/** The repository's git directory: `.git` (a directory, or a file `gitdir: …`) from `cwd` upward. */
function findGitDir(cwd: string): string | null {
  let dir = path.resolve(cwd);
  for (let guard = 0; guard < 256; guard++) {
    const dotGit = path.join(dir, '.git');
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(dotGit);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return dotGit;
    if (st?.isFile()) {
      const read = readSmallFile(dotGit, 4096);
      const m = read.kind === 'text' ? /^gitdir:\s*(.+?)\s*$/m.exec(read.text) : null;
      if (m?.[1] !== undefined) return path.resolve(dir, m[1]);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

/** A linked worktree's git directory names the shared one in `commondir`. */
function commonDir(gitDir: string): string {
  const read = readSmallFile(path.join(gitDir, 'commondir'), 4096);
  if (read.kind !== 'text' || read.text.trim() === '') return gitDir;
  return path.resolve(gitDir, read.text.trim());
}

/**
 * `EvaluateOptions.readAliases` for a command run in `cwd` with the harness's `env`: git's
 * aliases (also in another directory, or with variables the line sets), nothing for other programs.
 */
export function gitAliasReader(cwd: string, env: ConfigEnv): AliasReader {
  return (program, where) => {
    if (program !== 'git') return null;
    const dir = where?.dir === undefined ? cwd : path.resolve(cwd, where.dir);
    return readGitAliases(dir, where?.env === undefined ? env : { ...env, ...where.env }, where?.include);
  };
}
