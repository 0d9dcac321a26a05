/**
 * Reading the audit log back for `buckler log`: parse lines (skipping and counting the ones
 * that are not records), filter by time and decision, keep the last N. Pure.
 */
import { DECISIONS, type Decision } from '../core/contract.ts';
import type { AuditRecord } from './record.ts';

export interface ParsedLog {
  records: AuditRecord[];
  /** Non-empty lines that are not audit records (torn by a crash, edited, foreign). */
  skipped: number;
}

function isRecord(v: unknown): v is AuditRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.record_version === 'number' &&
    typeof r.time === 'string' &&
    !Number.isNaN(Date.parse(r.time)) &&
    typeof r.decision === 'string' &&
    (DECISIONS as readonly string[]).includes(r.decision)
  );
}

export function parseAuditLog(text: string): ParsedLog {
  const records: AuditRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    if (isRecord(v)) records.push(v);
    else skipped++;
  }
  return { records, skipped };
}

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/**
 * `--since`: a relative age (`90s`, `15m`, `2h`, `1d`, `1w`) or an ISO 8601 date or date-time
 * (`2025-11-29`, `2025-11-29T10:00`, `2025-11-29T10:00:00Z`; without a zone it is local time,
 * as `Date` reads it). Throws an Error saying what it accepts.
 */
export function parseSince(spec: string, now: Date): Date {
  const rel = /^(\d+(?:\.\d+)?)\s*([smhdw])$/.exec(spec.trim());
  if (rel) return new Date(now.getTime() - Number(rel[1]) * (UNITS[rel[2] as string] as number));
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(spec.trim())) {
    // A bare date is midnight local time, like a date-time without a zone.
    const s = spec.trim().length === 10 ? `${spec.trim()}T00:00` : spec.trim().replace(' ', 'T');
    const t = Date.parse(s);
    if (!Number.isNaN(t)) return new Date(t);
  }
  throw new Error(`--since ${spec}: expected an age like 30m, 2h, 1d, 1w or a date like 2025-11-29 or 2025-11-29T10:00Z`);
}

export interface LogFilter {
  since?: Date;
  decisions?: readonly Decision[];
  /** Only records of this rule (`pack/rule`) or, without a slash, of this pack. */
  rule?: string;
  /** Only records in this project (its root, as recorded). */
  project?: string;
  /** Only records of this harness session. */
  session?: string;
  /** Keep only the last N (after the other filters). */
  limit?: number;
}

/** Matching records, oldest first (the order they were appended). */
export function filterRecords(records: readonly AuditRecord[], filter: LogFilter): AuditRecord[] {
  const since = filter.since?.getTime();
  const rule = filter.rule;
  const out = records.filter(
    (r) =>
      (since === undefined || Date.parse(r.time) >= since) &&
      (filter.decisions === undefined || filter.decisions.includes(r.decision)) &&
      (rule === undefined || r.rule === rule || (!rule.includes('/') && r.pack === rule)) &&
      (filter.project === undefined || r.project === filter.project) &&
      (filter.session === undefined || r.session === filter.session),
  );
  return filter.limit === undefined ? out : out.slice(Math.max(0, out.length - filter.limit));
}

/** The rotated log (`audit.jsonl.1`) and the current one, oldest first; a missing file is empty. */
export function rotatedName(file: string): string {
  return `${file}.1`;
}
