/**
 * `buckler validate [--packs-dir D] [--rules-dir D] [--config FILE]`: checks the builtin packs,
 * the user's packs and config.toml, running every rule's examples. Lists each problem as
 * `file:line rule pack/rule: what`; exit 1 when there is an error, 0 when clean (warnings alone
 * do not fail), 2 for bad arguments. Without directory options it also checks the hook's
 * compiled-pack cache as a hook would (src/packs/cache.ts): a damaged cache, or one reached
 * through a symlink or owned by someone else, is an error.
 */
import type { CompiledRule } from '../core/policy.ts';
import path from 'node:path';
import { packageRoot } from '../paths.ts';
import { formatProblem } from '../packs/problems.ts';
import { checkRuntimeCache, loadPolicyReport, type CacheCheck, type PolicyReport, type RuntimeOptions } from '../packs/runtime.ts';
import { parseCommand } from './args.ts';
import { showHelp } from './show-help.ts';
import type { CliIO } from './io.ts';
import { processPaths, processUid } from './process-paths.ts';
import { projectOf } from './project.ts';

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('validate', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('validate', io);
  const values = parsed.values;
  const opts: RuntimeOptions = { examples: true };
  const packsDir = values['packs-dir'] as string | undefined;
  const rulesDir = values['rules-dir'] as string | undefined;
  const config = values.config as string | undefined;
  if (packsDir !== undefined) opts.packsDir = path.resolve(io.cwd, packsDir);
  if (rulesDir !== undefined) opts.rulesDir = path.resolve(io.cwd, rulesDir);
  if (config !== undefined) opts.configFile = path.resolve(io.cwd, config);

  const given = values.project as string | undefined;
  const project = given !== undefined ? path.resolve(io.cwd, given) : projectOf(io.cwd, io.env);
  if (project !== undefined) opts.project = project;

  const paths = processPaths(io.env);
  const report = await loadPolicyReport(paths, opts);
  // The hook's own cache, only when checking the hook's own inputs.
  const cache =
    packsDir === undefined && rulesDir === undefined && config === undefined
      ? checkRuntimeCache(paths, project === undefined ? { uid: processUid() } : { uid: processUid(), project })
      : undefined;
  const root = packageRoot();
  const display = (file: string): string => {
    for (const base of [io.cwd, root]) {
      const rel = path.relative(base, file);
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
    }
    return file;
  };
  const errors = report.problems.filter((p) => p.severity === 'error');
  const warnings = report.problems.filter((p) => p.severity === 'warning');
  const cacheBad = cache !== undefined && (cache.state === 'damaged' || cache.state === 'unsafe');
  if (values.json) {
    io.out(`${JSON.stringify(jsonReport(report, cache, cacheBad, display))}\n`);
    return errors.length > 0 || cacheBad ? 1 : 0;
  }
  for (const p of errors) io.out(`error: ${formatProblem(p, display)}\n`);
  for (const p of warnings) io.out(`warning: ${formatProblem(p, display)}\n`);
  if (cache) io.out(`${cacheLine(cache)}\n`);
  const projectSrc = report.sources.find((s) => s.source === 'project');
  if (projectSrc?.project !== undefined) {
    const p = projectSrc.project;
    const inDir = (f: string | undefined): boolean => f !== undefined && (f === projectSrc.dir || f.startsWith(projectSrc.dir + path.sep));
    const mine = report.known.filter((k) => inDir(k.source) && k.rule.id !== 'project/rules-unreadable');
    const ignored = mine.filter((k) => k.state === 'skipped_trust').map((k) => k.rule.id);
    const state = p.trusted ? 'trusted' : `untrusted${p.changed ? ' (changed since you trusted them)' : ''}: deny/ask/nudge rules can only tighten; run 'buckler trust' to count them like your own`;
    io.out(
      `project rules: ${display(projectSrc.dir)}: ${state}; ${mine.length - ignored.length} loaded${ignored.length > 0 ? `, ${ignored.length} ignored for want of trust (${ignored.join(', ')})` : ''}` +
        `${projectSrc.refused.length > 0 ? `, ${projectSrc.refused.length} file${projectSrc.refused.length === 1 ? '' : 's'} refused` : ''}\n`,
    );
  }
  if (values.rules) {
    const origin = new Map(report.sources.flatMap((s) => s.packs.map((p) => [p.pack.file, p] as const)));
    const packSource = new Map(report.policy.packs.map((p) => [p.id, origin.get(p.source)] as const));
    const builtinDenies = report.policy.rules.filter((r) => r.action === 'deny' && packSource.get(r.pack)?.source === 'builtin');
    for (const r of report.policy.rules) {
      const p = packSource.get(r.pack);
      io.out(`rule ${r.id}  ${r.action}  ${r.tier}  ${p === undefined ? '?' : `${p.origin} (${display(p.pack.file)})`}\n`);
      // A bundle rule that can win over a builtin deny: it ranks as your own rules do (docs/pack-bundles.md).
      if (r.bundle === true && r.action !== 'deny') {
        const over = builtinDenies.filter((d) => outranks(r, d));
        if (over.length > 0) {
          const guarded = over.filter((d) => d.guard === true);
          io.out(
            `  ! outranks builtin deny ${over.slice(0, 3).map((d) => `${d.id} (priority ${d.priority})`).join(', ')}${over.length > 3 ? ` and ${over.length - 3} more` : ''}` +
              `${guarded.length > 0 ? `; the denies of agent-tamper and agent-secrets still win (${guarded.map((d) => d.id).slice(0, 3).join(', ')})` : ''}\n`,
          );
        }
      }
    }
    for (const s of report.sources) for (const r of s.refused) io.out(`refused ${s.source} ${display(r.file)}: ${r.message}\n`);
  }
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  io.out(
    `${errors.length === 0 && !cacheBad ? 'ok' : 'failed'}: ${plural(report.files.length, 'pack file')}, ${plural(report.checked, 'rule')} checked ` +
      `(${report.policy.rules.length} active in tier ${report.policy.tier}); ${plural(errors.length + (cacheBad ? 1 : 0), 'error')}, ${plural(warnings.length, 'warning')}\n`,
  );
  return errors.length > 0 || cacheBad ? 1 : 0;
}

/** One problem, machine-readable: `buckler validate --json`. */
export interface JsonProblem {
  severity: 'error' | 'warning';
  /** As shown in the text report: relative to the current directory or to Buckler's package when under it. */
  file: string;
  line: number | null;
  rule: string | null;
  message: string;
}

/**
 * `buckler validate --json`: one JSON object, `ok` (what the exit code says), every problem
 * (errors first, then warnings; a damaged or unsafe hook cache is an error of its file), and
 * the counts the text report ends with.
 */
function jsonReport(report: PolicyReport, cache: CacheCheck | undefined, cacheBad: boolean, display: (f: string) => string): object {
  const problems: JsonProblem[] = [...report.problems]
    .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
    .map((p) => ({ severity: p.severity, file: display(p.file), line: p.line ?? null, rule: p.rule ?? null, message: p.message }));
  if (cache !== undefined && cacheBad) problems.splice(problems.filter((p) => p.severity === 'error').length, 0, { severity: 'error', file: cache.file, line: null, rule: null, message: cacheLine(cache).replace(/^error: cache: [^:]*: /, '') });
  const count = (s: string): number => problems.filter((p) => p.severity === s).length;
  return {
    ok: count('error') === 0,
    errors: count('error'),
    warnings: count('warning'),
    files: report.files.length,
    checked: report.checked,
    active: report.policy.rules.length,
    tier: report.policy.tier,
    problems,
    ...(cache !== undefined ? { cache: { file: cache.file, state: cache.state } } : {}),
  };
}

function cacheLine(c: CacheCheck): string {
  switch (c.state) {
    case 'fresh':
      return `cache: ${c.file}: verified (matches the packs, config and code)`;
    case 'absent':
      return `cache: ${c.file}: none yet (the next hook builds it)`;
    case 'stale':
      return `cache: ${c.file}: out of date (the next hook rebuilds it)`;
    default:
      return `error: cache: ${c.file}: ${c.reason ?? c.state}; the hook does not use it, and replaces it`;
  }
}

/**
 * Whether bundle rule `r` can win over builtin deny `d` on some command: a shared trigger, a
 * higher priority, and a program both may match (an entry naming no program matches any).
 */
function outranks(r: CompiledRule, d: CompiledRule): boolean {
  if (r.priority <= d.priority || !r.triggers.some((t) => d.triggers.includes(t))) return false;
  const programs = (x: CompiledRule): Set<string> | null => {
    if (x.shell_segments === null || x.shell_segments.some((m) => m.program === undefined)) return null;
    return new Set(x.shell_segments.flatMap((m) => m.program ?? []));
  };
  const a = programs(r);
  const b = programs(d);
  return a === null || b === null || [...a].some((p) => b.has(p));
}
