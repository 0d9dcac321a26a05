/**
 * Where packs come from. The loader knows no special cases, only sources, in load order:
 * `builtin` (the packs shipped with Buckler), `user` (rules.d), `bundle` (signed pack bundles
 * installed with `buckler pack install`, docs/pack-bundles.md), and, for a hook in a project that
 * has them, `project` (`.buckler/rules.d` in the repository, docs/project-rules.md;
 * project-rules.ts and project-load.ts).
 *
 * Each source does two things:
 *  - `listing()`: the cheap part, on the hook path: which files it would read, with their stat,
 *    for the compiled-pack cache key (cache.ts). Nothing is parsed or verified here.
 *  - `load()`: only when the cache misses (and for validate, doctor, `pack`): reads, verifies
 *    and parses, and reports what it loaded and what it refused, and why.
 *
 * Pack ids are unique across sources: a bundle pack whose id is already loaded (builtin, user
 * or an earlier bundle) gets its whole bundle refused, so a bundle can neither shadow nor
 * half-replace a pack someone else wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FileState } from './file-state.ts';
import type { PackSource } from './compile.ts';
import type { BucklerConfig } from './config.ts';
import type { Problem } from './problems.ts';
import type { LoadContext, LoadedPack, PackCompiler, PackSourceProvider, Refusal, SourceName, SourceReport } from './source-contract.ts';

export type { LoadContext, LoadedPack, PackSourceProvider, ProjectState, Refusal, SourceName, SourceReport } from './source-contract.ts';

const PACK_FILE = /\.ya?ml$/;
/** `PACK_FILE.test`, without compiling a regular expression on the hook path. */
const isPackFile = (name: string): boolean => name.endsWith('.yaml') || name.endsWith('.yml');
const isBundleFile = (name: string): boolean => name.endsWith('.bundle');

export function fileState(file: string): FileState {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return { path: file, stat: st ? { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs } : null };
  } catch {
    return { path: file, stat: null };
  }
}

function listing(dir: string, want: (name: string) => boolean): { dir: string; files: FileState[] | null } {
  let names: string[] | null = null;
  // Most people have no rules or bundles directory: asking first spares building an ENOENT
  // error (with its stack) on every hook.
  if (fs.existsSync(dir)) {
    try {
      names = fs.readdirSync(dir).filter(want).sort();
    } catch {
      names = null;
    }
  }
  return { dir, files: names === null ? null : names.map((n) => fileState(path.join(dir, n))) };
}

function listFiles(dir: string, want: (name: string) => boolean, problems: Problem[], required: boolean): string[] {
  try {
    return fs.readdirSync(dir).filter(want).sort();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return [];
    problems.push({ severity: 'error', file: dir, message: `cannot read the packs directory (${code ?? String(e)})` });
    return [];
  }
}

export function readText(file: string, problems: Problem[], optional: boolean): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (optional && code === 'ENOENT') return null;
    problems.push({ severity: 'error', file, message: `cannot read the file (${code ?? String(e)})` });
    return null;
  }
}

/** YAML text → a pack ready to compile, or null (the syntax error is in `problems`). */
export function parsePack(c: PackCompiler, file: string, name: string, builtin: boolean, text: string, problems: Problem[], noAliases = false): PackSource | null {
  try {
    const { doc, lines, documents, aliases } = c.parseYaml(text, file);
    if (noAliases && aliases > 0) {
      problems.push({ severity: 'error', file, message: 'uses YAML aliases (*name), which project rules may not (file skipped)', dropped: true });
      return null;
    }
    if (documents > 1) problems.push({ severity: 'warning', file, message: 'holds several YAML documents; only the first is read' });
    return { file, name: name.replace(PACK_FILE, ''), builtin, doc, lines };
  } catch (e) {
    if (!(e instanceof c.YamlSyntaxError)) throw e;
    const p: Problem = { severity: 'error', file, message: `${e.message} (file skipped)`, dropped: true };
    if (e.line !== undefined) p.line = e.line;
    problems.push(p);
    return null;
  }
}

export const packId = (c: PackCompiler, src: PackSource): string => c.readHeader(src.doc, { file: src.file, defaultId: src.name }).id;

/** A directory of YAML packs: the builtin packs (required) or rules.d (optional). */
export function directorySource(name: 'builtin' | 'user', dir: string): PackSourceProvider {
  const builtin = name === 'builtin';
  return {
    name,
    dir,
    listing: () => listing(dir, isPackFile),
    load({ c, problems, taken }) {
      const report: SourceReport = { source: name, dir, files: [], packs: [], refused: [] };
      for (const f of listFiles(dir, isPackFile, problems, builtin)) {
        const file = path.join(dir, f);
        report.files.push(file);
        const text = readText(file, problems, false);
        const src = text === null ? null : parsePack(c, file, f, builtin, text, problems);
        if (!src) continue;
        const id = packId(c, src);
        // Same id twice among builtin and user packs: both load, as before; the compiler
        // reports duplicate rule ids. Only bundles are refused on a collision.
        if (!taken.has(id)) taken.set(id, name);
        report.packs.push({ pack: src, id, source: name, origin: name });
      }
      return report;
    },
  };
}

/**
 * Installed pack bundles: every `<name>.bundle` in the bundles directory, verified against the
 * keys trusted in config.toml now (so a key removed from trust unloads its bundles at the next
 * compile: config.toml is part of the cache key).
 */
export function bundleSource(dir: string): PackSourceProvider {
  return {
    name: 'bundle',
    dir,
    listing: () => listing(dir, isBundleFile),
    load({ c, config, problems, taken }) {
      const report: SourceReport = { source: 'bundle', dir, files: [], packs: [], refused: [] };
      const refuse = (file: string, reason: string, message: string): void => {
        report.refused.push({ file, reason, message });
        problems.push({ severity: 'error', file, message: `bundle refused: ${message}; none of its packs is loaded` });
      };
      for (const f of listFiles(dir, isBundleFile, problems, false)) {
        const file = path.join(dir, f);
        report.files.push(file);
        let bytes: Buffer;
        try {
          bytes = fs.readFileSync(file);
        } catch (e) {
          refuse(file, 'unreadable', `cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
          continue;
        }
        const loaded = loadBundle(c, file, bytes, config.trusted_keys ?? [], taken, problems);
        if ('refused' in loaded) {
          refuse(file, loaded.refused.reason, loaded.refused.message);
          continue;
        }
        if (`${loaded.name}.bundle` !== f) {
          refuse(file, 'name-mismatch', `the bundle inside is named "${loaded.name}", not "${f.slice(0, -'.bundle'.length)}" (install bundles with 'buckler pack install')`);
          continue;
        }
        for (const p of loaded.packs) taken.set(p.id, p.origin);
        report.packs.push(...loaded.packs);
      }
      return report;
    },
  };
}

/**
 * One bundle's bytes → its packs, or why it is refused: not verified (bundle.ts) or a pack id
 * already in `taken`. Leaves `taken` unchanged. Used by the loader and by `pack install`.
 */
export function loadBundle(
  c: PackCompiler,
  file: string,
  bytes: Uint8Array,
  trustedKeys: readonly string[],
  taken: ReadonlyMap<string, string>,
  problems: Problem[],
): { name: string; version: string; key: string; digest: string; packs: LoadedPack[] } | { refused: { reason: string; message: string } } {
  let v: ReturnType<PackCompiler['verifyBundle']>;
  try {
    v = c.verifyBundle(bytes, trustedKeys);
  } catch (e) {
    if (e instanceof c.BundleRefused) return { refused: { reason: e.reason, message: e.message } };
    throw e;
  }
  const { name, version } = v.manifest;
  const origin = `bundle ${name} ${version}`;
  const packs: LoadedPack[] = [];
  const own = new Set<string>();
  for (const f of v.files) {
    const src = parsePack(c, path.join(file, f.path), f.path, false, f.text, problems);
    if (!src) continue;
    // Not the person's own config: its `programs:` may extend program data, never replace it.
    src.extendOnly = true;
    // Its rules rank as the person's own, but none lets through what a guard pack denies.
    src.bundle = true;
    const id = packId(c, src);
    const clash = taken.get(id) ?? (own.has(id) ? origin : undefined);
    if (clash !== undefined) {
      return { refused: { reason: 'collision', message: `its pack "${id}" (${f.path}) collides with the pack "${id}" already loaded from ${clash}` } };
    }
    own.add(id);
    packs.push({ pack: src, id, source: 'bundle', origin, bundle: { name, version, key: v.key, file } });
  }
  return { name, version, key: v.key, digest: v.digest, packs };
}
