/**
 * `buckler suggest [--write] [--min N] [--project DIR] [--out FILE]`: the commands a person let
 * through with allow-once again and again, proposed as rules for their rules.d
 * (docs/allow-once.md, "From grants to a rule").
 *
 * A suggestion comes only from the grants the person made (allow-history.ts, written by
 * `buckler allow`), never from the audit log: an agent can make a hook record anything, it
 * cannot make a grant. Each rule is exactly as broad as the grant: the same words, in the same
 * order, none more (`argv:`), in the same project (`project:`). None is made for a command
 * agent-tamper or agent-secrets blocks (what guards Buckler and credentials is never lifted for
 * good), for a file-tool entry, or for a command no longer blocked.
 *
 * Shown by default (reads only); `--write` writes the rules file, atomically, and never over an
 * existing file. Exit codes: 0 done (also: nothing to suggest), 1 the history could not be read
 * or the file not written, 2 usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileNew } from '../files/atomic.ts';
import { evaluate } from '../core/evaluate.ts';
import type { CompiledRule } from '../core/policy.ts';
import { loadRuntimePolicy } from '../packs/runtime.ts';
import { historyFile, readGrants, type GrantRecord } from './allow-history.ts';
import { shellWord } from './allow-once.ts';
import { flag, parseCommand, str, usageError } from './args.ts';
import { placeInput } from './command-input.ts';
import type { CliIO } from './io.ts';
import { processPaths, processUid, systemMode } from './process-paths.ts';
import { showHelp } from './show-help.ts';

/** Packs whose blocks are never turned into a standing allow. */
export const NEVER_SUGGESTED = ['agent-tamper', 'agent-secrets'];
export const DEFAULT_MIN = 2;

export interface GrantGroup {
  argv: string[];
  project: string;
  times: number;
  first: number;
  last: number;
}

export type Verdict = { kind: 'rule'; rules: string[]; priority: number } | { kind: 'skip'; why: string };

/** Grants of the same words in the same project, most granted first. */
export function groupGrants(grants: readonly GrantRecord[]): GrantGroup[] {
  const byKey = new Map<string, GrantGroup>();
  for (const g of grants) {
    const key = JSON.stringify([g.project, g.argv]);
    const had = byKey.get(key);
    if (had === undefined) byKey.set(key, { argv: g.argv, project: g.project, times: 1, first: g.at, last: g.at });
    else {
      had.times++;
      had.first = Math.min(had.first, g.at);
      had.last = Math.max(had.last, g.at);
    }
  }
  return [...byKey.values()].sort((a, b) => b.times - a.times || a.first - b.first);
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** "3 times over 2 days (2026-12-01 – 2026-12-03)", "3 times on 2026-12-03". */
export function period(g: GrantGroup): string {
  const times = `${g.times} time${g.times === 1 ? '' : 's'}`;
  if (day(g.first) === day(g.last)) return `${times} on ${day(g.first)}`;
  const days = Math.max(1, Math.round((g.last - g.first) / 86_400_000));
  return `${times} over ${days} day${days === 1 ? '' : 's'} (${day(g.first)} – ${day(g.last)})`;
}

const ruleId = (argv: readonly string[], n: number): string => {
  const name = argv
    .slice(0, 2)
    .map((w) => w.slice(w.lastIndexOf('/') + 1).replace(/[^A-Za-z0-9_-]+/g, ''))
    .filter((w) => w !== '')
    .join('-');
  return `${name === '' ? 'command' : name.slice(0, 40)}-${n}`;
};

/** A YAML flow scalar: JSON strings are YAML. */
const q = (s: string): string => JSON.stringify(s);

/** The rules file for these suggestions (a pack of its own). */
export function rulesFile(pack: string, made: { group: GrantGroup; verdict: Extract<Verdict, { kind: 'rule' }> }[], now: number): string {
  const lines = [
    `# Suggested by \`buckler suggest\` on ${new Date(now).toISOString()} from your allow-once grants.`,
    '# Each rule allows one command, word for word (argv), in one project: the grant, made standing.',
    '# Read each one before you keep it; delete the file to undo.',
    `pack: ${pack}`,
    'rules:',
  ];
  made.forEach(({ group, verdict }, i) => {
    lines.push(
      `  - id: ${ruleId(group.argv, i + 1)}`,
      `    description: ${q(`allowed with buckler allow ${period(group)}; blocked by ${verdict.rules.join(', ')}`)}`,
      '    trigger: [pre_shell_exec, pre_shell_tool]',
      '    match:',
      '      shell_segments:',
      `        - argv: [${group.argv.map(q).join(', ')}]`,
      `          project: [${q(group.project)}]`,
      '    action: allow',
      `    priority: ${verdict.priority}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/** Why a group gets no rule, or the rules it lifts and the priority that outranks them. */
export function judge(group: GrantGroup, decide: (g: GrantGroup) => { decision: string; blocking: { argv: string[]; rule: string | null }[] }, priorityOf: (rule: string) => number | undefined): Verdict {
  if (looksLikeToolEntry(group.argv)) return { kind: 'skip', why: 'a file-tool entry (a rule cannot name a tool call by its words)' };
  const out = decide(group);
  if (out.decision !== 'deny' && out.decision !== 'ask') return { kind: 'skip', why: `not blocked now (${out.decision})` };
  const rules: string[] = [];
  let priority = 0;
  for (const c of out.blocking) {
    if (c.rule === null) return { kind: 'skip', why: 'blocked for the whole line, not by a rule' };
    const pack = c.rule.slice(0, c.rule.indexOf('/'));
    if (NEVER_SUGGESTED.includes(pack)) return { kind: 'skip', why: `blocked by ${c.rule}: ${pack} is never lifted by a standing rule` };
    if (c.argv.length !== group.argv.length || c.argv.some((w, i) => w !== group.argv[i])) return { kind: 'skip', why: `blocked as \`${c.argv.map(shellWord).join(' ')}\`, not as the words granted` };
    const p = priorityOf(c.rule);
    if (p === undefined) return { kind: 'skip', why: `blocked by ${c.rule}, which is not in the loaded policy` };
    if (!rules.includes(c.rule)) rules.push(c.rule);
    priority = Math.max(priority, p + 1);
  }
  if (rules.length === 0) return { kind: 'skip', why: 'no rule blocks it' };
  return { kind: 'rule', rules, priority };
}

/** `Write /etc/hosts`, `mcp__srv__tool`: as allow.ts tells tool entries from commands. */
function looksLikeToolEntry(words: readonly string[]): boolean {
  const [name, ...rest] = words;
  if (name === undefined || !/^(?:[A-Z][A-Za-z]*|mcp__\S+)$/.test(name)) return false;
  return rest.every((w) => w.startsWith('/'));
}

/** Writes `text` to `file` unless it exists (src/files/atomic.ts: a temporary file, then a hard link). */
export function writeNew(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileNew(file, text, 0o600);
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('suggest', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('suggest', io);
  if (systemMode()) {
    io.err('buckler suggest: the locked-down install keeps no grant history (grants are root\'s, bounded by time)\n');
    return 1;
  }
  const minText = str(parsed, 'min');
  if (minText !== undefined && !/^[1-9][0-9]{0,3}$/.test(minText)) return usageError(io, 'suggest', '--min must be a whole number from 1');
  const min = minText === undefined ? DEFAULT_MIN : Number(minText);
  const only = str(parsed, 'project');
  const outOpt = str(parsed, 'out');
  const write = flag(parsed, 'write');
  if (outOpt !== undefined && !write) return usageError(io, 'suggest', '--out needs --write');
  const paths = processPaths(io.env);
  const uid = processUid();
  let grants: GrantRecord[];
  try {
    grants = readGrants(historyFile(paths.stateHome), uid);
  } catch (e) {
    io.err(`buckler suggest: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const projectFilter = only === undefined ? undefined : path.resolve(io.cwd, only);
  const groups = groupGrants(grants).filter((g) => g.times >= min && (projectFilter === undefined || g.project === projectFilter));
  if (groups.length === 0) {
    io.err(`buckler suggest: no command was allowed ${min} times or more${projectFilter === undefined ? '' : ` in ${projectFilter}`} (${grants.length} grant${grants.length === 1 ? '' : 's'} recorded)\n`);
    return 0;
  }

  const policies = new Map<string, Awaited<ReturnType<typeof loadRuntimePolicy>>>();
  const policyFor = async (project: string): Promise<Awaited<ReturnType<typeof loadRuntimePolicy>>> => {
    let p = policies.get(project);
    if (p === undefined) policies.set(project, (p = await loadRuntimePolicy(paths, { uid, project, cache: false, examples: false })));
    return p;
  };
  const made: { group: GrantGroup; verdict: Extract<Verdict, { kind: 'rule' }> }[] = [];
  const report: string[] = [];
  for (const group of groups) {
    const loaded = await policyFor(group.project);
    const byId = new Map<string, CompiledRule>(loaded.policy.rules.map((r) => [r.id, r]));
    const verdict = judge(
      group,
      (g) => {
        const input = placeInput({ policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cli', shell: { command: g.argv.map(shellWord).join(' '), cwd: g.project } }, { cwd: g.project, home: undefined, project: [g.project], tool: undefined }, io);
        const out = evaluate(input, loaded.policy);
        return { decision: out.decision, blocking: out.commands.filter((c) => c.decision === 'deny' || c.decision === 'ask').map((c) => ({ argv: c.argv, rule: c.rule })) };
      },
      (id) => byId.get(id)?.priority,
    );
    const words = group.argv.map(shellWord).join(' ');
    if (verdict.kind === 'rule') {
      made.push({ group, verdict });
      report.push(`${words}\n  in ${group.project}: allowed ${period(group)}; blocked by ${verdict.rules.join(', ')}\n`);
    } else report.push(`${words}\n  in ${group.project}: allowed ${period(group)}; no rule suggested: ${verdict.why}\n`);
  }
  io.out(report.join(''));
  if (made.length === 0) return 0;
  const now = Date.now();
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const pack = `suggested-${stamp}`;
  const text = rulesFile(pack, made, now);
  if (!write) {
    io.out(`\n${text}\n(shown only: buckler suggest --write writes this to ${path.join(paths.rulesDir, `${pack}.yaml`)})\n`);
    return 0;
  }
  const file = outOpt === undefined ? path.join(paths.rulesDir, `${pack}.yaml`) : path.resolve(io.cwd, outOpt);
  try {
    writeNew(file, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.err(`buckler suggest: ${code === 'EEXIST' ? `${file} exists; not overwritten` : `${file} not written: ${e instanceof Error ? e.message : String(e)}`}\n`);
    return 1;
  }
  io.out(`\nwrote ${made.length} rule${made.length === 1 ? '' : 's'} to ${file} (check: buckler validate)\n`);
  return 0;
}
