/**
 * `buckler log [--since D] [--decision D[,D…]] [--json] [-n N] [--file PATH]`: recent
 * decisions from the audit log, newest last. Colour only on a terminal (and never with
 * NO_COLOR). Exit codes: 0 shown (or nothing to show), 1 the log could not be read, 2 usage.
 */
import { printable } from './printable.ts';
import fs from 'node:fs';
import { DECISIONS, type Decision } from '../core/contract.ts';
import type { AuditRecord } from '../audit/record.ts';
import path from 'node:path';
import { filterRecords, parseAuditLog, parseSince, rotatedName, type LogFilter } from '../audit/read.ts';
import { projectRoot } from './project.ts';
import { flag, parseCommand, str, usageError, type Parsed } from './args.ts';
import type { CliIO } from './io.ts';
import { showHelp } from './show-help.ts';
import { processPathContext, processPaths } from './process-paths.ts';

const DEFAULT_LIMIT = 20;

interface Options {
  filter: LogFilter;
  json: boolean;
  file: string | null;
}

/**
 * The record filter the log options select (`log`, `stats`, `replay` take the same), or what is
 * wrong with one of them.
 */
export function logOptions(p: Parsed, now: Date): Options | string {
  const filter: LogFilter = {};
  const since = str(p, 'since');
  const decisions = str(p, 'decision');
  const limit = str(p, 'limit');
  try {
    if (since !== undefined) filter.since = parseSince(since, now);
  } catch (e) {
    return (e as Error).message;
  }
  if (decisions !== undefined) {
    const list = decisions.split(',').map((d) => d.trim());
    const bad = list.filter((d) => !(DECISIONS as readonly string[]).includes(d));
    if (bad.length) return `--decision ${bad.join(',')}: expected ${DECISIONS.join(', ')}`;
    filter.decisions = list as Decision[];
  }
  if (limit !== undefined && !/^[1-9]\d*$/.test(limit)) return `-n ${limit}: expected a positive whole number`;
  for (const k of ['rule', 'project', 'session'] as const) {
    const v = str(p, k);
    if (v !== undefined) filter[k] = v;
  }
  const effective = limit !== undefined ? Number(limit) : filter.since === undefined ? DEFAULT_LIMIT : undefined;
  if (effective !== undefined) filter.limit = effective;
  return { filter, json: flag(p, 'json'), file: str(p, 'file') ?? null };
}

export { printable };

const COLOURS: Record<Decision, string> = { deny: '31', ask: '33', nudge: '36', allow: '32' };

export function formatRecord(r: AuditRecord, colour: boolean): string {
  const paint = (code: string, s: string): string => (colour ? `\u001b[${code}m${s}\u001b[0m` : s);
  const time = r.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  // A record's optional fields are not checked when read: use trust only in its documented shape.
  const trust = typeof r.trust === 'object' && r.trust !== null && typeof r.trust.digest === 'string' && Array.isArray(r.trust.files) ? r.trust : undefined;
  const what = trust !== undefined ? `${r.project ?? '-'} (${trust.files.map(String).join(', ')})` : (r.command ?? (r.tool !== null ? `[tool ${r.tool}]` : ''));
  const parts = [
    paint('2', time),
    paint(COLOURS[r.decision] ?? '0', r.decision.padEnd(5)),
    printable(r.harness ?? '-').padEnd(11),
    printable(r.rule ?? '-'),
  ];
  if (r.bypass) parts.push(paint('35', '(bypass)'));
  if (r.allow_once !== undefined) parts.push(paint('35', `(allow-once ${r.allow_once.action}${r.allow_once.was !== undefined ? ` of a ${r.allow_once.was}` : ''})`));
  if (trust !== undefined) parts.push(paint('35', printable(`(trust ${String(trust.action)} ${trust.digest.slice(0, 19)})`)));
  if (r.error !== undefined) parts.push(paint('31', `(error: ${printable(r.error)})`));
  parts.push(printable(what) + (r.truncated?.some((t) => t.field === 'command') ? '…' : ''));
  return `${parts.join('  ')}\n`;
}

/** `--project .` or a relative path: the project of that directory, as hooks record it. */
export function projectFilter(value: string, io: CliIO): string {
  return value === '.' ? projectRoot(io.cwd, processPathContext(io.env).home) : path.resolve(io.cwd, value);
}

/**
 * The log's text, the rotated generation first; '' when there is no log yet (said on stderr
 * for the configured one); null when it cannot be read (said on stderr).
 */
export function readLog(file: string, configured: boolean, command: string, io: CliIO): string | null {
  let text = '';
  for (const f of [rotatedName(file), file]) {
    try {
      text += fs.readFileSync(f, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && (configured || f !== file)) continue;
      io.err(`buckler ${command}: cannot read ${f}: ${(e as Error).message}\n`);
      return null;
    }
  }
  if (text === '' && configured) io.err(`buckler ${command}: no audit log at ${file} yet (audit_log = false in config.toml turns it off)\n`);
  return text;
}

export function run(args: string[], io: CliIO): number | Promise<number> {
  const parsed = parseCommand('log', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('log', io);
  const opts = logOptions(parsed, new Date());
  if (typeof opts === 'string') return usageError(io, 'log', opts);
  if (opts.filter.project !== undefined) opts.filter.project = projectFilter(opts.filter.project, io);
  const file = opts.file ?? processPaths(io.env).auditLog;
  const text = readLog(file, opts.file === null, 'log', io);
  if (text === null) return 1;
  if (text === '') return 0;
  const { records, skipped } = parseAuditLog(text);
  const shown = filterRecords(records, opts.filter);
  const colour = io.stdoutIsTTY && !opts.json && (io.env.NO_COLOR ?? '') === '';
  io.out(shown.map((r) => (opts.json ? `${JSON.stringify(r)}\n` : formatRecord(r, colour))).join(''));
  if (skipped > 0) io.err(`buckler log: skipped ${skipped} unparseable line${skipped === 1 ? '' : 's'} in ${file}\n`);
  if (shown.length === 0 && !opts.json) io.err('buckler log: no decisions match\n');
  return 0;
}
