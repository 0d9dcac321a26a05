/**
 * `buckler evaluate [-i FILE] [-o FILE] [--tier T]`: the harness-neutral entry point.
 * PolicyInput JSON in (stdin by default), PolicyOutput JSON out (stdout by default).
 * Exit 0 when an output was written (whatever the decision); 2 for bad JSON, a PolicyError or
 * bad arguments, with one line on stderr and no stack trace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PolicyError } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { parsePolicyInput } from '../core/input.ts';
import { TIERS, type Tier } from '../core/policy.ts';
import { loadRuntimePolicy } from '../packs/runtime.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { recordDecision } from './audit.ts';
import { processPaths, processUid } from './process-paths.ts';
import { gitAliasReader } from './git-config.ts';
import { scriptReader } from './script-reader.ts';
import type { CliIO } from './io.ts';

export const EVALUATE_HELP = `Usage: buckler evaluate [-i FILE] [-o FILE] [--tier baseline|strict]

Reads one PolicyInput (JSON, see docs/contracts/policy-io.md) and writes the PolicyOutput.

Options:
  -i, --input FILE    read the PolicyInput from FILE (default: stdin)
  -o, --output FILE   write the PolicyOutput to FILE (default: stdout)
      --tier TIER     use this tier instead of config.toml's [core] tier
      --audit         append the decision to the audit log (also: audit_log = true)
  -h, --help          show this help

Exit codes: 0 output written (any decision), 2 bad JSON, bad input or bad arguments.
`;

export interface CommandArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Parses a command's options (node:util parseArgs, strict); a bad option is reported and gives null. */
export function parseCommandArgs(
  command: string,
  args: string[],
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'],
  io: CliIO,
  allowPositionals = false,
): CommandArgs | null {
  try {
    const { values, positionals } = parseArgs({ args, options: options ?? {}, allowPositionals, strict: true });
    return { values: values as CommandArgs['values'], positionals };
  } catch (e) {
    io.err(`buckler ${command}: ${(e as Error).message.split('\n')[0]} (see 'buckler ${command} --help')\n`);
    return null;
  }
}

export function checkTier(command: string, tier: string | undefined, io: CliIO): Tier | undefined | null {
  if (tier === undefined) return undefined;
  if ((TIERS as readonly string[]).includes(tier)) return tier as Tier;
  io.err(`buckler ${command}: --tier must be one of ${TIERS.join(', ')}, not '${tier}'\n`);
  return null;
}


export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommandArgs(
    'evaluate',
    args,
    {
      input: { type: 'string', short: 'i' },
      output: { type: 'string', short: 'o' },
      tier: { type: 'string' },
      audit: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    io,
  );
  if (!parsed) return 2;
  const { values } = parsed;
  if (values.help) {
    io.out(EVALUATE_HELP);
    return 0;
  }
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
  const loaded = await loadRuntimePolicy(processPaths(io.env), { ...(tier ? { tier } : {}), uid: processUid() });
  for (const w of loaded.warnings) io.err(`buckler: ${w}\n`);
  const cwd = input.shell?.cwd ?? io.cwd;
  const output = evaluate(input, loaded.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env) });
  if (values.audit || loaded.config.audit_log) recordDecision(io, { input, output, harness: input.harness ?? 'cli' });
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
