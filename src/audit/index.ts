/**
 * Audit: what the CLI calls after each decision when `audit_log = true` or `--audit` is
 * given. Never throws and never changes the decision: a failure to write (including a log
 * refused as unsafe: a symlink, a FIFO, another user's file) costs one short warning, and
 * `auditHealth(file)` tells a later `buckler doctor` why. Lean on purpose (no dependencies beyond node:fs), since the hook path imports it.
 */
import { appendAuditLine } from './append.ts';

export { auditHealth, UnsafeAuditLogError, type AuditHealth } from './append.ts';
import { buildAuditRecord, encodeAuditRecord, type AuditEvent } from './record.ts';

export type { AuditEvent, AuditRecord } from './record.ts';

export interface AuditOptions {
  /** Defaults to the current time. */
  now?: Date;
  /** The user the log must belong to (see `appendAuditLine`). */
  uid?: number;
  /** Receives one line when the record could not be written (e.g. `io.err`). */
  warn?: (message: string) => void;
}

/** Appends one record for `event` to `file`. Returns whether it was written. */
export function auditDecision(file: string, event: AuditEvent, options: AuditOptions = {}): boolean {
  try {
    appendAuditLine(file, encodeAuditRecord(buildAuditRecord(event, options.now ?? new Date())), options.uid);
    return true;
  } catch (e) {
    try {
      const why = e instanceof Error ? e.message : String(e);
      options.warn?.(`buckler: warning: audit record not written to ${file}: ${why}\n`);
    } catch {
      /* the warning itself failed: nothing more to do, the decision stands */
    }
    return false;
  }
}
