/**
 * File paths named by a patch in the "apply_patch" envelope format (Codex, and the harnesses
 * that copied it): `*** Add File: P`, `*** Update File: P`, `*** Delete File: P`, and
 * `*** Move to: P` after an update. Only header lines count; a hunk's body lines start with
 * ` `, `+` or `-`, so patch content cannot fake a header.
 */

import type { Access, ToolPath } from '../core/contract.ts';

export type PatchOp = 'add' | 'update' | 'delete' | 'move';

export interface PatchFile {
  op: PatchOp;
  path: string;
}

const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/;
const OPS: Readonly<Record<string, PatchOp>> = {
  'Add File': 'add',
  'Update File': 'update',
  'Delete File': 'delete',
  'Move to': 'move',
};

/** The files a patch touches, in order (a move names its destination as its own entry). */
export function patchFiles(patch: string): PatchFile[] {
  const out: PatchFile[] = [];
  for (const raw of patch.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = HEADER.exec(line);
    if (m === null) continue;
    const path = (m[2] as string).trim();
    if (path !== '') out.push({ op: OPS[m[1] as string] as PatchOp, path });
  }
  return out;
}

/**
 * The paths a patch touches, in the contract's neutral form (`tool.paths`): an added or updated
 * file is written, a deleted one deleted, and an update followed by `*** Move to:` deletes its
 * source and writes its destination. Each path once per access, in order.
 */
export function patchToolPaths(patch: string): ToolPath[] {
  const files = patchFiles(patch);
  const out: ToolPath[] = [];
  const seen = new Set<string>();
  files.forEach((f, i) => {
    const moved = f.op === 'update' && files[i + 1]?.op === 'move';
    const access: Access = f.op === 'delete' || moved ? 'delete' : 'write';
    const key = `${access}\0${f.path}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ path: f.path, access });
  });
  return out;
}
