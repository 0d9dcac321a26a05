/**
 * The directories a line may change to (`cd DIR`, `pushd DIR`), for consumers that read
 * something found from the working directory (git's repository config). Order is not
 * tracked: each target is listed, and relative targets also joined in line order.
 */
import type { ShellCommand } from './types.ts';

const CHANGERS = new Set(['cd', 'pushd']);
/** Directories listed at most; past that one unknown stands for the rest (bounded work). */
const MAX_DIRECTORIES = 32;

/** Literal directories the line's `cd`/`pushd` may go to; null for one known only at run time. */
export function changedDirectories(commands: readonly ShellCommand[]): (string | null)[] {
  const out: (string | null)[] = [];
  let joined: string | null = '';
  for (const c of commands) {
    if (c.opaque || !CHANGERS.has(c.argv[0] ?? '')) continue;
    if (out.length >= MAX_DIRECTORIES) {
      out.push(null);
      return out;
    }
    let i = 1;
    while (i < c.argv.length && /^-[LPe@]+$/.test(c.argv[i]!)) i++;
    if (c.argv[i] === '--') i++;
    const target = c.argv[i];
    // `cd` alone goes home (the user's config, read anyway); `cd -`, `pushd +1`: unknown.
    if (target === undefined) continue;
    const known = c.dynamic.includes(i) || target === '-' || /^[+-]\d+$/.test(target) ? null : target;
    out.push(known);
    if (known === null) joined = null;
    else if (joined !== null) {
      joined = known.startsWith('/') || joined === '' ? known : `${joined}/${known}`;
      if (!out.includes(joined)) out.push(joined);
    }
  }
  return out;
}
