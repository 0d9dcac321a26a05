/**
 * Help generated from the command table: `buckler --help` (every command), `buckler COMMAND
 * --help` and `buckler help [COMMAND]` (its usage, text, options and exit codes).
 */
import { parseCommand, usageError } from './args.ts';
import { COMMAND_TABLE, COMMON_OPTIONS, commandSpec, HOOK, type CommandSpec, type OptionSpec } from './command-table.ts';
import type { CliIO } from './io.ts';
import { fill } from './table-text.ts';

declare const __BUCKLER_VERSION__: string;
const VERSION: string = typeof __BUCKLER_VERSION__ === 'string' ? __BUCKLER_VERSION__ : '0.0.0-dev';

const WIDTH = 96;

/** `text` broken into lines of at most `width` characters, at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** `buckler --help`: the hook mode, then every command with its summary. */
export function helpText(): string {
  const named = (COMMAND_TABLE as readonly CommandSpec[]).filter((c) => c.name !== 'version' && c.name !== 'help');
  const width = Math.max(...named.map((c) => c.name.length));
  const pad = ' '.repeat(28);
  const hook = wrap(fill(`${HOOK.summary} (NAME: {harnesses}; default $BUCKLER_DRIVER or {default_driver}; EVENT: for payloads that do not name their event, Copilot CLI native hooks)`), WIDTH - pad.length);
  return [
    `buckler ${VERSION} — policy engine for AI coding agents' hooks`,
    '',
    'Usage:',
    `  buckler ${HOOK.options.map((o) => `[${o.name} ${o.value}]`).join(' ')}`,
    ...hook.map((l) => pad + l),
    ...named.map((c) => `  buckler ${c.name.padEnd(width)}  ${c.summary}`),
    '  buckler version | --version | -v | --help',
    '',
    "Run 'buckler COMMAND --help' for a command's options.",
    '',
  ].join('\n');
}

function optionRows(options: readonly OptionSpec[]): string[] {
  const left = options.map((o) => `  ${o.short !== undefined ? `${o.short}, ` : '    '}${o.name}${o.value !== undefined ? ` ${o.value}` : ''}`);
  const col = Math.max(22, ...left.map((l) => l.length + 2));
  return options.flatMap((o, i) => {
    // Filled-in lists can be long: the text is wrapped again to the width.
    const [first = '', ...rest] = wrap(fill(o.help), WIDTH - col);
    return [`${(left[i] as string).padEnd(col)}${first}`, ...rest.map((l) => `${' '.repeat(col)}${l}`)];
  });
}

/** `buckler COMMAND --help`. */
export function commandHelp(spec: CommandSpec): string {
  const [first, ...more] = spec.usage;
  const parts = [[`Usage: ${first}`, ...more.map((u) => `       ${u}`)].join('\n'), fill(spec.about)];
  const own = [...spec.options, ...COMMON_OPTIONS];
  parts.push(['Options:', ...optionRows(own)].join('\n'));
  for (const sub of spec.subcommands ?? []) {
    if (sub.options !== undefined && sub.options.length > 0) parts.push([`Options of ${spec.name} ${sub.name}:`, ...optionRows(sub.options)].join('\n'));
  }
  if (spec.notes !== undefined) parts.push(fill(spec.notes));
  return `${parts.join('\n\n')}\n`;
}

/** `buckler help [COMMAND]`. */
export function run(args: string[], io: CliIO): number {
  const parsed = parseCommand('help', args, io);
  if (!parsed) return 2;
  const name = parsed.operands[0];
  if (parsed.help || name === undefined) {
    io.out(parsed.help ? commandHelp(commandSpec('help')!) : helpText());
    return 0;
  }
  const spec = commandSpec(name);
  if (spec === undefined || parsed.operands.length > 1) return usageError(io, 'help', parsed.operands.length > 1 ? 'give one command' : `unknown command '${name}'`);
  io.out(commandHelp(spec));
  return 0;
}
