/**
 * `buckler completion bash|zsh|fish`: shell completion generated from the command table, so
 * every command, subcommand and option completes, and option values from their `choices`.
 *
 * bash and zsh share one candidate function (`_buckler_candidates WORD… CURRENT`: the words
 * after `buckler`, the last being the one completed; it prints one candidate a line, or
 * `__files__` for a file name), written in the shell language both read the same way; each
 * shell's own glue hands its words to it. fish gets native `complete` lines.
 */
import { parseCommand, usageError } from './args.ts';
import { COMMAND_TABLE, COMMON_OPTIONS, HOOK, TOP_OPTIONS, type CommandSpec, type OptionSpec } from './command-table.ts';
import type { CliIO } from './io.ts';
import { showHelp } from './show-help.ts';
import { choicesOf, fill } from './table-text.ts';

const table = COMMAND_TABLE as readonly CommandSpec[];

/** A word safe inside single quotes. */
const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function names(options: readonly OptionSpec[]): string[] {
  return options.flatMap((o) => (o.short !== undefined ? [o.name, o.short] : [o.name]));
}

/** `case` arms: the options a command (and subcommand) take, and what each value option takes. */
function shellData(): { options: string[]; values: string[]; subs: string[]; operands: string[] } {
  const options: string[] = [];
  const values: string[] = [];
  const subs: string[] = [];
  const operands: string[] = [];
  const valueArm = (key: string, o: OptionSpec): void => {
    const choices = choicesOf(o.choices);
    const pattern = [o.name, ...(o.short !== undefined ? [o.short] : [])].map((n) => `${key} ${n}`).map(q).join('|');
    values.push(`    ${pattern}) printf '%s\\n' ${choices.length > 0 ? choices.map(q).join(' ') : '__files__'} ;;`);
  };
  const top = [...HOOK.options, ...TOP_OPTIONS];
  options.push(`    ' ') printf '%s\\n' ${[...table.map((c) => c.name), ...names(top)].map(q).join(' ')} ;;`);
  for (const o of HOOK.options) valueArm(' ', o);
  // The key `_buckler_candidates` looks values up by: "COMMAND SUBCOMMAND OPTION", either word may be empty.
  for (const c of table) {
    const own = [...c.options, ...COMMON_OPTIONS];
    if (c.subcommands !== undefined) {
      subs.push(`    ${q(c.name)}) printf '%s\\n' ${c.subcommands.map((s) => q(s.name)).join(' ')} ;;`);
      for (const s of c.subcommands) {
        options.push(`    ${q(`${c.name} ${s.name}`)}) printf '%s\\n' ${names([...own, ...(s.options ?? [])]).map(q).join(' ')} ;;`);
        for (const o of s.options ?? []) if (o.value !== undefined) valueArm(`${c.name} ${s.name}`, o);
      }
    }
    options.push(`    ${q(`${c.name} `)}*) printf '%s\\n' ${names(own).map(q).join(' ')} ;;`);
    for (const o of c.options) {
      if (o.value === undefined) continue;
      valueArm(`${c.name} `, o);
      for (const s of c.subcommands ?? []) valueArm(`${c.name} ${s.name}`, o);
    }
    const complete = c.complete ?? 'none';
    if (complete !== 'none') operands.push(`    ${q(c.name)}) echo ${complete === 'files' ? '__files__' : '__commands__'} ;;`);
  }
  return { options, values, subs, operands };
}

/** The candidate function bash and zsh share (POSIX shell, `local` aside). */
function candidates(): string {
  const d = shellData();
  return `_buckler_options() {
  case "$1" in
${d.options.join('\n')}
  esac
}
_buckler_values() {
  case "$1" in
${d.values.join('\n')}
    *) return 1 ;;
  esac
}
_buckler_subcommands() {
  case "$1" in
${d.subs.join('\n')}
  esac
}
_buckler_operands() {
  case "$1" in
${d.operands.join('\n')}
  esac
}
_buckler_candidates() {
  local cmd='' sub='' value='' w
  while [ $# -gt 1 ]; do
    w=$1
    shift
    if [ -n "$value" ]; then value=''; continue; fi
    case $w in
      -*=*) ;;
      -?*) _buckler_values "$cmd $sub $w" >/dev/null && value=$w ;;
      *)
        if [ -z "$cmd" ]; then cmd=$w
        elif [ -z "$sub" ] && [ -n "$(_buckler_subcommands "$cmd")" ]; then sub=$w
        fi ;;
    esac
  done
  if [ -n "$value" ]; then _buckler_values "$cmd $sub $value"; return; fi
  case $1 in
    -*) _buckler_options "$cmd $sub" ;;
    *)
      if [ -z "$cmd" ]; then _buckler_options ' '
      elif [ -z "$sub" ] && [ -n "$(_buckler_subcommands "$cmd")" ]; then _buckler_subcommands "$cmd"
      else _buckler_operands "$cmd"
      fi ;;
  esac
}`;
}

export function bashScript(): string {
  return `# buckler completion for bash, generated from Buckler's command table.
# Load it with: eval "$(buckler completion bash)"
${candidates()}
_buckler() {
  local cur=\${COMP_WORDS[COMP_CWORD]} c words=()
  COMPREPLY=()
  while IFS= read -r c; do
    case $c in
      __files__) while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -f -- "$cur") ;;
      __commands__) while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -c -- "$cur") ;;
      "$cur"*) COMPREPLY+=("$c") ;;
    esac
  done < <(_buckler_candidates "\${COMP_WORDS[@]:1:COMP_CWORD}")
}
complete -F _buckler buckler
`;
}

export function zshScript(): string {
  return `#compdef buckler
# buckler completion for zsh, generated from Buckler's command table.
# Load it with: eval "$(buckler completion zsh)"  (after compinit)
${candidates()}
_buckler() {
  local -a cands
  local c
  cands=()
  for c in \${(f)"$(_buckler_candidates "\${(@)words[2,CURRENT]}")"}; do
    case $c in
      __files__) _files ;;
      __commands__) _command_names ;;
      *) cands+=("$c") ;;
    esac
  done
  (( \${#cands} )) && compadd -- "\${cands[@]}"
  return 0
}
if (( $+functions[compdef] )); then compdef _buckler buckler; fi
`;
}

export function fishScript(): string {
  const lines = ['# buckler completion for fish, generated from Buckler\'s command table.', '# Load it with: buckler completion fish | source', 'complete -c buckler -f'];
  const opt = (cond: string, o: OptionSpec): string => {
    const choices = choicesOf(o.choices);
    const arg = o.value === undefined ? '' : choices.length > 0 ? ` -x -a ${q(choices.join(' '))}` : ' -r -F';
    const short = o.short !== undefined ? ` -s ${o.short.slice(1)}` : '';
    const first = fill(o.help).split('\n')[0] ?? '';
    return `complete -c buckler -n ${q(cond)} -l ${o.name.slice(2)}${short}${arg} -d ${q(first)}`;
  };
  for (const c of table) lines.push(`complete -c buckler -n __fish_use_subcommand -a ${q(c.name)} -d ${q(c.summary)}`);
  for (const o of [...HOOK.options, ...TOP_OPTIONS]) lines.push(opt('__fish_use_subcommand', o));
  for (const c of table) {
    const seen = `__fish_seen_subcommand_from ${c.name}`;
    for (const o of [...c.options, ...COMMON_OPTIONS]) lines.push(opt(seen, o));
    if (c.subcommands !== undefined) {
      const none = `${seen}; and not __fish_seen_subcommand_from ${c.subcommands.map((s) => s.name).join(' ')}`;
      for (const s of c.subcommands) {
        lines.push(`complete -c buckler -n ${q(none)} -a ${q(s.name)} -d ${q(s.summary)}`);
        for (const o of s.options ?? []) lines.push(opt(`${seen}; and __fish_seen_subcommand_from ${s.name}`, o));
      }
    }
    if (c.complete === 'files') lines.push(`complete -c buckler -n ${q(seen)} -F`);
    if (c.complete === 'commands') lines.push(`complete -c buckler -n ${q(seen)} -a '(__fish_complete_command)'`);
  }
  return `${lines.join('\n')}\n`;
}

const SCRIPTS: Record<string, () => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

export function run(args: string[], io: CliIO): number | Promise<number> {
  const parsed = parseCommand('completion', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('completion', io);
  if (parsed.operands.length > 0) return usageError(io, 'completion', `unexpected argument '${parsed.operands[0]}'`);
  io.out((SCRIPTS[parsed.subcommand as string] as () => string)());
  return 0;
}
