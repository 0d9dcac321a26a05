/**
 * Project rules, the part that runs when the compiled-pack cache misses (and for validate,
 * explain, doctor, `buckler trust`): reads `.buckler/rules.d` safely, hashes it, compares the
 * digest with the trust store, and hands the packs to the compiler marked tighten-only
 * (untrusted) or extend-only (trusted). Reached through compiler.ts, so node:crypto stays off a
 * warm hook's path.
 *
 * What the agent controls here is everything in the repository, so every file is read with
 * care: the `.buckler` and `rules.d` directories must be real directories (not symbolic links),
 * each file a regular file opened without following a link (a link out of the project, to a
 * secret or to a FIFO, is refused, never read), at most 64 KiB, at most 32 files, valid UTF-8,
 * no YAML aliases. A refused or malformed file is reported and makes every action in the
 * project ask the person (`brokenProjectRule`): fail closed, which can loosen nothing.
 */
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import type { CompiledRule } from '../core/policy.ts';
import type { Problem } from './problems.ts';
import { MAX_PROJECT_FILE_BYTES, MAX_PROJECT_FILES, projectRulesDir } from './project-rules.ts';
import type { LoadContext, ProjectTrustOverride, SourceReport } from './source-contract.ts';
import { packId, parsePack } from './sources.ts';

/** One entry of `.buckler/rules.d` as read now. */
export interface ProjectFile {
  name: string;
  file: string;
  /** The file's bytes; null when refused. */
  bytes: Buffer | null;
  /** Why it was not read. */
  refused?: string;
}

export interface ProjectRead {
  root: string;
  dir: string;
  /** The rules directory exists (a symlink in its place counts: it is refused). */
  exists: boolean;
  /** Why the whole directory was refused. */
  refused?: string;
  files: ProjectFile[];
}

const { O_RDONLY } = fs.constants;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

const isPackFile = (name: string): boolean => name.endsWith('.yaml') || name.endsWith('.yml');

function realDirectory(dir: string): string | null | 'absent' {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir, { throwIfNoEntry: false });
  } catch (e) {
    return `cannot be inspected (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  if (st === undefined) return 'absent';
  if (st.isSymbolicLink()) return 'is a symbolic link (project rules must live in the project itself)';
  if (!st.isDirectory()) return 'is not a directory';
  return null;
}

function readOne(file: string): { bytes: Buffer } | { refused: string } {
  let fd: number;
  try {
    // Where there is no O_NOFOLLOW (Windows), ask first.
    if (O_NOFOLLOW === 0 && fs.lstatSync(file).isSymbolicLink()) return { refused: 'is a symbolic link (project rule files must be regular files in the project)' };
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { refused: 'is a symbolic link (project rule files must be regular files in the project)' };
    return { refused: `cannot be opened (${code ?? String(e)})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { refused: 'is not a regular file' };
    if (st.size > MAX_PROJECT_FILE_BYTES) return { refused: `is ${st.size} bytes, over the ${MAX_PROJECT_FILE_BYTES / 1024} KiB limit for a project rules file` };
    // Read at most one byte past the limit: a file that grows while read is refused too.
    const buf = Buffer.alloc(MAX_PROJECT_FILE_BYTES + 1);
    let n = 0;
    for (;;) {
      const r = fs.readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n === buf.length) return { refused: `is over the ${MAX_PROJECT_FILE_BYTES / 1024} KiB limit for a project rules file` };
    }
    const bytes = buf.subarray(0, n);
    if (!isUtf8(bytes)) return { refused: 'is not valid UTF-8' };
    return { bytes };
  } catch (e) {
    return { refused: `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads a project's rules directory as the hook would, refusing what it must not read. */
export function readProjectRules(root: string): ProjectRead {
  const dir = projectRulesDir(root);
  const out: ProjectRead = { root, dir, exists: false, files: [] };
  const top = realDirectory(path.join(root, '.buckler'));
  if (top === 'absent') return out;
  const rules = top === null ? realDirectory(dir) : top;
  if (rules === 'absent') return out;
  out.exists = true;
  if (rules !== null) {
    out.refused = `${top === null ? dir : path.join(root, '.buckler')} ${rules}`;
    return out;
  }
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter(isPackFile).sort();
  } catch (e) {
    out.refused = `${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
    return out;
  }
  names.forEach((name, i) => {
    const file = path.join(dir, name);
    if (i >= MAX_PROJECT_FILES) {
      out.files.push({ name, file, bytes: null, refused: `is past the limit of ${MAX_PROJECT_FILES} project rules files` });
      return;
    }
    const r = readOne(file);
    out.files.push('bytes' in r ? { name, file, bytes: r.bytes } : { name, file, bytes: null, refused: r.refused });
  });
  return out;
}

/** `sha256:…` over every entry's name and bytes (a refused entry by its name and reason). */
export function projectDigest(read: ProjectRead): string {
  const h = createHash('sha256');
  h.update(`buckler-project-rules v1\0${read.refused ?? ''}\0${read.files.length}\0`);
  for (const f of read.files) {
    h.update(`${f.name}\0`);
    if (f.bytes === null) h.update(`!${f.refused ?? ''}\0`);
    else {
      h.update(`${f.bytes.length}\0`);
      h.update(f.bytes);
    }
  }
  return `sha256:${h.digest('hex')}`;
}

/** One trusted project in the trust store. */
export interface TrustEntry {
  digest: string;
  /** The rule files trusted (names), for `buckler trust --list`. */
  files: string[];
  /** ISO 8601. */
  trusted_at: string;
}

export interface TrustStore {
  version: 1;
  projects: Record<string, TrustEntry>;
}

const isEntry = (v: unknown): v is TrustEntry =>
  typeof v === 'object' && v !== null && typeof (v as TrustEntry).digest === 'string' && Array.isArray((v as TrustEntry).files) && typeof (v as TrustEntry).trusted_at === 'string';

/**
 * The trust store, or an empty one (absent, unreadable, malformed, or a symbolic link: no
 * project is trusted then; never an error that could switch anything off). `problem` says why
 * when it exists but could not be used.
 */
export function readTrustStore(file: string): { store: TrustStore; problem?: string } {
  const store: TrustStore = { version: 1, projects: {} };
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { store };
    return { store, problem: code === 'ELOOP' ? 'the trust store is a symbolic link; no project is trusted' : `the trust store cannot be opened (${code ?? String(e)})` };
  }
  let text: string;
  try {
    if (!fs.fstatSync(fd).isFile()) return { store, problem: 'the trust store is not a regular file; no project is trusted' };
    text = fs.readFileSync(fd, 'utf8');
  } catch (e) {
    return { store, problem: `the trust store cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  } finally {
    fs.closeSync(fd);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { store, problem: 'the trust store is not valid JSON; no project is trusted' };
  }
  const projects = typeof data === 'object' && data !== null ? (data as { projects?: unknown }).projects : undefined;
  if ((data as { version?: unknown } | null)?.version !== 1 || typeof projects !== 'object' || projects === null) {
    return { store, problem: 'the trust store does not have the expected shape; no project is trusted' };
  }
  for (const [root, e] of Object.entries(projects)) if (isEntry(e) && path.isAbsolute(root)) store.projects[root] = e;
  return { store };
}

/**
 * The `project` source's `load()` (project-rules.ts `projectSource`). `assume` (buckler test
 * only) fixes the trust for this load without reading the trust store.
 */
export function loadProject(root: string, trustFile: string, { c, problems, taken }: LoadContext, assume?: ProjectTrustOverride): SourceReport {
  const read = readProjectRules(root);
  const report: SourceReport = { source: 'project', dir: read.dir, files: [], packs: [], refused: [] };
  if (!read.exists) return report;
  const digest = projectDigest(read);
  let trusted: boolean;
  let changed = false;
  if (assume !== undefined) trusted = assume === 'trusted';
  else {
    const { store, problem } = readTrustStore(trustFile);
    if (problem !== undefined) problems.push({ severity: 'warning', file: trustFile, message: problem });
    const recorded = store.projects[root]?.digest;
    trusted = recorded === digest;
    changed = recorded !== undefined && !trusted;
  }
  report.project = { root, trusted, digest, changed, ...(assume !== undefined ? { assumed: true } : {}) };
  const origin = trusted ? 'project (trusted)' : 'project (untrusted)';
  const refuse = (file: string, reason: string, message: string): void => {
    report.refused.push({ file, reason, message });
    problems.push({ severity: 'error', file, message: `project rules refused: ${message}`, dropped: true });
  };
  if (read.refused !== undefined) {
    refuse(read.dir, 'unsafe', read.refused);
    return report;
  }
  const own = new Set<string>();
  for (const f of read.files) {
    report.files.push(f.file);
    if (f.bytes === null) {
      refuse(f.file, 'unsafe', `${f.name} ${f.refused ?? 'was not read'}`);
      continue;
    }
    const src = parsePack(c, f.file, f.name, false, f.bytes.toString('utf8'), problems, true);
    if (!src) continue;
    const id = packId(c, src);
    const clash = taken.get(id) ?? (own.has(id) ? origin : undefined);
    if (clash !== undefined) {
      refuse(f.file, 'collision', `its pack "${id}" collides with the pack "${id}" already loaded from ${clash}; give it another "pack:" id`);
      continue;
    }
    own.add(id);
    if (trusted) src.extendOnly = true;
    else src.tighten = true;
    report.packs.push({ pack: src, id, source: 'project', origin });
  }
  for (const id of own) taken.set(id, origin);
  return report;
}

/** Whether a problem concerns a file in this project's rules directory. */
export function isProjectProblem(p: Problem, dir: string): boolean {
  return p.file === dir || p.file.startsWith(dir + path.sep);
}

/**
 * What a malformed or refused project rules file turns into: every action in the project asks
 * the person (tighten-only, so a builtin or user deny still denies), saying which file and why.
 * Its rules could only have made decisions more severe; asking instead can loosen nothing.
 */
export function brokenProjectRule(root: string, first: string, count: number): CompiledRule {
  const more = count > 1 ? ` (and ${count - 1} more problem${count > 2 ? 's' : ''})` : '';
  return {
    id: 'project/rules-unreadable',
    pack: 'project',
    triggers: ['pre_shell_exec', 'pre_shell_tool'],
    action: 'ask',
    priority: 0,
    tier: 'baseline',
    shell_segments: null,
    tool_name: null,
    env: null,
    user_message: `Buckler: the project rules in ${projectRulesDir(root)} could not all be loaded: ${first}${more}. Until they are fixed or removed, every action in this project asks you first. Run \`buckler validate\` in the project.`,
    agent_message: `The project's Buckler rules (.buckler/rules.d) are malformed, so every action here needs the person's approval: ${first}. Fix the file (the person must approve the edit).`,
    additional_context: null,
    tighten: true,
  };
}
