/**
 * File paths named by a patch in the "apply_patch" envelope format (Codex, and the harnesses
 * that copied it): `*** Add File: P`, `*** Update File: P`, `*** Delete File: P`, and
 * `*** Move to: P` after an update. Only header lines count; a hunk's body lines start with
 * ` `, `+` or `-`, so patch content cannot fake a header.
 */

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
 * A patch tool's input with the paths it touches added in Buckler's neutral form:
 * `file_paths` (every path, each once, in order) and `patch_files` (`{op, path}` per header).
 * The harness's own keys are kept as they were.
 */
export function withPatchPaths(input: Record<string, unknown>, patch: string): Record<string, unknown> {
  const files = patchFiles(patch);
  return { ...input, file_paths: [...new Set(files.map((f) => f.path))], patch_files: files };
}
