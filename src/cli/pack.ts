/**
 * `buckler pack keygen|sign|install|list|remove|update|rollback`: signed pack bundles
 * (docs/pack-bundles.md). The publishing team makes a key pair and signs a folder of packs; each
 * machine trusts the team's public key in config.toml and installs the bundle from a file or an
 * http(s) URL. Every state change is verified first and refused as a whole, with the reason,
 * leaving the installed state exactly as it was.
 *
 * Installed state, in the bundles directory (src/paths.ts `bundlesDir`):
 *   <name>.bundle            the active bundle (what the loader reads)
 *   previous/<name>.bundle   the one it replaced, for rollback
 *   sources/<name>.json      where it came from, for update
 * Each file is replaced atomically (files/atomic.ts), under one lock (files/lock.ts).
 *
 * Verification happens here and when the packs cache is compiled, never on a warm hook.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic.ts';
import { acquireLock, LockBusyError } from '../files/lock.ts';
import { compareVersions, createBundle, generateKeys, isBundleName, MAX_BUNDLE_BYTES, readPrivateKey, shortKey } from '../packs/bundle.ts';
import { formatProblem, type Problem } from '../packs/problems.ts';
import { loadPolicyReport, type PolicyReport } from '../packs/runtime.ts';
import { builtinPacksDir, type Paths } from '../paths.ts';
import { loadBundle, parsePack, type LoadedPack } from '../packs/sources.ts';
import { parseCommand, usageError, type Parsed } from './args.ts';
import { showHelp } from './show-help.ts';
import type { CliIO } from './io.ts';
import { processPaths } from './process-paths.ts';

type Compiler = typeof import('../packs/compiler.ts');

class PackError extends Error {}

interface Installed {
  name: string;
  file: string;
  previous: string;
  record: string;
}

function installed(paths: Paths, name: string): Installed {
  const dir = paths.bundlesDir;
  return {
    name,
    file: path.join(dir, `${name}.bundle`),
    previous: path.join(dir, 'previous', `${name}.bundle`),
    record: path.join(dir, 'sources', `${name}.json`),
  };
}

interface SourceRecord {
  source: string;
  version: string;
  digest: string;
  installed_at: string;
}

function readRecord(file: string): SourceRecord | null {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SourceRecord>;
    return typeof r.source === 'string' ? (r as SourceRecord) : null;
  } catch {
    return null;
  }
}

/** Name and version as the (unverified) manifest states them; for comparing versions only. */
function peek(file: string): { name: string; version: string } | null {
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { manifest?: unknown };
    const m = JSON.parse(String(doc.manifest)) as { name?: unknown; version?: unknown };
    return typeof m.name === 'string' && typeof m.version === 'string' ? { name: m.name, version: m.version } : null;
  } catch {
    return null;
  }
}

/** A source for messages: a URL's password (or token) replaced by `***`. */
export function displaySource(source: string): string {
  try {
    const u = new URL(source);
    if (u.password === '') return source;
    u.password = '***';
    return u.toString();
  } catch {
    return source;
  }
}

const isUrl = (s: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(s);

/** The bundle's bytes from a file or an http(s) URL (Node's fetch; redirects followed). */
async function fetchBytes(source: string): Promise<Uint8Array> {
  if (!isUrl(source)) {
    try {
      const st = fs.statSync(source);
      if (st.size > MAX_BUNDLE_BYTES) throw new PackError(`${source} is larger than ${MAX_BUNDLE_BYTES} bytes`);
      return fs.readFileSync(source);
    } catch (e) {
      if (e instanceof PackError) throw e;
      throw new PackError(`cannot read ${source} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  const url = new URL(source);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PackError(`only http and https URLs can be fetched, not ${url.protocol}`);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(60_000), redirect: 'follow' });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new PackError(`cannot fetch ${displaySource(source)} (${cause?.code ?? cause?.message ?? (e as Error).message})`);
  }
  if (!res.ok) throw new PackError(`cannot fetch ${displaySource(source)} (HTTP ${res.status})`);
  const length = Number(res.headers.get('content-length') ?? '0');
  if (length > MAX_BUNDLE_BYTES) throw new PackError(`${displaySource(source)} is larger than ${MAX_BUNDLE_BYTES} bytes`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_BUNDLE_BYTES) throw new PackError(`${displaySource(source)} is larger than ${MAX_BUNDLE_BYTES} bytes`);
  return bytes;
}

function lock(paths: Paths): () => void {
  fs.mkdirSync(paths.bundlesDir, { recursive: true, mode: 0o755 });
  try {
    const held = acquireLock(path.join(paths.bundlesDir, 'bundles'));
    return () => held.release();
  } catch (e) {
    if (e instanceof LockBusyError) throw new PackError(`another 'buckler pack' is changing the bundles (${e.message})`);
    throw e;
  }
}

/** Problems (errors) in the candidate's packs when compiled with everything else. */
function candidateErrors(c: Compiler, report: PolicyReport, without: string, candidate: LoadedPack[]): Problem[] {
  const others = report.sources.flatMap((s) => s.packs).filter((p) => p.bundle?.name !== without);
  const files = new Set(candidate.map((p) => p.pack.file));
  const compiled = c.compilePolicy([...others, ...candidate].map((p) => p.pack), { tier: 'strict', packs: {}, examples: true });
  return compiled.problems.filter((p) => p.severity === 'error' && files.has(p.file));
}

interface Checked {
  name: string;
  version: string;
  key: string;
  digest: string;
  packs: LoadedPack[];
}

/**
 * Everything that decides whether `bytes` may become the active bundle: verified with the
 * keys trusted now, no pack id taken by another source, no broken rule, not a downgrade.
 * Throws PackError naming the reason; changes nothing.
 */
async function check(paths: Paths, bytes: Uint8Array, opts: { allowDowngrade: boolean; expectName?: string }): Promise<Checked> {
  const c = await import('../packs/compiler.ts');
  const report = await loadPolicyReport(paths, { examples: false });
  const problems: Problem[] = [];
  // Which name? Verified below; a peek only picks the pack ids to leave out of `taken`.
  let claimed = '';
  try {
    const doc = JSON.parse(Buffer.from(bytes).toString('utf8')) as { manifest?: unknown };
    claimed = String((JSON.parse(String(doc.manifest)) as { name?: unknown }).name ?? '');
  } catch {
    claimed = '';
  }
  if (opts.expectName !== undefined && claimed !== '' && claimed !== opts.expectName) {
    throw new PackError(`refused (name-mismatch): the bundle fetched is named "${claimed}", not "${opts.expectName}"`);
  }
  const taken = new Map<string, string>();
  for (const s of report.sources) for (const p of s.packs) if (p.bundle?.name !== claimed || claimed === '') taken.set(p.id, p.origin);
  const target = installed(paths, claimed || 'bundle');
  const loaded = loadBundle(c, target.file, bytes, report.config.trusted_keys ?? [], taken, problems);
  if ('refused' in loaded) throw new PackError(`refused (${loaded.refused.reason}): ${loaded.refused.message}`);
  if (opts.expectName !== undefined && loaded.name !== opts.expectName) {
    throw new PackError(`refused (name-mismatch): the bundle fetched is named "${loaded.name}", not "${opts.expectName}"`);
  }
  const syntax = problems.filter((p) => p.severity === 'error');
  const errors = [...syntax, ...candidateErrors(c, report, loaded.name, loaded.packs)];
  if (errors.length > 0) {
    throw new PackError(`refused (invalid): its packs have errors:\n${errors.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  }
  const current = peek(installed(paths, loaded.name).file);
  if (current !== null && compareVersions(loaded.version, current.version) < 0 && !opts.allowDowngrade) {
    throw new PackError(`refused (downgrade): version ${loaded.version} is older than the installed ${current.version} (--allow-downgrade to install it anyway)`);
  }
  return loaded;
}

/** Makes `bytes` the active bundle; the one it replaces becomes `previous/`. */
function activate(paths: Paths, bundle: Checked, bytes: Uint8Array, source: string | null): string | null {
  const t = installed(paths, bundle.name);
  fs.mkdirSync(path.dirname(t.previous), { recursive: true, mode: 0o755 });
  fs.mkdirSync(path.dirname(t.record), { recursive: true, mode: 0o755 });
  let replaced: string | null = null;
  let old: Buffer | null = null;
  try {
    old = fs.readFileSync(t.file);
  } catch {
    old = null;
  }
  const same = old !== null && old.equals(Buffer.from(bytes));
  if (old !== null && !same) {
    writeFileAtomic(t.previous, old, { mode: 0o644 });
    replaced = peek(t.previous)?.version ?? '?';
  }
  // The switch: one rename. A reader (the loader) sees the old bundle or the new one.
  if (!same) writeFileAtomic(t.file, bytes, { mode: 0o644 });
  const prior = readRecord(t.record);
  const record: SourceRecord = { source: source ?? prior?.source ?? '', version: bundle.version, digest: bundle.digest, installed_at: new Date().toISOString() };
  // 0600: a URL may carry a token (a pre-signed URL's query string).
  writeFileAtomic(t.record, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return replaced;
}

function describe(b: Checked): string {
  return `${b.name} ${b.version} (packs: ${b.packs.map((p) => p.id).join(', ')}; signed by ${shortKey(b.key)})`;
}

async function installFrom(paths: Paths, source: string, io: CliIO, opts: { allowDowngrade: boolean; expectName?: string }): Promise<void> {
  const where = isUrl(source) ? source : path.resolve(io.cwd, source);
  const bytes = await fetchBytes(where);
  const release = lock(paths);
  try {
    const b = await check(paths, bytes, opts);
    const current = installed(paths, b.name);
    let same = false;
    try {
      same = fs.readFileSync(current.file).equals(Buffer.from(bytes));
    } catch {
      same = false;
    }
    if (same) {
      activate(paths, b, bytes, where);
      io.out(`${b.name} ${b.version} is already installed and up to date\n`);
      return;
    }
    const replaced = activate(paths, b, bytes, where);
    io.out(`installed bundle ${describe(b)} from ${displaySource(where)}${replaced === null ? '' : `; ${replaced} kept for 'buckler pack rollback ${b.name}'`}\n`);
  } finally {
    release();
  }
}

async function rollback(paths: Paths, name: string, io: CliIO): Promise<void> {
  const t = installed(paths, name);
  const release = lock(paths);
  try {
    let prev: Buffer;
    try {
      prev = fs.readFileSync(t.previous);
    } catch {
      throw new PackError(`no previous version of ${name} is kept; nothing to roll back to`);
    }
    const b = await check(paths, prev, { allowDowngrade: true, expectName: name });
    const from = peek(t.file)?.version ?? 'none';
    activate(paths, b, prev, null);
    io.out(`rolled back ${name}: ${from} -> ${b.version} (${from} kept; 'buckler pack rollback ${name}' again returns to it)\n`);
  } finally {
    release();
  }
}

function remove(paths: Paths, name: string, io: CliIO): void {
  const t = installed(paths, name);
  const release = lock(paths);
  try {
    const present = [t.file, t.previous, t.record].filter((f) => fs.existsSync(f));
    if (present.length === 0) throw new PackError(`no bundle named ${name} is installed ('buckler pack list' shows them)`);
    const version = peek(t.file)?.version;
    // The active bundle first: once it is gone nothing of it loads, whatever happens next.
    for (const f of [t.file, t.previous, t.record]) fs.rmSync(f, { force: true });
    io.out(`removed bundle ${name}${version === undefined ? '' : ` ${version}`} (its packs no longer load)\n`);
  } finally {
    release();
  }
}

function installedNames(paths: Paths): string[] {
  const names = new Set<string>();
  for (const [dir, ext] of [
    [paths.bundlesDir, '.bundle'],
    [path.join(paths.bundlesDir, 'sources'), '.json'],
  ] as const) {
    try {
      for (const f of fs.readdirSync(dir)) if (f.endsWith(ext)) names.add(f.slice(0, -ext.length));
    } catch {
      /* none */
    }
  }
  return [...names].sort();
}

async function update(paths: Paths, names: string[], io: CliIO, allowDowngrade: boolean): Promise<number> {
  const list = names.length > 0 ? names : installedNames(paths);
  if (list.length === 0) {
    io.out('no bundle installed; nothing to update\n');
    return 0;
  }
  let failed = 0;
  for (const name of list) {
    const record = readRecord(installed(paths, name).record);
    if (record === null || record.source === '') {
      io.err(`buckler pack update: ${name}: no recorded source (install it again with 'buckler pack install FILE|URL')\n`);
      failed++;
      continue;
    }
    try {
      await installFrom(paths, record.source, io, { allowDowngrade, expectName: name });
    } catch (e) {
      if (!(e instanceof PackError)) throw e;
      io.err(`buckler pack update: ${name}: ${e.message}; nothing changed\n`);
      failed++;
    }
  }
  return failed === 0 ? 0 : 1;
}

interface ListEntry {
  name: string;
  version: string | null;
  status: 'loaded' | 'refused';
  reason?: string;
  message?: string;
  packs: { id: string; enabled: boolean }[];
  key?: string;
  source: string | null;
  previous: string | null;
  file: string;
}

async function list(paths: Paths, io: CliIO, json: boolean): Promise<void> {
  const report = await loadPolicyReport(paths, { examples: false });
  const src = report.sources.find((s) => s.source === 'bundle');
  const entries: ListEntry[] = installedNames(paths)
    .filter((n) => fs.existsSync(installed(paths, n).file))
    .map((name) => {
      const t = installed(paths, name);
      const packs = src?.packs.filter((p) => p.bundle?.file === t.file) ?? [];
      const refused = src?.refused.find((r) => r.file === t.file);
      const entry: ListEntry = {
        name,
        version: peek(t.file)?.version ?? null,
        status: refused ? 'refused' : 'loaded',
        packs: packs.map((p) => ({ id: p.id, enabled: report.config.packs[p.id]?.enabled !== false })),
        source: ((s) => (s === undefined ? null : displaySource(s)))(readRecord(t.record)?.source),
        previous: fs.existsSync(t.previous) ? (peek(t.previous)?.version ?? '?') : null,
        file: t.file,
      };
      if (refused) {
        entry.reason = refused.reason;
        entry.message = refused.message;
      }
      const key = packs[0]?.bundle?.key;
      if (key !== undefined) entry.key = key;
      return entry;
    });
  if (json) {
    io.out(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) {
    io.out(`no bundle installed (${paths.bundlesDir})\n`);
    return;
  }
  for (const e of entries) {
    const packs = e.packs.map((p) => (p.enabled ? p.id : `${p.id} (off in config.toml)`)).join(', ');
    io.out(`${e.name} ${e.version ?? '?'}  ${e.status === 'loaded' ? `loaded: ${packs}; signed by ${shortKey(e.key ?? '')}` : `REFUSED (${e.reason}): ${e.message}`}\n`);
    io.out(`  source: ${e.source === null ? 'unknown' : displaySource(e.source)}${e.previous === null ? '' : `; previous: ${e.previous}`}\n`);
  }
}

async function keygen(out: string, io: CliIO): Promise<void> {
  const pub = `${out}.pub`;
  for (const f of [out, pub]) if (fs.existsSync(f)) throw new PackError(`${f} exists; not overwriting a key`);
  const { privatePem, publicKey } = generateKeys();
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // Never over a key that appeared meanwhile: checked again just before each rename.
  const fresh = (f: string) => (): void => {
    if (fs.existsSync(f)) throw new PackError(`${f} exists; not overwriting a key`);
  };
  writeFileAtomic(out, privatePem, { mode: 0o600, beforeRename: fresh(out) });
  writeFileAtomic(pub, `${publicKey}\n`, { mode: 0o644, beforeRename: fresh(pub) });
  io.out(
    `private key: ${out} (keep it secret: whoever has it can sign policy for every machine that trusts it)\n` +
      `public key:  ${pub}\n\nEach machine trusts it with this in config.toml:\n\n[bundles]\ntrusted_keys = ["${publicKey}"]\n`,
  );
}

async function signDir(dir: string, keys: string[], name: string, version: string, out: string, io: CliIO): Promise<void> {
  const c = await import('../packs/compiler.ts');
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
      .sort();
  } catch (e) {
    throw new PackError(`cannot read ${dir} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (names.length === 0) throw new PackError(`${dir} holds no *.yaml or *.yml pack`);
  const files: Record<string, string> = {};
  for (const n of names) files[n] = fs.readFileSync(path.join(dir, n), 'utf8');
  // The packs must load: checked against the builtin packs, every example run.
  const problems: Problem[] = [];
  const builtin = fs
    .readdirSync(builtinPacksDir())
    .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
    .sort()
    .map((n) => parsePack(c, path.join(builtinPacksDir(), n), n, true, fs.readFileSync(path.join(builtinPacksDir(), n), 'utf8'), []))
    .filter((p) => p !== null);
  const builtinIds = new Set(builtin.map((p) => c.readHeader(p.doc, { file: p.file, defaultId: p.name }).id));
  const mine = names.map((n) => parsePack(c, path.join(dir, n), n, false, files[n]!, problems)).filter((p) => p !== null);
  for (const p of mine) {
    const id = c.readHeader(p.doc, { file: p.file, defaultId: p.name }).id;
    if (builtinIds.has(id)) problems.push({ severity: 'error', file: p.file, message: `pack id "${id}" is a builtin pack's; a bundle pack needs its own id` });
  }
  const compiled = c.compilePolicy([...builtin, ...mine], { tier: 'strict', packs: {}, examples: true });
  const mineFiles = new Set(mine.map((p) => p.file));
  problems.push(...compiled.problems.filter((p) => mineFiles.has(p.file)));
  const errors = problems.filter((p) => p.severity === 'error');
  for (const p of problems) io.err(`${p.severity}: ${formatProblem(p)}\n`);
  if (errors.length > 0) throw new PackError(`not signed: ${errors.length} error${errors.length === 1 ? '' : 's'} in the packs`);
  let privateKeys;
  try {
    privateKeys = keys.map((k) => readPrivateKey(fs.readFileSync(k, 'utf8')));
  } catch (e) {
    throw new PackError(`the private key: ${(e as Error).message}`);
  }
  let text: string;
  try {
    text = createBundle({ name, version, files, privateKeys });
  } catch (e) {
    throw new PackError((e as Error).message);
  }
  writeFileAtomic(out, text, { mode: 0o644 });
  const rules = compiled.policy.rules.filter((r) => mine.some((m) => compiled.policy.packs.some((p) => p.id === r.pack && p.source === m.file))).length;
  io.out(`signed ${name} ${version}: ${names.length} pack file${names.length === 1 ? '' : 's'} (${rules} rules) -> ${out}\n`);
}

/** One subcommand, its arguments read; a PackError or a file-system error is the caller's. */
async function runSub(sub: string, parsed: Parsed, paths: Paths, usage: (msg: string) => number, io: CliIO): Promise<number> {
  const { values, operands: positionals } = parsed;
  const allowDowngrade = values['allow-downgrade'] === true;
  switch (sub) {
    case 'keygen': {
      const out = values.out as string | undefined;
      if (out === undefined || positionals.length > 0) return usage('give --out FILE');
      await keygen(path.resolve(io.cwd, out), io);
      return 0;
    }
    case 'sign': {
      const keys = (values.key as string[] | undefined) ?? [];
      const name = values.name as string | undefined;
      const version = values.version as string | undefined;
      if (positionals.length !== 1 || keys.length === 0 || name === undefined || version === undefined) {
        return usage('give DIR, --key FILE, --name NAME and --version X.Y.Z');
      }
      const out = (values.out as string | undefined) ?? `${name}-${version}.bundle`;
      await signDir(path.resolve(io.cwd, positionals[0]!), keys.map((k) => path.resolve(io.cwd, k)), name, version, path.resolve(io.cwd, out), io);
      return 0;
    }
    case 'install':
      if (positionals.length !== 1) return usage('give one FILE or URL');
      await installFrom(paths, positionals[0]!, io, { allowDowngrade });
      return 0;
    case 'list':
      if (positionals.length > 0) return usage('takes no arguments');
      await list(paths, io, values.json === true);
      return 0;
    case 'remove':
      if (positionals.length !== 1) return usage('give one NAME');
      remove(paths, positionals[0]!, io);
      return 0;
    case 'rollback':
      if (positionals.length !== 1) return usage('give one NAME');
      await rollback(paths, positionals[0]!, io);
      return 0;
    case 'update':
      if (values.rollback) {
        if (positionals.length === 0) return usage('--rollback needs the NAME of each bundle to roll back');
        for (const n of positionals) await rollback(paths, n, io);
        return 0;
      }
      return await update(paths, positionals, io, allowDowngrade);
  }
  return 2;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  if (args.length === 0) {
    await showHelp('pack', io);
    return 2;
  }
  const parsed = parseCommand('pack', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('pack', io);
  const sub = parsed.subcommand as string;
  const positionals = parsed.operands;
  const usage = (msg: string): number => usageError(io, `pack ${sub}`, msg);
  if (['remove', 'rollback', 'update'].includes(sub)) {
    const bad = positionals.find((n) => !isBundleName(n));
    if (bad !== undefined) return usage(`"${bad}" is not a bundle name`);
  }
  try {
    return await runSub(sub, parsed, processPaths(io.env), usage, io);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (!(e instanceof PackError) && typeof code === 'string') {
      // A file-system failure (a read-only data directory, a full disk): each file is replaced
      // atomically, so every installed file is whole, old or new.
      io.err(`buckler pack ${sub}: failed: ${(e as Error).message}\n`);
      return 1;
    }
    if (!(e instanceof PackError)) throw e;
    io.err(`buckler pack ${sub}: ${e.message}${['install', 'rollback', 'remove', 'update'].includes(sub) ? '; nothing changed' : ''}\n`);
    return 1;
  }
}
