/**
 * `buckler replay [--config DIR] [--tier T] [filters] [--json] [--file PATH]`: re-decides the
 * shell commands in the audit log under another policy (another config directory, another
 * tier, or today's packs) and prints the ones whose decision would change. Commands are
 * replayed as recorded: redacted, cut at 4 KB, with their working directory; scripts, git
 * aliases and each record's project rules (.buckler/rules.d, trusted or not as the trust store
 * says now) are read as they are now, as a hook there would load them. Exit codes: 0 shown,
 * 1 the log or policy could not be read, 2 usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DECISIONS, isPreTrigger, TRIGGERS, type Decision, type PolicyInput, type Trigger } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { filterRecords, parseAuditLog } from '../audit/read.ts';
import type { AuditRecord } from '../audit/record.ts';
import { loadRuntimePolicy, type LoadedPolicy } from '../packs/runtime.ts';
import { checkTier } from './evaluate.ts';
import { gitAliasReader } from './git-config.ts';
import type { CliIO } from './io.ts';
import { parseArgs, printable, projectFilter, readLog } from './log.ts';
import { processPaths, processUid } from './process-paths.ts';
import { projectOf, rulesProject } from './project.ts';
import { scriptReader } from './script-reader.ts';

const USAGE = `Usage: buckler replay [--config DIR] [--tier T] [--since D] [--decision D[,D…]] [--rule R]
                      [--project P] [--session S] [--json] [--file PATH]

Re-decides the shell commands in the audit log under another policy and prints each whose
decision would change (old → new). The policy: config.toml and rules.d/ from DIR (default:
yours), at tier T (default: that config's), with each record's project rules
(.buckler/rules.d of its project, trusted or not as now) loaded as a hook there would load them
now. Commands replay as recorded (redacted, cut at 4 KB); records of the operator bypass are
skipped (the decision it replaced is not recorded).
`;

export interface Change {
  time: string;
  command: string;
  old: { decision: Decision; rule: string | null };
  new: { decision: Decision; rule: string | null };
}

/** The decision the policy made, before an allow-once entry let it through. */
function recorded(r: AuditRecord): Decision {
  return r.allow_once?.action === 'use' && r.allow_once.was !== undefined ? r.allow_once.was : r.decision;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  let config: string | undefined;
  let tierText: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const take = (flag: string): string | undefined => (a === flag ? args[++i] : a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : undefined);
    const c = take('--config');
    if (c !== undefined || a === '--config') {
      if (c === undefined || c === '') return usage(io, '--config needs a directory');
      config = path.resolve(io.cwd, c);
      continue;
    }
    const t = take('--tier');
    if (t !== undefined || a === '--tier') {
      tierText = t ?? '';
      continue;
    }
    rest.push(a);
  }
  const tier = checkTier('replay', tierText, io);
  if (tier === null) return 2;
  const opts = parseArgs(rest, new Date());
  if (typeof opts === 'string') return usage(io, opts);
  delete opts.filter.limit;
  if (opts.filter.project !== undefined) opts.filter.project = projectFilter(opts.filter.project, io);
  const paths = processPaths(io.env);
  const file = opts.file ?? paths.auditLog;
  const text = readLog(file, opts.file === null, 'replay', io);
  if (text === null) return 1;
  // One policy per project with rules (.buckler/rules.d), as the hook loads it there now; every
  // record outside such a project shares one.
  const policies = new Map<string, LoadedPolicy>();
  const warned = new Set<string>();
  const policyFor = async (project: string | undefined): Promise<LoadedPolicy> => {
    const key = project ?? '';
    let loaded = policies.get(key);
    if (loaded === undefined) {
      loaded = await loadRuntimePolicy(paths, {
        cache: false,
        uid: processUid(),
        ...(tier ? { tier } : {}),
        ...(config !== undefined ? { configFile: path.join(config, 'config.toml'), rulesDir: path.join(config, 'rules.d') } : {}),
        ...(project !== undefined ? { project } : {}),
      });
      for (const w of loaded.warnings) {
        if (!warned.has(w)) io.err(`buckler: ${w}\n`);
        warned.add(w);
      }
      policies.set(key, loaded);
    }
    return loaded;
  };
  try {
    await policyFor(undefined);
  } catch (e) {
    io.err(`buckler replay: the policy cannot be loaded: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const changes: Change[] = [];
  let replayed = 0;
  for (const r of filterRecords(parseAuditLog(text).records, opts.filter)) {
    if (r.command === null || r.bypass || r.error !== undefined || r.trust !== undefined) continue;
    if (r.allow_once !== undefined && r.allow_once.action !== 'use') continue;
    if (!(TRIGGERS as readonly string[]).includes(r.trigger ?? '') || !isPreTrigger(r.trigger as Trigger)) continue;
    const cwd = r.cwd ?? io.cwd;
    const input: PolicyInput = { policy_io_version: '1', trigger: r.trigger as Trigger, shell: { command: r.command, cwd } };
    if (r.harness !== null) input.harness = r.harness;
    if (r.event !== null) input.event = r.event;
    if (r.tool !== null) input.tool = { name: r.tool };
    replayed++;
    let loaded: LoadedPolicy;
    try {
      loaded = await policyFor(recordProject(r, io));
    } catch (e) {
      io.err(`buckler replay: the policy cannot be loaded: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    const out = evaluate(input, loaded.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env) });
    const old = recorded(r);
    if (!(DECISIONS as readonly string[]).includes(old)) continue;
    if (out.decision !== old || (out.rule ?? null) !== (r.rule ?? null)) {
      changes.push({ time: r.time, command: r.command, old: { decision: old, rule: r.rule }, new: { decision: out.decision, rule: out.rule } });
    }
  }
  if (opts.json) io.out(changes.map((c) => `${JSON.stringify(c)}\n`).join(''));
  else {
    io.out(
      changes
        .map((c) => `${c.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}  ${c.old.decision} → ${c.new.decision}  ${c.old.rule ?? '-'} → ${c.new.rule ?? '-'}  ${printable(c.command)}\n`)
        .join(''),
    );
    io.err(`buckler replay: ${replayed} command${replayed === 1 ? '' : 's'} replayed, ${changes.length} would change\n`);
  }
  return 0;
}

/**
 * The project whose rules a hook loaded for this record, found as the hook finds it: the
 * recorded project root holding the recorded cwd (else the cwd's own project), never the home
 * directory or `/`; undefined when it has no `.buckler` (every such record shares one policy).
 */
function recordProject(r: AuditRecord, io: CliIO): string | undefined {
  if (r.cwd === undefined || !path.isAbsolute(r.cwd)) return undefined;
  const home = io.env['HOME'];
  const recorded = r.project !== undefined && path.isAbsolute(r.project) ? rulesProject({ cwd: r.cwd, ...(home !== undefined ? { home } : {}), project_roots: [r.project] }) : undefined;
  const root = recorded ?? projectOf(r.cwd, io.env);
  if (root === undefined) return undefined;
  try {
    return fs.lstatSync(path.join(root, '.buckler'), { throwIfNoEntry: false }) === undefined ? undefined : root;
  } catch {
    return root;
  }
}

function usage(io: CliIO, msg: string): number {
  io.err(`buckler replay: ${msg}\n${USAGE}`);
  return 2;
}
