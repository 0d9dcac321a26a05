/**
 * `buckler doctor`: the events harnesses sent that this Buckler does not know, from the audit
 * log (docs/doctor.md). An unknown event carrying a tool call and no result is blocked
 * (`unknown_event`, shared spec default-packs.md), so each such event is a problem until Buckler
 * is updated; the others (`unknown_harness_event`, recorded with `audit_log = true`) are listed
 * for information. Read by `doctor` only, never on the hook path.
 */
import fs from 'node:fs';
import { parseAuditLog } from '../audit/read.ts';
import type { AuditRecord } from '../audit/record.ts';
import type { Finding } from './doctor-finding.ts';

export interface UnknownEventSeen {
  event: string;
  harness: string;
  count: number;
  /** How many were blocked (they carried a tool call). */
  blocked: number;
  /** The latest record's time (ISO 8601, UTC). */
  last: string;
}

/** Whether a record is of an event its adapter did not know. */
function isUnknown(r: AuditRecord): boolean {
  return r.trigger === 'unknown_harness_event' || r.error === 'unknown_event';
}

/** The unknown events in an audit log's text, by harness and event name, most recent first. Pure. */
export function unknownEventsSeen(text: string): UnknownEventSeen[] {
  const seen = new Map<string, UnknownEventSeen>();
  for (const r of parseAuditLog(text).records) {
    if (!isUnknown(r)) continue;
    const event = r.event ?? '(no name)';
    const harness = r.harness ?? '(unknown harness)';
    const key = `${harness}\u0000${event}`;
    const s = seen.get(key) ?? { event, harness, count: 0, blocked: 0, last: r.time };
    s.count++;
    if (r.error === 'unknown_event') s.blocked++;
    if (Date.parse(r.time) > Date.parse(s.last)) s.last = r.time;
    seen.set(key, s);
  }
  return [...seen.values()].sort((a, b) => Date.parse(b.last) - Date.parse(a.last));
}

/** The doctor's lines for the unknown events in the audit log `file` (none when it is absent or has none). */
export function unknownEventFindings(file: string): Finding[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return unknownEventsSeen(text).map((s) => {
    const when = s.last.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
    const times = `${s.count} time${s.count === 1 ? '' : 's'}, last ${when}`;
    return s.blocked > 0
      ? { level: 'problem', text: `${s.harness} sent the event "${s.event}" this Buckler does not know (${times}); ${s.blocked} carried a tool call and were blocked: update Buckler` }
      : { level: 'info', text: `${s.harness} sent the event "${s.event}" this Buckler does not know (${times}); not judged by any builtin rule` };
  });
}
