/**
 * `buckler COMMAND --help`, for the commands' own modules: the help module (and the registries
 * it fills the table's texts from) loads only when help is asked for.
 */
import { commandSpec } from './command-table.ts';
import type { CliIO } from './io.ts';

export async function showHelp(command: string, io: CliIO): Promise<0> {
  const { commandHelp } = await import('./help.ts');
  io.out(commandHelp(commandSpec(command)!));
  return 0;
}
