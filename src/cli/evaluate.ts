/**
 * `buckler evaluate [-i FILE] [-o FILE] [--tier T]`: the harness-neutral entry point.
 * PolicyInput JSON in (stdin by default), PolicyOutput JSON out (stdout by default).
 * Exit 0 when an output was written (whatever the decision); 2 for bad JSON, a PolicyError or
 * bad arguments, with one line on stderr and no stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PolicyError } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { parsePolicyInput } from '../core/input.ts';
import { actionContext } from './action-context.ts';
import { TIERS, type Tier } from '../core/policy.ts';
import { loadRuntimePolicy } from '../packs/runtime.ts';
import { rulesProject } from './project.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { recordDecision } from './audit.ts';
import { policyOptions, processPaths, processUid } from './process-paths.ts';
import { gitAliasReader } from './git-config.ts';
import { scriptReader } from './script-reader.ts';
import { targetReader } from './target-reader.ts';
import { parseCommand, usageError } from './args.ts';
import type { CliIO } from './io.ts';
import { showHelp } from './show-help.ts';

export function checkTier(command: string, tier: string | undefined, io: CliIO): Tier | undefined | null {
  if (tier === undefined) return undefined;
  if ((TIERS as readonly string[]).includes(tier)) return tier as Tier;
  usageError(io, command, `--tier must be one of ${TIERS.join(', ')}, not '${tier}'`);
  return null;
}


export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('evaluate', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('evaluate', io);
  const { values } = parsed;
  const tier = checkTier('evaluate', values.tier as string | undefined, io);
  if (tier === null) return 2;

  let text: string;
  const inputFile = values.input as string | undefined;
  try {
    text = inputFile !== undefined && inputFile !== '-' ? fs.readFileSync(path.resolve(io.cwd, inputFile), 'utf8') : io.readStdin().toString('utf8');
  } catch (e) {
    io.err(`buckler evaluate: cannot read ${inputFile ?? 'stdin'} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 2;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (e) {
    io.err(`buckler evaluate: bad_json: the input is not valid JSON (${(e as Error).message.split('\n')[0]})\n`);
    return 2;
  }
  let input;
  try {
    input = parsePolicyInput(raw);
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    io.err(`buckler evaluate: ${e.code}: ${e.message}\n`);
    return 2;
  }
  input = { ...input, context: actionContext(input, { env: io.env, cwd: io.cwd }) };
  const project = rulesProject(input.context);
  const loaded = await loadRuntimePolicy(processPaths(io.env), { ...(tier ? { tier } : {}), ...policyOptions(io.env), ...(project === undefined ? {} : { project }) });
  for (const w of loaded.warnings) io.err(`buckler: ${w}\n`);
  const cwd = input.shell?.cwd ?? io.cwd;
  const output = evaluate(input, loaded.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env), readTarget: targetReader(cwd, io.env), paths: true });
  const worth = output.decision === 'deny' || output.decision === 'ask' || output.bypass;
  if (values.audit || loaded.config.audit_log === true || (loaded.config.audit_log === null && worth)) recordDecision(io, { input, output, harness: input.harness ?? 'cli' });
  const json = `${JSON.stringify(output)}\n`;
  const outputFile = values.output as string | undefined;
  if (outputFile === undefined || outputFile === '-') {
    io.out(json);
    return 0;
  }
  try {
    writeFileAtomic(path.resolve(io.cwd, outputFile), json);
  } catch (e) {
    io.err(`buckler evaluate: cannot write ${outputFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 2;
  }
  return 0;
}
