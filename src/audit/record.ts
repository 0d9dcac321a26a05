/**
 * The audit record: one JSON line per decision. Pure: built from the decision, the input it
 * was about and the time, with secrets redacted and oversized text truncated — and the
 * record says which fields it redacted or truncated (docs/audit-log.md).
 */
import type { Access, CommandPath, Decision, PolicyInput, PolicyOutput } from '../core/contract.ts';
import { redactSecrets, type RedactionKind } from './redact.ts';

/** Bump when a field is removed, renamed or changes meaning (adding one does not). */
export const AUDIT_RECORD_VERSION = 1;

/** The command is cut to this many UTF-8 bytes (after redaction) so a line stays one write. */
export const MAX_COMMAND_BYTES = 4096;
/** Directories are cut to this many bytes. */
const MAX_PATH_BYTES = 1024;
/** Every other text field is cut to this many bytes. */
export const MAX_FIELD_BYTES = 256;
/** Paths recorded per decision (the first ones of the line); more are left out and counted. */
export const MAX_AUDIT_PATHS = 16;

/** One path the action touches (docs/packs.md, "Paths"), as the record keeps it. */
export interface AuditPath {
  /** Absolute and normalised; as written when known only at run time (scope `runtime`). */
  path: string;
  access: Access;
  scope: CommandPath['scope'];
  /** Touched with everything below it (`rm -r`, `chmod -R`, `find -delete`). */
  recursive?: true;
}

export interface AuditRecord {
  record_version: number;
  /** ISO 8601, UTC. */
  time: string;
  buckler_version?: string;
  harness: string | null;
  /** The harness's native event name. */
  event: string | null;
  trigger: string | null;
  decision: Decision;
  /** The pack of the rule that decided (`agent-git` of `agent-git/no-force-push`). */
  pack: string | null;
  rule: string | null;
  /** The operator bypass turned a decision into allow. */
  bypass: boolean;
  /** The shell command line, secrets redacted. */
  command: string | null;
  tool: string | null;
  /**
   * The paths the action reads, writes, deletes or changes the metadata of, with their scope
   * (absent when it names none; `/dev/null` and the like are not files and not listed).
   */
  paths?: AuditPath[];
  /** The directory the action ran in (absent when the harness did not say). */
  cwd?: string;
  /** The project root it ran in (docs/allow-once.md: workspace root, else the repository). */
  project?: string;
  /**
   * Where paths were judged (`buckler replay` re-decides with it): the home directory, the
   * project roots, the temp directories and `$TMPDIR` the hook saw. Absent in records written
   * before it was recorded: replay says so.
   */
  context?: { home?: string; project_roots?: string[]; temp_dirs?: string[]; tmpdir?: string };
  /** The harness's session (conversation) id. */
  session?: string;
  /** An allow-once entry was granted, used or revoked (docs/allow-once.md). */
  allow_once?: { action: 'grant' | 'use' | 'revoke'; ids: string[]; was?: Decision };
  /**
   * The person granted or revoked trust in the project rules of `project` (`buckler trust`,
   * docs/project-rules.md): the digest of the rule files trusted (or whose trust was revoked)
   * and their names. Not a decision: `decision` is `allow`, `command` null.
   */
  trust?: TrustChange;
  /** Why the input could not be analysed (the fail-closed answers). */
  error?: string;
  redacted?: { field: string; kinds: RedactionKind[]; count: number }[];
  /** Fields cut to fit, with their size in bytes before the cut. */
  truncated?: { field: string; bytes: number }[];
}

/** What the caller knows about one decision. `input` is null when the input was unreadable. */
export interface AuditEvent {
  input: PolicyInput | null;
  output: PolicyOutput;
  /** Used when `input` is null or has no `harness`. */
  harness?: string;
  bucklerVersion?: string;
  /** The project root, when the caller worked it out. */
  project?: string;
  allowOnce?: NonNullable<AuditRecord['allow_once']>;
  /**
   * The paths of each command (`CommandDecision.paths`), when `output.commands` was made without
   * them (the hook lists paths only when it records): taken instead of those in `output`.
   */
  paths?: readonly CommandPath[];
  trust?: TrustChange;
}

export interface TrustChange {
  action: 'grant' | 'revoke';
  /** `sha256:…` of the rule files (project-load.ts `projectDigest`). */
  digest: string;
  /** The rule files' names (at most 32, each at most 256 bytes). */
  files: string[];
}

/**
 * The record's `paths`: each path once per access (the first MAX_AUDIT_PATHS), secrets redacted,
 * each cut to MAX_FIELD_BYTES. When a path was cut or paths were left out, `truncated` says so
 * with the bytes of all the paths' text before (field `paths`); what was hidden, in `redacted`.
 */
function auditPaths(
  list: readonly CommandPath[],
  redacted: NonNullable<AuditRecord['redacted']>,
  truncated: NonNullable<AuditRecord['truncated']>,
): AuditPath[] | null {
  const out: AuditPath[] = [];
  const seen = new Set<string>();
  const kinds = new Set<RedactionKind>();
  let count = 0;
  let total = 0;
  let cut = false;
  for (const p of list) {
    if (p.pseudo === true) continue;
    const raw = p.path ?? p.written;
    const key = `${p.access}\0${p.recursive === true ? 'r' : ''}\0${raw}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const r = redactSecrets(raw);
    const bytes = Buffer.byteLength(r.text, 'utf8');
    total += bytes;
    if (out.length >= MAX_AUDIT_PATHS) {
      cut = true;
      continue;
    }
    if (r.count > 0) {
      count += r.count;
      for (const k of r.kinds) kinds.add(k);
    }
    if (bytes > MAX_FIELD_BYTES) cut = true;
    const a: AuditPath = { path: bytes > MAX_FIELD_BYTES ? truncateUtf8(r.text, MAX_FIELD_BYTES) : r.text, access: p.access, scope: p.scope };
    if (p.recursive === true) a.recursive = true;
    out.push(a);
  }
  if (count > 0) redacted.push({ field: 'paths', kinds: [...kinds], count });
  if (cut) truncated.push({ field: 'paths', bytes: total });
  return out.length > 0 ? out : null;
}

/**
 * `date.toISOString()`, without its cost: in a fresh process (every hook is one) the first
 * toISOString() takes about 1 ms; the UTC getters are free. Years 0–9999 only.
 */
export function isoTime(date: Date): string {
  const p = (n: number, width = 2): string => String(n).padStart(width, '0');
  return (
    `${p(date.getUTCFullYear(), 4)}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}` +
    `T${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())}.${p(date.getUTCMilliseconds(), 3)}Z`
  );
}

/** Cuts `text` to at most `max` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, max: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && ((buf[end] as number) & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

export function buildAuditRecord(event: AuditEvent, now: Date): AuditRecord {
  const { input, output } = event;
  const redacted: NonNullable<AuditRecord['redacted']> = [];
  const truncated: NonNullable<AuditRecord['truncated']> = [];
  const cap = (field: string, value: string | null | undefined, max: number): string | null => {
    if (value === undefined || value === null) return null;
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes <= max) return value;
    truncated.push({ field, bytes });
    return truncateUtf8(value, max);
  };

  let command: string | null = null;
  const raw = input?.shell?.command;
  if (typeof raw === 'string') {
    const r = redactSecrets(raw);
    if (r.count > 0) redacted.push({ field: 'command', kinds: r.kinds, count: r.count });
    command = cap('command', r.text, MAX_COMMAND_BYTES);
  }
  const rule = cap('rule', output.rule, MAX_FIELD_BYTES);
  const slash = rule === null ? -1 : rule.indexOf('/');
  const record: AuditRecord = {
    record_version: AUDIT_RECORD_VERSION,
    time: isoTime(now),
    ...(event.bucklerVersion !== undefined ? { buckler_version: event.bucklerVersion } : {}),
    harness: cap('harness', input?.harness ?? event.harness, MAX_FIELD_BYTES),
    event: cap('event', input?.event, MAX_FIELD_BYTES),
    trigger: cap('trigger', input?.trigger, MAX_FIELD_BYTES),
    decision: output.decision,
    pack: rule !== null && slash > 0 ? rule.slice(0, slash) : null,
    rule,
    bypass: output.bypass === true,
    command,
    tool: cap('tool', input?.tool?.name, MAX_FIELD_BYTES),
  };
  const paths = auditPaths(event.paths ?? output.commands.flatMap((c) => c.paths ?? []), redacted, truncated);
  if (paths !== null) record.paths = paths;
  const cwd = cap('cwd', input?.shell?.cwd ?? input?.context?.cwd, MAX_PATH_BYTES);
  if (cwd !== null) record.cwd = cwd;
  const project = cap('project', event.project, MAX_PATH_BYTES);
  if (project !== null) record.project = project;
  const c = input?.context;
  if (c !== undefined && command !== null) {
    const ctx: NonNullable<AuditRecord['context']> = {};
    const home = cap('context.home', c.home, MAX_PATH_BYTES);
    if (home !== null) ctx.home = home;
    if (c.project_roots !== undefined) ctx.project_roots = c.project_roots.slice(0, 8).map((p) => truncateUtf8(p, MAX_PATH_BYTES));
    if (c.temp_dirs !== undefined) ctx.temp_dirs = c.temp_dirs.slice(0, 8).map((p) => truncateUtf8(p, MAX_PATH_BYTES));
    const tmpdir = cap('context.tmpdir', c.tmpdir, MAX_PATH_BYTES);
    if (tmpdir !== null) ctx.tmpdir = tmpdir;
    record.context = ctx;
  }
  const session = cap('session', input?.session?.conversation_id, MAX_FIELD_BYTES);
  if (session !== null) record.session = session;
  if (event.allowOnce !== undefined) record.allow_once = event.allowOnce;
  if (event.trust !== undefined) {
    const t = event.trust;
    record.trust = { action: t.action, digest: truncateUtf8(t.digest, MAX_FIELD_BYTES), files: t.files.slice(0, 32).map((f) => truncateUtf8(f, MAX_FIELD_BYTES)) };
  }
  const error = cap('error', output.error?.code, MAX_FIELD_BYTES);
  if (error !== null) record.error = error;
  if (redacted.length) record.redacted = redacted;
  if (truncated.length) record.truncated = truncated;
  return record;
}

/** One line, newline included: what the writer appends in a single write. */
export function encodeAuditRecord(record: AuditRecord): string {
  return `${JSON.stringify(record)}\n`;
}
