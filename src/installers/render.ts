/** Plans and statuses for people (text) and for scripts (JSON-ready objects). */
import { unifiedDiff } from './diff.ts';
import type { Change } from './installer.ts';
import type { Plan } from './planner.ts';
import type { ConfigStatus } from './status.ts';

function where(event: string, matcher: string | undefined): string {
  return matcher === undefined ? event : `${event} [${matcher}]`;
}

function pad(s: string, n: number): string {
  return s.length >= n ? `${s}  ` : s.padEnd(n + 2);
}

function text(bytes: Buffer | null): string | null {
  if (bytes === null) return null;
  const t = bytes.toString('utf8');
  return t.startsWith('\uFEFF') ? t.slice(1) : t;
}

function fileSentence(plan: Plan, dryRun: boolean): string {
  const will = (done: string, planned: string): string => (dryRun ? planned : done);
  const b = plan.backup.file;
  switch (plan.fileAction) {
    case 'none':
      if (plan.action === 'merge') return 'already wired; nothing to change';
      return plan.before === null ? 'does not exist; nothing to change' : 'holds no Buckler hooks; nothing to change';
    case 'create':
      return will('created', 'would be created');
    case 'update': {
      const backup =
        plan.backup.action === 'create'
          ? will(`; the original is saved in ${b}`, `; the original would be saved in ${b}`)
          : `; the original from before Buckler's first change stays in ${b}`;
      return will('updated', 'would be updated') + backup;
    }
    case 'restore':
      return will(`restored byte-for-byte from ${b} (backup removed)`, `would be restored byte-for-byte from ${b} (and the backup removed)`);
    case 'delete':
      return will('deleted: Buckler created it and nothing else is in it', 'would be deleted: Buckler created it and nothing else is in it');
  }
}

function changeLines(changes: readonly Change[]): string[] {
  const commands = new Set(changes.map((c) => c.command));
  const shared = commands.size === 1 ? [...commands][0] : undefined;
  const width = Math.max(0, ...changes.map((c) => where(c.event, c.matcher).length));
  const lines: string[] = [];
  if (shared !== undefined) lines.push(`  command  ${shared}`);
  for (const c of changes) {
    const sign = c.op === 'add' ? '+' : c.op === 'replace' ? '~' : '-';
    const cmd = shared === undefined ? c.command : '';
    const was = c.op !== 'replace' ? '' : c.previous !== undefined && c.previous !== c.command ? `(was ${c.previous})` : '(settings differed)';
    lines.push(`  ${sign} ${pad(where(c.event, c.matcher), width)}${[cmd, was].filter((x) => x !== '').join(' ')}`.trimEnd());
  }
  return lines;
}

/** How many of Buckler's entries a plan adds, updates (rewrites in place) and removes. */
export function changeCounts(changes: readonly Change[]): { added: number; updated: number; removed: number } {
  const n = (op: Change['op']): number => changes.filter((c) => c.op === op).length;
  return { added: n('add'), updated: n('replace'), removed: n('remove') };
}

/**
 * What changed, in one line: `2 added, 1 updated, 1 removed` (the counts that are not zero), or
 * `unchanged (already the current wiring)`.
 */
export function changeSummary(changes: readonly Change[]): string {
  const c = changeCounts(changes);
  const parts = [
    [c.added, 'added'],
    [c.updated, 'updated'],
    [c.removed, 'removed'],
  ].flatMap(([k, what]) => (k === 0 ? [] : [`${k} ${k === 1 ? 'entry' : 'entries'} ${what}`]));
  return parts.length === 0 ? 'unchanged (already the current wiring)' : parts.join(', ');
}

/** A plan as text: the changes, what happens to the file, warnings, and (dry run) the diff. */
export function renderPlan(plan: Plan, dryRun: boolean): string {
  const lines = [`${plan.action} ${plan.harness}: ${plan.file}${plan.target !== plan.file ? ` (symlink to ${plan.target})` : ''}`];
  lines.push(...changeLines(plan.changes));
  if (plan.changes.length > 0 || plan.action === 'merge') lines.push(`  summary  ${changeSummary(plan.changes)}`);
  lines.push(`  file     ${fileSentence(plan, dryRun)}`);
  for (const w of plan.warnings) lines.push(`  warning  ${w}`);
  let out = `${lines.join('\n')}\n`;
  if (dryRun && plan.fileAction !== 'none') out += unifiedDiff(text(plan.before), text(plan.after), plan.file);
  return out;
}

/** A plan as a JSON-ready object. */
export function planJson(plan: Plan, dryRun: boolean): Record<string, unknown> {
  return {
    action: plan.action,
    harness: plan.harness,
    file: plan.file,
    target: plan.target,
    changes: plan.changes,
    summary: changeCounts(plan.changes),
    file_action: plan.fileAction,
    backup: plan.backup,
    warnings: plan.warnings,
    written: !dryRun && plan.fileAction !== 'none',
    ...(dryRun ? { diff: unifiedDiff(text(plan.before), text(plan.after), plan.file) } : {}),
  };
}

/** A status as a JSON-ready object (snake_case, like every Buckler JSON output). */
export function statusJson(s: ConfigStatus, scope: string): Record<string, unknown> {
  return {
    harness: s.harness,
    scope,
    file: s.file,
    exists: s.exists,
    wiring: s.wiring,
    hooks: s.hooks,
    extra: s.extra.map((e) => ({ event: e.event, ...(e.matcher === undefined ? {} : { matcher: e.matcher }), command: e.command })),
    commands: s.commands,
    expected: s.expected,
    up_to_date: s.upToDate,
    backup: s.backup,
    warnings: s.warnings,
    trust_problems: s.trust,
    ok: s.ok,
  };
}

function summary(s: ConfigStatus): string {
  if (!s.exists) return 'not wired (no file)';
  if (s.wiring === 'none') return 'not wired';
  if (s.commands.some((c) => c.problems.length > 0)) return 'broken: a command it runs is missing';
  if (s.wiring === 'partial') return 'partially wired';
  if (s.trust.length > 0) return 'wired, but the harness skips it';
  return s.extra.length > 0 ? 'wired, with extra Buckler entries' : 'wired';
}

/** A status as text. */
export function renderStatus(s: ConfigStatus): string {
  const lines = [`${s.harness}: ${s.file} — ${summary(s)}`];
  const width = Math.max(...s.hooks.map((h) => where(h.event, h.matcher).length));
  const onlyCommand = s.commands.length === 1 ? s.commands[0]?.command : undefined;
  for (const h of s.hooks) {
    const detail =
      h.state === 'missing'
        ? ''
        : [h.state === 'differs' ? 'not as merge writes it' : '', onlyCommand === undefined ? (h.command ?? '') : ''].filter((x) => x !== '').join(': ');
    lines.push(`  ${pad(h.state, 7)}${pad(where(h.event, h.matcher), width)}${detail}`.trimEnd());
  }
  for (const e of s.extra) lines.push(`  extra    ${where(e.event, e.matcher)}: ${e.command} (merge removes it)`);
  for (const c of s.commands) {
    lines.push(`  command  ${c.command}`);
    lines.push(...(c.problems.length === 0 ? ['           its files exist'] : c.problems.map((p) => `           ${p}`)));
  }
  if (s.upToDate === false && s.wiring !== 'none' && s.expected !== null) lines.push(`  note     merge with the same options would rewrite them to run ${s.expected}`);
  if (s.backup !== null) lines.push(`  backup   ${s.backup}`);
  for (const w of s.warnings) lines.push(`  warning  ${w}`);
  for (const t of s.trust) lines.push(`  trust    ${t}`);
  return `${lines.join('\n')}\n`;
}

/** What a merge or strip did to the harness's trust store (installer.trust), as text. */
export function renderTrust(t: { file: string; notes: string[]; problems: string[] }, dryRun: boolean): string {
  if (t.notes.length === 0 && t.problems.length === 0) return '';
  const lines = [`  trust    ${t.file}${t.notes.length === 0 ? '' : dryRun ? ' would be updated:' : ' updated:'}`];
  for (const n of t.notes) lines.push(`           ${n}`);
  for (const p of t.problems) lines.push(`  warning  ${p}`);
  return `${lines.join('\n')}\n`;
}
