/** Why an installer refused: a code scripts can test, the file, and the way out. */
export type InstallerErrorCode =
  | 'malformed' // the file is not what the harness expects; left exactly as it was
  | 'unreadable' // could not be read (permissions, a directory, a dangling symlink, …)
  | 'unwritable' // could not be written; nothing was changed
  | 'changed' // the file changed while Buckler was editing it; nothing was written
  | 'locked' // another Buckler process held the file's lock too long; nothing was written
  | 'refused' // Buckler would not write this (a hook command that cannot start)
  | 'usage'; // bad option or argument

export class InstallerError extends Error {
  constructor(
    readonly code: InstallerErrorCode,
    readonly file: string | null,
    message: string,
  ) {
    super(file === null ? message : `${file}: ${message}`);
    this.name = 'InstallerError';
  }
}

/** Text for an fs error code, for people. */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on device';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a parent is not a directory';
    case 'ENOENT':
      return 'does not exist';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return err.code ?? (e instanceof Error ? e.message : String(e));
  }
}
