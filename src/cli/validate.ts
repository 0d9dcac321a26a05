/**
 * `buckler validate [--packs-dir D] [--rules-dir D] [--config FILE]`: checks the builtin packs,
 * the user's packs and config.toml, running every rule's examples. Lists each problem as
 * `file:line rule pack/rule: what`; exit 1 when there is an error, 0 when clean (warnings alone
 * do not fail), 2 for bad arguments.
 */
import path from 'node:path';
import { packageRoot } from '../paths.ts';
import { formatProblem } from '../packs/problems.ts';
import { loadPolicyReport, type RuntimeOptions } from '../packs/runtime.ts';
import { parseCommandArgs } from './evaluate.ts';
import type { CliIO } from './io.ts';
import { processPaths } from './process-paths.ts';

export const VALIDATE_HELP = `Usage: buckler validate [--packs-dir DIR] [--rules-dir DIR] [--config FILE]

Checks the builtin packs, your packs (rules.d), installed signed pack bundles and config.toml,
and runs every rule's examples. Each problem is listed as  file:line rule pack/rule: what is wrong.

Options:
      --packs-dir DIR   builtin packs to check (default: the packs shipped with Buckler)
      --rules-dir DIR   user packs to check (default: rules.d in the config directory)
      --config FILE     config file to check (default: config.toml in the config directory)
      --rules           also list every active rule with its pack and source (builtin, user,
                        or the signed bundle it came from) and every refused bundle
  -h, --help            show this help

Exit codes: 0 no errors (warnings may be listed), 1 errors found, 2 bad arguments.
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(
    'validate',
    args,
    {
      'packs-dir': { type: 'string' },
      'rules-dir': { type: 'string' },
      config: { type: 'string' },
      rules: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    io,
  );
  if (!parsed) return 2;
  const { values } = parsed;
  if (values.help) {
    io.out(VALIDATE_HELP);
    return 0;
  }
  const opts: RuntimeOptions = { examples: true };
  const packsDir = values['packs-dir'] as string | undefined;
  const rulesDir = values['rules-dir'] as string | undefined;
  const config = values.config as string | undefined;
  if (packsDir !== undefined) opts.packsDir = path.resolve(io.cwd, packsDir);
  if (rulesDir !== undefined) opts.rulesDir = path.resolve(io.cwd, rulesDir);
  if (config !== undefined) opts.configFile = path.resolve(io.cwd, config);

  const report = await loadPolicyReport(processPaths(io.env), opts);
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
  for (const p of errors) io.out(`error: ${formatProblem(p, display)}\n`);
  for (const p of warnings) io.out(`warning: ${formatProblem(p, display)}\n`);
  if (values.rules) {
    const origin = new Map(report.sources.flatMap((s) => s.packs.map((p) => [p.pack.file, p] as const)));
    const packSource = new Map(report.policy.packs.map((p) => [p.id, origin.get(p.source)] as const));
    for (const r of report.policy.rules) {
      const p = packSource.get(r.pack);
      io.out(`rule ${r.id}  ${r.action}  ${r.tier}  ${p === undefined ? '?' : `${p.origin} (${display(p.pack.file)})`}\n`);
    }
    for (const s of report.sources) for (const r of s.refused) io.out(`refused ${s.source} ${display(r.file)}: ${r.message}\n`);
  }
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  io.out(
    `${errors.length === 0 ? 'ok' : 'failed'}: ${plural(report.files.length, 'pack file')}, ${plural(report.checked, 'rule')} checked ` +
      `(${report.policy.rules.length} active in tier ${report.policy.tier}); ${plural(errors.length, 'error')}, ${plural(warnings.length, 'warning')}\n`,
  );
  return errors.length > 0 ? 1 : 0;
}
