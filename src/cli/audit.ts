/**
 * The CLI's side of the audit log: where it is, and one call after each decision. The hook
 * driver, `check` and `evaluate` call `recordDecision` when `audit_log = true` in config.toml
 * (or `--audit` is given). It never throws and never changes the decision (src/audit).
 */
import { auditDecision, type AuditEvent } from '../audit/index.ts';
import type { CliIO } from './io.ts';
import { processPaths, processUid } from './process-paths.ts';

declare const __BUCKLER_VERSION__: string;
const VERSION: string | undefined = typeof __BUCKLER_VERSION__ === 'string' ? __BUCKLER_VERSION__ : undefined;

export function auditLogFile(env: CliIO['env']): string {
  return processPaths(env).auditLog;
}

/** Appends one record; returns whether it was written (a warning on stderr when not). */
export function recordDecision(io: Pick<CliIO, 'env' | 'err'>, event: AuditEvent): boolean {
  const warn = (message: string): void => io.err(message);
  let file: string;
  try {
    file = auditLogFile(io.env);
  } catch (e) {
    try {
      warn(`buckler: warning: audit record not written: ${e instanceof Error ? e.message : String(e)}\n`);
    } catch {
      /* nothing more to do: the decision stands */
    }
    return false;
  }
  const withVersion: AuditEvent = VERSION !== undefined && event.bucklerVersion === undefined ? { ...event, bucklerVersion: VERSION } : event;
  const uid = processUid();
  return auditDecision(file, withVersion, uid === undefined ? { warn } : { warn, uid });
}
