/**
 * `buckler paths [--json]`: every file and directory Buckler uses, as `src/paths.ts` resolves
 * them for this environment (the same table `scripts/setup.sh paths` prints from Bash).
 */
import type { CliIO } from './io.ts';
import { processPathContext } from './process-paths.ts';
import {
  builtinPacksDir,
  harnessConfigFile,
  harnessHomeDir,
  ignoredVariables,
  resolvePaths,
  type PathContext,
} from '../paths.ts';

const USAGE = `Usage: buckler paths [--json]

Prints the files and directories Buckler uses. Overrides: BUCKLER_DATA_HOME,
BUCKLER_CONFIG_HOME, BUCKLER_STATE_HOME, BUCKLER_BIN_DIR; then XDG_*_HOME; see docs/paths.md.
`;

export interface PathsReport {
  platform: NodeJS.Platform;
  paths: ReturnType<typeof resolvePaths>;
  builtinPacks: string;
  harnesses: {
    cursor: { home: string; user: string; project: string };
    'claude-code': { home: string; user: string; project: string; local: string; managed: string };
  };
  /** Variables that were set but ignored (not absolute paths). */
  ignored: string[];
}

export function pathsReport(ctx: PathContext, project: string, packsDir: string): PathsReport {
  const hc = { ...ctx, project };
  return {
    platform: ctx.platform,
    paths: resolvePaths(ctx),
    builtinPacks: packsDir,
    harnesses: {
      cursor: {
        home: harnessHomeDir('cursor', ctx),
        user: harnessConfigFile('cursor', 'user', hc),
        project: harnessConfigFile('cursor', 'project', hc),
      },
      'claude-code': {
        home: harnessHomeDir('claude-code', ctx),
        user: harnessConfigFile('claude-code', 'user', hc),
        project: harnessConfigFile('claude-code', 'project', hc),
        local: harnessConfigFile('claude-code', 'local', hc),
        managed: harnessConfigFile('claude-code', 'managed', hc),
      },
    },
    ignored: ignoredVariables(ctx),
  };
}

export function renderPaths(r: PathsReport): string {
  const p = r.paths;
  const c = r.harnesses.cursor;
  const cc = r.harnesses['claude-code'];
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
    ['cursor (user)', c.user],
    ['cursor (project)', c.project],
    ['claude-code (user)', cc.user],
    ['claude-code (project)', cc.project],
    ['claude-code (local)', cc.local],
    ['claude-code (managed)', cc.managed],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}\n`).join('');
}

export function run(args: string[], io: CliIO): number {
  let json = false;
  for (const a of args) {
    if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') {
      io.out(USAGE);
      return 0;
    } else {
      io.err(`buckler paths: unknown option '${a}'\n${USAGE}`);
      return 2;
    }
  }
  const ctx: PathContext = processPathContext(io.env);
  const report = pathsReport(ctx, io.cwd, builtinPacksDir());
  for (const name of report.ignored) {
    io.err(`buckler paths: ${name}=${io.env[name] ?? ''} is ignored: not an absolute path\n`);
  }
  io.out(json ? `${JSON.stringify(report, null, 2)}\n` : renderPaths(report));
  return 0;
}
