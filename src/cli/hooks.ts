/**
 * `buckler hooks merge|strip|status`: wire Buckler into a harness's config, take it out again,
 * or report what is wired. The edits are planned as data (src/installers), shown, then applied.
 * Exit codes: 0 done (status: fully wired and runnable); 1 a config could not be read, parsed
 * or written, or (status) is not fully wired; 2 usage error. See docs/hooks.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  HARNESS_SCOPES,
  bundleFile,
  harnessConfigFile,
  harnessHomeDir,
  resolvePaths,
  type InstallableHarness,
  type PathContext,
  type Scope,
} from '../paths.ts';
import { planAndApply } from '../installers/apply.ts';
import { InstallerError } from '../installers/errors.ts';
import type { HarnessInstaller } from '../installers/installer.ts';
import { commandFor, defaultLaunchPrefix } from '../installers/launch.ts';
import { readOwnCommand } from '../installers/own-command.ts';
import { readMergePlan, readStripPlan, type Plan } from '../installers/planner.ts';
import { INSTALLERS, installerFor } from '../installers/registry.ts';
import { planJson, renderPlan, renderStatus, renderTrust, statusJson } from '../installers/render.ts';
import { commandStatus, readStatus, type ConfigStatus, type TrustContext } from '../installers/status.ts';
import { syncTrust } from '../installers/trust-apply.ts';
import { flag, parseCommand, str, usageError, UsageError, type Parsed } from './args.ts';
import type { CliIO } from './io.ts';
import { showHelp } from './show-help.ts';
import { policyOptions, processPathContext, processPaths, processUid } from './process-paths.ts';
import { projectOf } from './project.ts';

type Action = 'merge' | 'strip' | 'status';

interface Options {
  action: Action;
  harness: InstallableHarness | 'all';
  scope: Scope;
  project: string;
  command: string | null;
  dryRun: boolean;
  json: boolean;
}

/** The options, checked; throws UsageError. */
function hooksOptions(p: Parsed, cwd: string): Options {
  // Every harness found, as setup.sh does: wiring one of several leaves the others unguarded.
  const harness = str(p, 'harness') ?? 'all';
  const scope = str(p, 'scope') ?? 'user';
  const project = str(p, 'project');
  if (harness !== 'all' && installerFor(harness) === undefined) {
    throw new UsageError(`--harness ${harness}: expected ${Object.keys(INSTALLERS).join(', ')} or all`);
  }
  if (scope !== 'user' && scope !== 'project' && scope !== 'local' && scope !== 'managed') {
    throw new UsageError(`--scope ${scope}: expected user, project, local or managed`);
  }
  if (harness !== 'all' && !(HARNESS_SCOPES[harness as InstallableHarness] as readonly string[]).includes(scope)) {
    throw new UsageError(`--scope ${scope}: ${harness} has only ${HARNESS_SCOPES[harness as InstallableHarness].join(', ')}`);
  }
  return {
    action: p.subcommand as Action,
    harness: harness as InstallableHarness | 'all',
    scope: scope as Scope,
    project: path.resolve(cwd, project ?? '.'),
    command: str(p, 'command') ?? null,
    dryRun: flag(p, 'dry-run'),
    json: flag(p, 'json'),
  };
}

interface Target {
  installer: HarnessInstaller;
  file: string;
}

function targets(opts: Options, ctx: PathContext): { targets: Target[]; looked: string[] } {
  if (opts.harness !== 'all') {
    return { targets: [{ installer: INSTALLERS[opts.harness], file: harnessConfigFile(opts.harness, opts.scope, { ...ctx, project: opts.project }) }], looked: [] };
  }
  const found: Target[] = [];
  const looked: string[] = [];
  for (const installer of Object.values(INSTALLERS)) {
    if (!installer.scopes.includes(opts.scope)) continue;
    const home = harnessHomeDir(installer.name, ctx);
    looked.push(home);
    if (!fs.existsSync(home)) continue;
    found.push({ installer, file: harnessConfigFile(installer.name, opts.scope, { ...ctx, project: opts.project }) });
  }
  return { targets: found, looked };
}

/** The hook command for one harness: --command, or this node + this bundle. */
function commandOf(opts: Options, harness: InstallableHarness, ctx: PathContext): string {
  const paths = resolvePaths(ctx);
  const prefix =
    opts.command ??
    defaultLaunchPrefix({ execPath: process.execPath, bundle: bundleFile(), versionsDir: paths.versionsDir, current: paths.current, platform: ctx.platform });
  return commandFor(prefix, harness);
}

/** Where the harness's trust store is, and the project a project-scope hooks file belongs to. */
function trustContext(opts: Options, installer: HarnessInstaller, ctx: PathContext): TrustContext {
  let projectRoot: string | null = null;
  if (opts.scope === 'project') {
    try {
      projectRoot = fs.realpathSync(opts.project);
    } catch {
      projectRoot = opts.project;
    }
  }
  return { home: harnessHomeDir(installer.name, ctx), projectRoot };
}

/** A hook that cannot start blocks every shell command where it fails closed: refuse to write one. */
function checkRunnable(command: string): void {
  const own = readOwnCommand(command);
  const problems = own === null ? ['not recognisable'] : commandStatus(command, own.files).problems;
  if (problems.length > 0) {
    throw new InstallerError(
      'refused',
      null,
      `refusing to wire a hook command that cannot start (${problems.join('; ')}): build Buckler (npm run build) or pass --command`,
    );
  }
}

/** Says what went wrong, naming the file even for an error no installer foresaw. */
function report(io: CliIO, e: unknown, file: string | null = null): Record<string, unknown> {
  if (e instanceof InstallerError) {
    io.err(`buckler hooks: ${e.message}\n`);
    return { code: e.code, file: e.file, message: e.message };
  }
  const message = `${file === null ? '' : `${file}: `}unexpected error (${e instanceof Error ? e.message : String(e)})`;
  io.err(`buckler hooks: ${message}\n`);
  return { code: 'internal', file, message };
}

function runEdit(opts: Options, list: Target[], ctx: PathContext, io: CliIO): number {
  let code = 0;
  const results: Record<string, unknown>[] = [];
  for (const t of list) {
    try {
      let makePlan: () => Plan;
      if (opts.action === 'merge') {
        const command = commandOf(opts, t.installer.name, ctx);
        checkRunnable(command);
        makePlan = () => readMergePlan(t.installer, t.file, command);
      } else {
        makePlan = () => readStripPlan(t.installer, t.file);
      }
      // Written: planned from the bytes read under the config's lock (installers/apply.ts).
      const plan = opts.dryRun ? makePlan() : planAndApply(t.file, makePlan);
      // The harness's record of which hooks it runs (Codex's hook trust) follows the file.
      const tc = trustContext(opts, t.installer, ctx);
      const trust = syncTrust(t.installer, plan, tc.home, tc.projectRoot, opts.dryRun);
      if (opts.json) results.push({ ...planJson(plan, opts.dryRun), scope: opts.scope, ...(trust === null ? {} : { trust }) });
      else io.out(renderPlan(plan, opts.dryRun) + (trust === null ? '' : renderTrust(trust, opts.dryRun)));
    } catch (e) {
      code = e instanceof InstallerError && e.code === 'usage' ? 2 : 1;
      results.push({ harness: t.installer.name, scope: opts.scope, file: t.file, error: report(io, e, t.file) });
    }
  }
  if (opts.json) io.out(`${JSON.stringify({ action: opts.action, dry_run: opts.dryRun, results }, null, 2)}\n`);
  else if (opts.dryRun) io.out('dry run: nothing written\n');
  return code;
}

/**
 * Rules the hooks leave out (errors at load): they guard nothing, so status names them. The
 * project's own rules (.buckler/rules.d of the project of `dir`, docs/project-rules.md) load as
 * a hook there loads them, so a refused or malformed project file is named too.
 */
async function droppedRules(io: CliIO, dir: string): Promise<{ dropped: string[]; project: string | null }> {
  const root = projectOf(dir, io.env);
  let project: string | undefined;
  try {
    project = root !== undefined && fs.lstatSync(path.join(root, '.buckler'), { throwIfNoEntry: false }) !== undefined ? root : undefined;
  } catch {
    project = root; // cannot be inspected: load it, and the loader says why it is refused
  }
  try {
    const { loadRuntimePolicy } = await import('../packs/runtime.ts');
    // The policy as the hooks load it (in the locked-down install, with the person's layers).
    const loaded = await loadRuntimePolicy(processPaths(io.env), { ...policyOptions(io.env), cache: false, examples: false, ...(project !== undefined ? { project } : {}) });
    return { dropped: loaded.dropped ?? [], project: project ?? null };
  } catch {
    return { dropped: [], project: project ?? null };
  }
}

async function runStatus(opts: Options, list: Target[], ctx: PathContext, io: CliIO): Promise<number> {
  let ok = list.length > 0;
  const results: Record<string, unknown>[] = [];
  for (const t of list) {
    try {
      let expected: string | null = null;
      try {
        expected = commandOf(opts, t.installer.name, ctx);
      } catch (e) {
        if (opts.command !== null) throw e;
      }
      const s: ConfigStatus = readStatus(t.installer, t.file, expected, trustContext(opts, t.installer, ctx));
      ok &&= s.ok;
      if (opts.json) results.push(statusJson(s, opts.scope));
      else io.out(renderStatus(s));
    } catch (e) {
      ok = false;
      if (e instanceof InstallerError && e.code === 'usage') {
        report(io, e);
        return 2;
      }
      results.push({ harness: t.installer.name, scope: opts.scope, file: t.file, error: report(io, e, t.file) });
    }
  }
  const { dropped, project } = await droppedRules(io, opts.project);
  if (opts.json) io.out(`${JSON.stringify({ action: 'status', ok, results, rules_not_loaded: dropped, rules_project: project }, null, 2)}\n`);
  else if (dropped.length > 0) {
    const where = project !== null ? `; with the project rules of ${project}` : '';
    io.out(`rules not loaded (the hooks leave them out; they guard nothing; run 'buckler validate'${where}):\n${dropped.map((d) => `  ${d}\n`).join('')}`);
  }
  return ok ? 0 : 1;
}

export function run(args: string[], io: CliIO): number | Promise<number> {
  const parsed = parseCommand('hooks', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('hooks', io);
  let opts: Options;
  try {
    opts = hooksOptions(parsed, io.cwd);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(io, 'hooks', e.message);
  }
  const ctx: PathContext = processPathContext(io.env);
  const { targets: list, looked } = targets(opts, ctx);
  if (list.length === 0) {
    const msg = `no harness found (looked for ${looked.join(', ')})`;
    if (opts.json) io.out(`${JSON.stringify({ action: opts.action, ok: opts.action !== 'status', results: [], note: msg }, null, 2)}\n`);
    else io.out(`${msg}\n`);
    return opts.action === 'status' ? 1 : 0;
  }
  return opts.action === 'status' ? runStatus(opts, list, ctx, io) : runEdit(opts, list, ctx, io);
}
