/**
 * What the audit log records, by config.toml's `[core] audit_log` (docs/audit-log.md): `true`
 * every decision, `false` none, absent (`null`, the default) the decisions an operator looks
 * for: denials, asks, operator bypasses and allow-once uses. Tiny and import-free: the hook
 * asks it on every call, before it knows whether the audit code is needed at all.
 */
import type { PolicyOutput } from '../core/contract.ts';

/** config.toml's `audit_log`: true, false, or null when it is not set. */
export type AuditSetting = boolean | null;

/** Whether the default (`audit_log` not set) records this decision. */
export function recordedByDefault(output: Pick<PolicyOutput, 'decision' | 'bypass'>, allowOnceUsed: boolean): boolean {
  return output.decision === 'deny' || output.decision === 'ask' || output.bypass || allowOnceUsed;
}

/**
 * Whether a decision is recorded under `setting` (undefined: the setting could not be known and
 * the record is not written); `byDefault` is `recordedByDefault` of it.
 */
export function isRecorded(setting: AuditSetting | undefined, byDefault: boolean): boolean {
  return setting === true || (setting === null && byDefault);
}

/**
 * Whether every decision is recorded, so the first evaluation lists the paths for the record
 * (under the default, only a recorded decision pays for listing them, afterwards).
 */
export function recordsEveryDecision(setting: AuditSetting | undefined): boolean {
  return setting === true;
}
