/**
 * The argument module: every command's argv read one way, from its entry in the command table.
 *
 * - `--name value`, `--name=value`, `-x value`, `-xVALUE`; a flag takes no value (`--json=x` is
 *   an error); a value option given twice keeps the last, unless it is `multiple`.
 * - `--` ends the options; `-` alone is an operand.
 * - operands `none`: any operand is an error; `some`: operands and options mix; `words`: the
 *   options end at the first operand, and it and every word after it are the operands (a
 *   command line: `buckler check git push --force`).
 * - `-h`/`--help` anywhere among the options: `help` is set, nothing else is checked.
 *
 * Errors are one line, `buckler <command>: <problem> (see 'buckler <command> --help')`, and a
 * usage error exits 2 (`usageError`).
 */
import { COMMON_OPTIONS, commandSpec, type CommandSpec, type OptionSpec } from './command-table.ts';
import type { CliIO } from './io.ts';

export type OptionValue = string | string[] | boolean;

export interface Parsed {
  /** `subcommand` when the command has subcommands (checked against the table). */
  subcommand: string | undefined;
  /** By option name without the dashes: `values['packs-dir']`. Flags: true; `multiple`: every value. */
  values: Record<string, OptionValue | undefined>;
  operands: string[];
  help: boolean;
}

export class UsageError extends Error {}

/** The one-line usage error and exit code 2. */
export function usageError(io: CliIO, command: string, problem: string): 2 {
  io.err(`buckler ${command}: ${problem} (see 'buckler ${command.split(' ')[0]} --help')\n`);
  return 2;
}

/** The options `command` (and `subcommand`) take, `--help` included. */
export function optionsOf(spec: CommandSpec, subcommand?: string): readonly OptionSpec[] {
  const sub = spec.subcommands?.find((s) => s.name === subcommand);
  return [...spec.options, ...(sub?.options ?? []), ...COMMON_OPTIONS];
}

/** Reads `args` as the table says `command` takes them; throws UsageError. */
export function parseArgv(spec: CommandSpec, args: readonly string[]): Parsed {
  const out: Parsed = { subcommand: undefined, values: {}, operands: [], help: false };
  let skip = -1;
  if (spec.subcommands !== undefined) {
    skip = subcommandAt(spec, args);
    const first = args[skip];
    if (first === 'help' || (first === undefined && args.some((a) => a === '-h' || a === '--help'))) return { ...out, help: true };
    if (first === undefined) throw new UsageError(`say ${orList(spec.subcommands.map((s) => s.name))}`);
    if (!spec.subcommands.some((s) => s.name === first)) throw new UsageError(`unknown command '${first}' (${orList(spec.subcommands.map((s) => s.name))})`);
    out.subcommand = first;
  }
  const options = optionsOf(spec, out.subcommand);
  for (let i = 0; i < args.length; i++) {
    if (i === skip) continue;
    const arg = args[i] as string;
    if (arg === '--') {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (spec.operands === 'words') {
        out.operands.push(...args.slice(i));
        break;
      }
      out.operands.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const eq = long ? arg.indexOf('=') : -1;
    const name = long ? (eq > 0 ? arg.slice(0, eq) : arg) : arg.slice(0, 2);
    const opt = options.find((o) => (long ? o.name === name : o.short === name));
    if (opt === undefined) throw new UsageError(`unknown option '${long ? name : arg}'`);
    const key = opt.name.slice(2);
    if (key === 'help') {
      out.help = true;
      continue;
    }
    if (opt.value === undefined) {
      if (eq > 0 || (!long && arg.length > 2)) throw new UsageError(`${opt.name} takes no value`);
      out.values[key] = true;
      continue;
    }
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else if (!long && arg.length > 2) value = arg.slice(2);
    else value = args[++i];
    if (value === undefined) throw new UsageError(`${long ? name : arg} needs a value (${opt.value})`);
    const had = out.values[key];
    out.values[key] = opt.multiple ? [...(Array.isArray(had) ? had : []), value] : value;
  }
  if (spec.operands === 'none' && out.operands.length > 0 && !out.help) throw new UsageError(`unexpected argument '${out.operands[0]}'`);
  return out;
}

/**
 * `args` read for `command` (a name in the command table), or null after a one-line error on
 * stderr (exit 2 is the caller's).
 */
export function parseCommand(command: string, args: readonly string[], io: CliIO): Parsed | null {
  const spec = commandSpec(command);
  if (spec === undefined) throw new Error(`no command ${command} in the command table`);
  try {
    return parseArgv(spec, args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const sub = spec.subcommands !== undefined && spec.subcommands.some((s) => s.name === args[0]) ? ` ${args[0]}` : '';
    usageError(io, `${command}${sub}`, e.message);
    return null;
  }
}

/** A string option's value (the last given). */
export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}

/** A `multiple` option's values. */
export function list(p: Parsed, name: string): string[] | undefined {
  const v = p.values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : undefined;
}

export function flag(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}

/** Where the subcommand is: the first operand, past the command's own options and their values. */
function subcommandAt(spec: CommandSpec, args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') return -1;
    if (!a.startsWith('-') || a === '-') return i;
    const opt = spec.options.find((o) => o.name === a || o.short === a);
    if (opt?.value !== undefined) i++;
  }
  return -1;
}

function orList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
