/**
 * `buckler stats`: counts over audit records — by decision, rule, project and day, and the
 * commands most often denied or asked. Pure.
 */
import type { AuditRecord } from './record.ts';

export interface AuditStats {
  records: number;
  by_decision: Record<string, number>;
  by_rule: Record<string, number>;
  by_project: Record<string, number>;
  /** UTC day (YYYY-MM-DD) → count. */
  by_day: Record<string, number>;
  /** The commands most often denied or asked, most first (ties: alphabetical). */
  top_blocked: { command: string; count: number }[];
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** Entries of `map`, the largest count first, ties by key. */
export function ranked(map: Record<string, number>): [string, number][] {
  return Object.entries(map).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

export function auditStats(records: readonly AuditRecord[], top = 10): AuditStats {
  const stats: AuditStats = { records: 0, by_decision: {}, by_rule: {}, by_project: {}, by_day: {}, top_blocked: [] };
  const blocked: Record<string, number> = {};
  for (const r of records) {
    if (r.allow_once !== undefined && r.allow_once.action !== 'use') continue; // grants and revocations are not decisions
    if (r.trust !== undefined) continue; // nor is granting or revoking trust
    stats.records++;
    bump(stats.by_decision, r.decision);
    bump(stats.by_rule, r.rule ?? '(no rule)');
    bump(stats.by_project, r.project ?? '(unknown)');
    bump(stats.by_day, r.time.slice(0, 10));
    if ((r.decision === 'deny' || r.decision === 'ask') && r.command !== null) bump(blocked, r.command);
  }
  stats.top_blocked = ranked(blocked)
    .slice(0, top)
    .map(([command, count]) => ({ command, count }));
  return stats;
}
