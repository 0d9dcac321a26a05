/**
 * `buckler paths [--json]`: every file and directory Buckler uses, as `src/paths.ts` resolves
 * them for this environment (the same table `scripts/setup.sh paths` prints from Bash).
 */
import { flag, parseCommand } from './args.ts';
import type { CliIO } from './io.ts';
import { showHelp } from './show-help.ts';
import { processPathContext } from './process-paths.ts';
import {
  HARNESS_SCOPES,
  builtinPacksDir,
  harnessConfigFile,
  harnessHomeDir,
  ignoredVariables,
  resolvePaths,
  type InstallableHarness,
  type PathContext,
  type Scope,
} from '../paths.ts';

export interface PathsReport {
  platform: NodeJS.Platform;
  paths: ReturnType<typeof resolvePaths>;
  builtinPacks: string;
  /** Per harness: its home directory and its config file for each scope it has. */
  harnesses: Record<InstallableHarness, { home: string } & Partial<Record<Scope, string>>>;
  /** Variables that were set but ignored (not absolute paths). */
  ignored: string[];
}

export function pathsReport(ctx: PathContext, project: string, packsDir: string): PathsReport {
  const hc = { ...ctx, project };
  return {
    platform: ctx.platform,
    paths: resolvePaths(ctx),
    builtinPacks: packsDir,
    harnesses: Object.fromEntries(
      (Object.keys(HARNESS_SCOPES) as InstallableHarness[]).map((h) => [
        h,
        { home: harnessHomeDir(h, ctx), ...Object.fromEntries(HARNESS_SCOPES[h].map((scope) => [scope, harnessConfigFile(h, scope, hc)])) },
      ]),
    ) as PathsReport['harnesses'],
    ignored: ignoredVariables(ctx),
  };
}

export function renderPaths(r: PathsReport): string {
  const p = r.paths;
  const rows: [string, string][] = [
    ['data home', p.dataHome],
    ['config home', p.configHome],
    ['state home', p.stateHome],
    ['config file', p.configFile],
    ['user rules', p.rulesDir],
    ['audit log', p.auditLog],
    ['cache', p.cacheDir],
    ['versions', p.versionsDir],
    ['pack bundles', p.bundlesDir],
    ['current', p.current],
    ['bin dir', p.binDir],
    ['launcher', p.launcher],
    ['builtin packs', r.builtinPacks],
    ...(Object.entries(r.harnesses) as [string, Record<string, string>][]).flatMap(([h, files]) =>
      Object.entries(files)
        .filter(([k]) => k !== 'home')
        .map(([scope, file]): [string, string] => [`${h} (${scope})`, file]),
    ),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}\n`).join('');
}

export function run(args: string[], io: CliIO): number | Promise<number> {
  const parsed = parseCommand('paths', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('paths', io);
  const json = flag(parsed, 'json');
  const ctx: PathContext = processPathContext(io.env);
  const report = pathsReport(ctx, io.cwd, builtinPacksDir());
  for (const name of report.ignored) {
    io.err(`buckler paths: ${name}=${io.env[name] ?? ''} is ignored: not an absolute path\n`);
  }
  io.out(json ? `${JSON.stringify(report, null, 2)}\n` : renderPaths(report));
  return 0;
}
