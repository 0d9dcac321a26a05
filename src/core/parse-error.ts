/**
 * Fail closed: before an action, a command line that cannot be parsed is denied, with a message
 * that says why and how to write it so that it can be checked.
 */
import { allowOutput, type PolicyOutput } from './contract.ts';
import type { ShellParseError } from '../shell/types.ts';

const REMEDY: Record<ShellParseError['code'], string> = {
  syntax: 'Fix the shell syntax and run it again.',
  unterminated: 'Close every quote, $( … ), backtick and here-document, then run it again.',
  too_deep: 'Write it without nesting bash -c, eval and command substitutions so deeply: run the inner command directly, or split the line into simpler commands.',
  too_large: 'Run a shorter command line: write long file contents with your file-editing tool instead of a here-document, and put a long script into a file that can be reviewed, then run that.',
  too_complex: 'Write it more simply: spell out large brace expansions, do not expand the same long variable or run the same text through eval or bash -c again and again, or put the script into a file that can be reviewed, then run that.',
};

export function parseErrorOutput(e: ShellParseError): PolicyOutput {
  const why = e.message.replace(/\.$/, '');
  return {
    ...allowOutput(),
    decision: 'deny',
    user_message: `Blocked a command line that could not be parsed (${why}), so Buckler could not check what it would run.`,
    agent_message:
      `This command was blocked before it ran because it could not be parsed (${why}); ` +
      `commands that cannot be checked are not run. ${REMEDY[e.code] ?? REMEDY.syntax}`,
    error: { code: 'parse_error', message: e.message },
  };
}
