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
import type { Tier } from '../core/policy.ts';
import type { Paths } from '../paths.ts';
import { filterRecords, parseAuditLog } from '../audit/read.ts';
import type { AuditRecord } from '../audit/record.ts';
import { loadRuntimePolicy, type LoadedPolicy } from '../packs/runtime.ts';
import { actionContext } from './action-context.ts';
import { checkTier } from './evaluate.ts';
import { gitAliasReader } from './git-config.ts';
import { targetReader } from './target-reader.ts';
import type { CliIO } from './io.ts';
import { parseCommand, str, usageError } from './args.ts';
import { logOptions, printable, projectFilter, readLog } from './log.ts';
import { showHelp } from './show-help.ts';
import { policyOptions, processPaths } from './process-paths.ts';
import { projectOf, rulesProject } from './project.ts';
import { scriptReader } from './script-reader.ts';

export interface Change {
  time: string;
  command: string;
  /**
   * False: the record holds no context (home, project roots, temp directories; written before
   * they were recorded), so it was re-decided with this machine's: the change may come from that.
   */
  faithful: boolean;
  old: { decision: Decision; rule: string | null };
  new: { decision: Decision; rule: string | null };
}

/** The decision the policy made, before an allow-once entry let it through. */
function recorded(r: AuditRecord): Decision {
  return r.allow_once?.action === 'use' && r.allow_once.was !== undefined ? r.allow_once.was : r.decision;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('replay', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('replay', io);
  const configDir = str(parsed, 'config');
  if (configDir === '') return usageError(io, 'replay', '--config needs a directory');
  const config = configDir === undefined ? undefined : path.resolve(io.cwd, configDir);
  const tier = checkTier('replay', str(parsed, 'tier'), io);
  if (tier === null) return 2;
  const opts = logOptions(parsed, new Date());
  if (typeof opts === 'string') return usageError(io, 'replay', opts);
  delete opts.filter.limit;
  if (opts.filter.project !== undefined) opts.filter.project = projectFilter(opts.filter.project, io);
  const paths = processPaths(io.env);
  const file = opts.file ?? paths.auditLog;
  const text = readLog(file, opts.file === null, 'replay', io);
  if (text === null) return 1;
  const policyFor = policyLoader(paths, tier, config, io);
  try {
    await policyFor(undefined);
  } catch (e) {
    io.err(`buckler replay: the policy cannot be loaded: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const changes: Change[] = [];
  let replayed = 0;
  let unfaithful = 0;
  for (const r of filterRecords(parseAuditLog(text).records, opts.filter)) {
    const input = replayInput(r, io);
    if (input === null || r.command === null) continue;
    const cwd = input.shell!.cwd as string;
    replayed++;
    if (r.context === undefined) unfaithful++;
    let loaded: LoadedPolicy;
    try {
      loaded = await policyFor(recordProject(r, io));
    } catch (e) {
      io.err(`buckler replay: the policy cannot be loaded: ${e instanceof Error ? e.message : String(e)}\n`);
      return 1;
    }
    const out = evaluate(input, loaded.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env), readTarget: targetReader(cwd, io.env) });
    const old = recorded(r);
    if (!(DECISIONS as readonly string[]).includes(old)) continue;
    if (out.decision !== old || (out.rule ?? null) !== (r.rule ?? null)) {
      changes.push({ time: r.time, command: r.command, faithful: r.context !== undefined, old: { decision: old, rule: r.rule }, new: { decision: out.decision, rule: out.rule } });
    }
  }
  if (opts.json) io.out(changes.map((c) => `${JSON.stringify(c)}\n`).join(''));
  else {
    io.out(
      changes
        .map((c) => `${c.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}  ${c.old.decision} → ${c.new.decision}  ${c.old.rule ?? '-'} → ${c.new.rule ?? '-'}  ${printable(c.command)}${c.faithful ? '' : '  (no recorded context)'}\n`)
        .join(''),
    );
    io.err(`buckler replay: ${replayed} command${replayed === 1 ? '' : 's'} replayed, ${changes.length} would change\n`);
    if (unfaithful > 0) {
      io.err(
        `buckler replay: ${unfaithful} record${unfaithful === 1 ? ' holds' : 's hold'} no context (written before home, project roots and temp directories were recorded): re-decided with this machine's home and temp directories and the recorded cwd and project, so a change marked (no recorded context) may come from that alone\n`,
      );
    }
  }
  return 0;
}

/** What a hook was asked, rebuilt from its record; null for a record that is not replayed. */
function replayInput(r: AuditRecord, io: CliIO): PolicyInput | null {
  if (r.command === null || r.bypass || r.error !== undefined || r.trust !== undefined) return null;
  if (r.allow_once !== undefined && r.allow_once.action !== 'use') return null;
  if (!(TRIGGERS as readonly string[]).includes(r.trigger ?? '') || !isPreTrigger(r.trigger as Trigger)) return null;
  const input: PolicyInput = { policy_io_version: '1', trigger: r.trigger as Trigger, shell: { command: r.command, cwd: r.cwd ?? io.cwd } };
  if (r.harness !== null) input.harness = r.harness;
  if (r.event !== null) input.event = r.event;
  if (r.tool !== null) input.tool = { name: r.tool };
  // Where the hook judged paths: the recorded home, project roots and temp directories; what a
  // record lacks (written before they were recorded) is this machine's now (see `faithful`).
  const given: NonNullable<PolicyInput['context']> = { ...(r.context ?? {}) };
  if (r.cwd !== undefined) given.cwd = r.cwd;
  if (given.project_roots === undefined && r.project !== undefined) given.project_roots = [r.project];
  input.context = actionContext({ ...input, context: given }, { env: io.env, cwd: r.cwd ?? io.cwd });
  return input;
}

/**
 * One policy per project with rules (.buckler/rules.d), as the hook loads it there now; every
 * record outside such a project shares one. Each warning is printed once.
 */
function policyLoader(paths: Paths, tier: Tier | undefined, config: string | undefined, io: CliIO): (project: string | undefined) => Promise<LoadedPolicy> {
  const policies = new Map<string, LoadedPolicy>();
  const warned = new Set<string>();
  return async (project) => {
    const key = project ?? '';
    let loaded = policies.get(key);
    if (loaded === undefined) {
      // As the hook loads it: in the locked-down install the system's policy with the person's
      // layers over it, tightening only (process-paths.ts policyOptions).
      loaded = await loadRuntimePolicy(paths, {
        ...policyOptions(io.env),
        cache: false,
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

