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
import { actionContext } from './action-context.ts';
import { TIERS, type Tier } from '../core/policy.ts';
import { loadRuntimePolicy } from '../packs/runtime.ts';
import { rulesProject } from './project.ts';
import { writeFileAtomic } from '../files/atomic.ts';
import { recordDecision } from './audit.ts';
import { policyOptions, processPaths, processUid } from './process-paths.ts';
import { gitAliasReader } from './git-config.ts';
import { scriptReader } from './script-reader.ts';
import type { CliIO } from './io.ts';

export const EVALUATE_HELP = `Usage: buckler evaluate [-i FILE] [-o FILE] [--tier baseline|strict]

Reads one PolicyInput (JSON, see docs/contracts/policy-io.md) and writes the PolicyOutput.

Options:
  -i, --input FILE    read the PolicyInput from FILE (default: stdin)
  -o, --output FILE   write the PolicyOutput to FILE (default: stdout)
      --tier TIER     use this tier instead of config.toml's [core] tier
      --audit         append the decision to the audit log (also: audit_log = true;
                      by default denials, asks and bypasses are recorded)
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

/**
 * For commands whose positionals are a command line (`check`, `explain`): options are read only
 * up to the first word that is not one of the command's own options, and every word from there
 * on is the command line, dashes and all (`buckler check git push --force origin main`).
 * `--` ends the options too.
 */
export function parseCommandWords(
  command: string,
  args: string[],
  options: NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>,
  io: CliIO,
): CommandArgs | null {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (!a.startsWith('-') || a === '-') break;
    const name = a.startsWith('--') ? a.slice(2).split('=')[0]! : null;
    const spec = name !== null ? options[name] : Object.values(options).find((o) => o.short === a.slice(1, 2));
    // Not one of ours, before any command word: a mistyped option (a command line never starts
    // with a dash), reported as parseArgs reports it.
    if (!spec) return parseCommandArgs(command, args.slice(0, i + 1), options, io);
    if (spec.type === 'string' && !a.includes('=') && (name !== null || a.length === 2)) i++;
  }
  const head = parseCommandArgs(command, args.slice(0, i), options, io);
  if (!head) return null;
  const rest = args[i] === '--' ? args.slice(i + 1) : args.slice(i);
  return { values: head.values, positionals: rest };
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
  input = { ...input, context: actionContext(input, { env: io.env, cwd: io.cwd }) };
  const project = rulesProject(input.context);
  const loaded = await loadRuntimePolicy(processPaths(io.env), { ...(tier ? { tier } : {}), ...policyOptions(io.env), ...(project === undefined ? {} : { project }) });
  for (const w of loaded.warnings) io.err(`buckler: ${w}\n`);
  const cwd = input.shell?.cwd ?? io.cwd;
  const output = evaluate(input, loaded.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env), paths: true });
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
