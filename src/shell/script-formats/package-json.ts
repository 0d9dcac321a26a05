/**
 * package.json scripts (`npm run NAME`, `npm test`, `pnpm NAME`, `yarn NAME`, `bun run NAME`):
 * a pure reader, text in, shell text out. The I/O of finding and reading the file stays with
 * the caller (src/cli's script reader); the repository scan can use the same reader.
 */
import type { ScriptPiece } from './piece.ts';

/** How each package manager runs a script: the words that name one, and what else it may run. */
export interface PackageRunner {
  /** Subcommands whose first operand is a script name (`npm run NAME`). */
  run: readonly string[];
  /** Subcommands that run the script of their own name (`npm test`). */
  direct: Readonly<Record<string, string>>;
  /** A bare operand that names a script runs it (`yarn build`, `pnpm lint`, `bun dev`). */
  bare: boolean;
  /** Options that make it run another package's scripts (not read: unseen). */
  elsewhere: readonly string[];
}

/** Program data: which subcommands run package.json scripts. */
export const PACKAGE_RUNNERS: Readonly<Record<string, PackageRunner>> = {
  npm: {
    run: ['run', 'run-script', 'rum', 'urn'],
    direct: { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop', restart: 'restart' },
    bare: false,
    elsewhere: ['--prefix', '-C', '--workspace', '-w', '--workspaces', '-ws', '--include-workspace-root'],
  },
  pnpm: {
    run: ['run', 'run-script'],
    direct: { test: 'test', t: 'test', tst: 'test', start: 'start', restart: 'restart' },
    bare: true,
    elsewhere: ['--dir', '-C', '--filter', '-F', '--recursive', '-r', '--workspace-root', '-w'],
  },
  yarn: {
    run: ['run'],
    direct: { test: 'test', start: 'start' },
    bare: true,
    elsewhere: ['--cwd', 'workspace', 'workspaces'],
  },
  bun: {
    run: ['run'],
    direct: { test: 'test', start: 'start' },
    bare: false,
    elsewhere: ['--cwd', '--filter', '-F'],
  },
};

/** The `scripts` of a package.json; null when the text is not a JSON object (npm refuses it). */
export function packageScripts(text: string): Map<string, string> | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const out = new Map<string, string>();
  const scripts = (doc as Record<string, unknown>)['scripts'];
  if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return out;
  for (const [k, v] of Object.entries(scripts as Record<string, unknown>)) if (typeof v === 'string') out.set(k, v);
  return out;
}

/**
 * The scripts running NAME runs, in order: `preNAME`, NAME, `postNAME` (npm's lifecycle; the
 * others run them on request, so all are judged). Empty when NAME is not a script.
 */
export function scriptsRun(scripts: ReadonlyMap<string, string>, name: string): Array<{ name: string; text: string }> {
  const main = scripts.get(name);
  if (main === undefined) return [];
  const out: Array<{ name: string; text: string }> = [];
  for (const n of [`pre${name}`, name, `post${name}`]) {
    const t = scripts.get(n);
    if (t !== undefined) out.push({ name: n, text: t });
  }
  return out;
}

/**
 * Every script of a package.json as a shell piece, with where its value stands in the file (the
 * repository scan's view); null when the text is not a package.json npm would read.
 */
export function packagePieces(text: string): ScriptPiece[] | null {
  const scripts = packageScripts(text);
  if (scripts === null) return null;
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const where = (offset: number): readonly [number, number] => {
    let k = lineStarts.length - 1;
    while (k > 0 && (lineStarts[k] as number) > offset) k--;
    return [k + 1, offset - (lineStarts[k] as number) + 1];
  };
  const block = /"scripts"\s*:\s*\{/.exec(text);
  const from = block === null ? 0 : block.index;
  const out: ScriptPiece[] = [];
  for (const [name, value] of scripts) {
    const key = new RegExp(`${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*:\\s*"`, 'g');
    key.lastIndex = from;
    const m = key.exec(text);
    const at = where(m === null ? from : m.index + m[0].length);
    out.push({ label: `script "${name}"`, text: value, at: [at] });
  }
  return out;
}
