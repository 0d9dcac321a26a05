/**
 * The locked-down install sends every deny, ask and allow-once use to the system log as well
 * (docs/install.md): the person's own audit log is theirs to rewrite, the system log is not.
 * Through `logger` (util-linux or BSD), started detached with no pipes: the hook neither waits
 * for it nor fails when it is missing. Imported only by such a hook, in system mode.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** Root-owned places only: PATH is the agent's to change. */
const LOGGERS = ['/usr/bin/logger', '/bin/logger'];

/** One line, printable, at most `max` characters. */
export function syslogText(fields: Record<string, string | number | null | undefined>, max = 900): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === null || v === undefined || v === '') continue;
    const s = String(v).replace(/[\u0000-\u001f\u007f]+/g, ' ');
    parts.push(`${k}=${/[\s"]/.test(s) ? JSON.stringify(s) : s}`);
  }
  const line = parts.join(' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Sends `text` to the system log (facility auth, tag buckler); false when no logger could be started. */
export function toSyslog(text: string, priority: 'auth.warning' | 'auth.notice'): boolean {
  const bin = LOGGERS.find((f) => fs.existsSync(f));
  if (bin === undefined) return false;
  try {
    const child = spawn(bin, ['-t', 'buckler', '-p', priority, '--', text], { detached: true, stdio: 'ignore', env: {} });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
