/**
 * The only audit code that touches the file system: appends one encoded record.
 *
 * Many hook processes append at once. Each record goes out as ONE write(2) on a descriptor
 * opened with O_APPEND: the kernel then places the whole buffer at the end of the file
 * (position update and write are one step for a regular file), so lines neither interleave
 * nor tear. Records are capped in size (record.ts) so one write always carries a whole line.
 * The directory is created 0700 and the file 0600: commands can be private even redacted.
 */
import fs from 'node:fs';
import path from 'node:path';

export function appendAuditLine(file: string, line: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const { O_WRONLY, O_APPEND, O_CREAT } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT, 0o600);
  try {
    const buf = Buffer.from(line, 'utf8');
    const written = fs.writeSync(fd, buf, 0, buf.length);
    if (written !== buf.length) throw new Error(`short write: ${written} of ${buf.length} bytes`);
  } finally {
    fs.closeSync(fd);
  }
}
