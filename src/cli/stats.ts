/**
 * `buckler stats [--since D] [--project P] [--json] [--file PATH]`: what the audit log says in
 * numbers. Exit codes: 0 shown, 1 the log could not be read, 2 usage.
 */
import { filterRecords, parseAuditLog } from '../audit/read.ts';
import { auditStats, ranked } from '../audit/stats.ts';
import type { CliIO } from './io.ts';
import { parseCommand, usageError } from './args.ts';
import { logOptions, printable, projectFilter, readLog } from './log.ts';
import { showHelp } from './show-help.ts';
import { processPaths } from './process-paths.ts';

export function run(args: string[], io: CliIO): number | Promise<number> {
  const parsed = parseCommand('stats', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('stats', io);
  const opts = logOptions(parsed, new Date());
  if (typeof opts === 'string') return usageError(io, 'stats', opts);
  delete opts.filter.limit;
  if (opts.filter.project !== undefined) opts.filter.project = projectFilter(opts.filter.project, io);
  const file = opts.file ?? processPaths(io.env).auditLog;
  const text = readLog(file, opts.file === null, 'stats', io);
  if (text === null) return 1;
  const stats = auditStats(filterRecords(parseAuditLog(text).records, opts.filter));
  if (opts.json) {
    io.out(`${JSON.stringify(stats)}\n`);
    return 0;
  }
  const section = (title: string, map: Record<string, number>, limit = 10): string => {
    const rows = ranked(map).slice(0, limit);
    return rows.length === 0 ? '' : `${title}\n${rows.map(([k, n]) => `  ${String(n).padStart(6)}  ${printable(k)}\n`).join('')}`;
  };
  const days = Object.entries(stats.by_day).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  io.out(
    [
      `${stats.records} decision${stats.records === 1 ? '' : 's'}\n`,
      section('By decision', stats.by_decision),
      section('By rule', stats.by_rule),
      section('By project', stats.by_project),
      days.length ? `By day\n${days.map(([d, n]) => `  ${String(n).padStart(6)}  ${d}\n`).join('')}` : '',
      stats.top_blocked.length ? `Most often denied or asked\n${stats.top_blocked.map((b) => `  ${String(b.count).padStart(6)}  ${printable(b.command)}\n`).join('')}` : '',
    ].join(''),
  );
  return 0;
}
