/**
 * `buckler scan [DIR|FILE]`: what a repository would run, decided as a hook decides what an
 * agent runs. Every package.json script, Makefile recipe, shell script, GitHub Actions `run:`
 * step, GitLab CI script line, Dockerfile `RUN` and git hook (.githooks/, .husky/) is read by
 * the reader of its format (src/shell/script-formats/) and decided under this machine's policy:
 * the same packs, rules.d, config.toml and tier, and the repository's .buckler/rules.d, trusted
 * or not as the trust store says now. A finding is a line an agent would be denied (error),
 * asked about (warning) or nudged on (note) if it ran it here. Exit 0 without an error-level
 * finding (`--fail-on` tightens), 1 with one, 2 on a usage error or input that cannot be read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { POLICY_IO_VERSION, type PolicyInput } from '../core/contract.ts';
import { BYPASS_VARS, type CompiledPolicy, type Tier } from '../core/policy.ts';
import { loadRuntimePolicy, type RuntimeOptions } from '../packs/runtime.ts';
import { parseCommand, str, usageError } from './args.ts';
import { checkTier } from './evaluate.ts';
import { gitAliasReader } from './git-config.ts';
import type { CliIO } from './io.ts';
import { placeInput, withPolicyEnv } from './command-input.ts';
import { policyOptions, processPaths } from './process-paths.ts';
import { rulesProject } from './project.ts';
import { MAX_SCRIPT_BYTES, readSmallFile, scriptReader } from './script-reader.ts';
import { decidePiece, type Finding, type Level } from './scan/decide.ts';
import { findInputs, kindByName, type ScanFile } from './scan/files.ts';
import { piecesOf, UnreadableInput } from './scan/pieces.ts';
import { sarifLog } from './scan/sarif.ts';
import { showHelp } from './show-help.ts';

declare const __BUCKLER_VERSION__: string;
const VERSION: string = typeof __BUCKLER_VERSION__ === 'string' ? __BUCKLER_VERSION__ : '0.0.0-dev';

const RANK: Readonly<Record<Level, number>> = { error: 3, warning: 2, note: 1 };

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('scan', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('scan', io);
  const { values, operands } = parsed;
  if (operands.length > 1) return usageError(io, 'scan', `give one directory (or file) to scan, not ${operands.length}`);
  const format = str(parsed, 'format') ?? 'text';
  if (format !== 'text' && format !== 'sarif') return usageError(io, 'scan', `--format must be text or sarif, not '${format}'`);
  const failOn = (str(parsed, 'fail-on') ?? 'error') as Level;
  if (!Object.hasOwn(RANK, failOn)) return usageError(io, 'scan', `--fail-on must be error, warning or note, not '${failOn}'`);
  const tier = checkTier('scan', values.tier as string | undefined, io);
  if (tier === null) return 2;
  const packs = str(parsed, 'packs');
  const selected = packs === undefined ? undefined : packs.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (selected !== undefined && selected.length === 0) return usageError(io, 'scan', '--packs needs pack ids, e.g. --packs agent-git,agent-fs');

  // What to scan: a directory (the repository), or one file of a kind the scan reads.
  const target = path.resolve(io.cwd, operands[0] ?? '.');
  let st: fs.Stats;
  try {
    st = fs.statSync(target);
  } catch (e) {
    io.err(`buckler scan: cannot read ${operands[0] ?? '.'} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 2;
  }
  const root = st.isDirectory() ? target : path.dirname(target);
  let files: ScanFile[];
  if (st.isDirectory()) {
    try {
      files = findInputs(root);
    } catch (e) {
      io.err(`buckler scan: cannot read ${(e as NodeJS.ErrnoException).path ?? root} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
      return 2;
    }
  } else {
    const rel = path.basename(target);
    const kind = kindByName(rel);
    if (kind === null) {
      io.err(`buckler scan: ${operands[0]} is not a file the scan reads (package.json, Makefile, *.sh, Dockerfile, .gitlab-ci.yml, a workflow or a git hook; or give a directory)\n`);
      return 2;
    }
    files = [{ file: target, rel, kind: kind === 'maybe-shell' ? 'shell-script' : kind }];
  }

  // The policy: as a hook with its working directory in the repository loads it.
  const env = io.env;
  const rootInput = placeInput({ policy_io_version: POLICY_IO_VERSION, trigger: 'pre_shell_exec', harness: 'cli', shell: { command: '', cwd: root } }, { cwd: root, home: undefined, project: undefined, tool: undefined }, io);
  const projectRoots = rootInput.context?.project_roots ?? [root];
  const opts: RuntimeOptions = { ...(tier ? { tier: tier as Tier } : {}), ...policyOptions(env) };
  for (const [key, name] of [['packsDir', 'packs-dir'], ['rulesDir', 'rules-dir'], ['configFile', 'config']] as const) {
    const v = str(parsed, name);
    if (v !== undefined) opts[key] = path.resolve(io.cwd, v);
  }
  const project = rulesProject(rootInput.context);
  const loaded = await loadRuntimePolicy(processPaths(env), { ...opts, ...(project === undefined ? {} : { project }) });
  for (const w of loaded.warnings) io.err(`buckler: ${w}\n`);
  let policy: CompiledPolicy = loaded.policy;
  if (selected !== undefined) {
    const known = new Set(policy.packs.map((p) => p.id));
    const unknown = selected.filter((p) => !known.has(p));
    if (unknown.length > 0) return usageError(io, 'scan', `--packs: no pack '${unknown[0]}' is loaded here (loaded: ${[...known].sort().join(', ')})`);
    const keep = new Set(selected);
    policy = { ...policy, rules: policy.rules.filter((r) => keep.has(r.pack)), ...(policy.guarded_words ? { guarded_words: policy.guarded_words.filter((g) => keep.has(g.pack)) } : {}) };
  }

  const withoutBypass = Object.fromEntries(Object.entries(env).filter(([k]) => !(BYPASS_VARS as readonly string[]).includes(k)));
  const place = {
    input: (command: string, cwd: string): PolicyInput => {
      const input = placeInput({ policy_io_version: POLICY_IO_VERSION, trigger: 'pre_shell_exec', harness: 'cli', shell: { command, cwd } }, { cwd, home: undefined, project: projectRoots, tool: undefined }, io);
      // The variables the rules read, from this environment; never the operator bypass: a scan
      // reports what an agent would meet, not what this shell lets through.
      return withPolicyEnv(input, policy.env_keys.filter((k) => !(BYPASS_VARS as readonly string[]).includes(k)), { ...io, env: withoutBypass });
    },
    options: (cwd: string) => ({ readScript: scriptReader(cwd, env), readAliases: gitAliasReader(cwd, env), paths: false }),
  };

  const findings: Finding[] = [];
  for (const f of files) {
    const read = readSmallFile(f.file, MAX_SCRIPT_BYTES);
    if (read.kind !== 'text') {
      io.err(`buckler scan: cannot read ${f.rel} (${read.kind === 'missing' ? 'it went away' : `not a regular file, unreadable, or larger than ${MAX_SCRIPT_BYTES} bytes`})\n`);
      return 2;
    }
    let pieces;
    try {
      pieces = await piecesOf(f.kind, read.text, f.rel);
    } catch (e) {
      if (!(e instanceof UnreadableInput)) throw e;
      io.err(`buckler scan: cannot read ${e.message}\n`);
      return 2;
    }
    // Where each piece runs: npm, make and docker build in the file's directory; CI jobs,
    // git hooks and scripts (as run from the top) in the repository's.
    const cwd = f.kind === 'package-json' || f.kind === 'makefile' || f.kind === 'dockerfile' ? path.dirname(f.file) : root;
    for (const p of pieces) findings.push(...decidePiece(p, f.rel, cwd, policy, place));
  }

  if (format === 'sarif') io.out(`${JSON.stringify(sarifLog(findings, root, VERSION), null, 2)}\n`);
  else io.out(textReport(findings, files.length, policy.tier));
  return findings.some((f) => RANK[f.level] >= RANK[failOn]) ? 1 : 0;
}

function textReport(findings: readonly Finding[], files: number, tier: string): string {
  const lines: string[] = [];
  for (const f of findings) lines.push(`${f.file}:${f.line}:${f.column}: ${f.level} ${f.rule}: ${f.message}`, `    ${f.where}: ${f.command}`);
  const count = (l: Level): number => findings.filter((f) => f.level === l).length;
  const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
  lines.push(`scan: ${plural(files, 'file')} read (tier ${tier}); ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('note'), 'note')}`, '');
  return lines.join('\n');
}
