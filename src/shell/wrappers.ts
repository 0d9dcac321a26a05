/**
 * Programs that run other programs, as data plus small handlers: each handler skips the
 * wrapper's own options and says what runs next. Parser-independent: handlers see argv words
 * only, and reach nested scripts through the UnwrapContext.
 */
import { type OptionScan, type OptionSpec, has, scanOptions } from './getopt.ts';
import { scanInlineCode, type InlineLanguage } from './interpreters.ts';
import { xargsCommands, xargsItems } from './xargs-input.ts';
import type { ScriptSource, ShellCommand } from './types.ts';
import { type ArgWord, literalArg } from './word-value.ts';

/** What a shell would read as its script on standard input. */
export type Stdin = (
  | { kind: 'text'; text: string; dynamic: boolean; label: string }
  | { kind: 'file'; path: ArgWord; label: string }
  | { kind: 'unknown'; label: string }
) & {
  /** The commands whose output it is, when known (ShellCommand.script_from). */
  from?: readonly ScriptSource[];
};

export interface UnwrapContext {
  readonly via: readonly string[];
  readonly stdin: Stdin | null;
  emit(cmd: ShellCommand): void;
  /**
   * Analyse script text (`bash -c`, `eval`, `watch`); a run-time script also gives an opaque
   * command. `positional`: the script's `$0 $1 …` when the command line gives them
   * (`bash -c TEXT $0 $1 …`); without it they are unknown.
   */
  script(text: ArgWord, label: string, positional?: readonly ArgWord[]): void;
  /**
   * Analyse a script file named by a literal path (`bash FILE`, `source FILE`, `./x.sh`), or
   * by `<(…)`. `positional`: the arguments after the file (`$1 …`; `$0` is the file).
   */
  file(path: ArgWord, label: string, requireShebang: boolean, positional?: readonly ArgWord[]): void;
  /**
   * A program file an interpreter runs (`python3 x.py`): when it was written or named earlier on
   * the line, an opaque command marked `unseen` (with its ShellCommand.script_from) is reported.
   */
  program(path: ArgWord, label: string): void;
  /** Unwrap another argv found inside this one (`find -exec … ;`). */
  unwrap(argv: ArgWord[], label: string, stdin: Stdin | null): void;
}

export type Step =
  /** Continue with `argv` as the command, through wrapper `label`. */
  | { kind: 'exec'; argv: ArgWord[]; label: string; keepStdin: boolean }
  /** The program itself is the command (it runs nothing else, or only what the handler reported). */
  | { kind: 'self' }
  /** The handler reported everything itself. */
  | { kind: 'done' }
  /** Options not understood: what runs cannot be known. */
  | { kind: 'opaque'; reason: string };

export type Handler = (args: ArgWord[], prog: string, u: UnwrapContext) => Step;

const exec = (argv: ArgWord[], label: string, keepStdin = true): Step =>
  argv.length === 0 ? { kind: 'self' } : { kind: 'exec', argv, label, keepStdin };
const opaque = (scan: OptionScan & { ok: false }): Step => ({ kind: 'opaque', reason: scan.reason });

/** Generic wrapper: options, then `operands` fixed operands, then the command. */
function simpleWrapper(spec: OptionSpec, opts: { operands?: number; noRun?: string[]; label?: string } = {}): Handler {
  return (args, prog) => {
    const scan = scanOptions(args, 1, spec);
    if (!scan.ok) return opaque(scan);
    if (opts.noRun !== undefined && has(scan, ...opts.noRun)) return { kind: 'self' };
    const start = scan.next + (opts.operands ?? 0);
    if (start >= args.length) return { kind: 'self' };
    return exec(args.slice(start), opts.label ?? prog);
  };
}

const HELP = { help: 'none', version: 'none' } as const;

/** `NAME=value` words (env, sudo) before the command. */
function skipAssignments(args: ArgWord[], i: number): number {
  let j = i;
  while (j < args.length) {
    const w = args[j];
    if (w === undefined || w.dynamic || !/^[^=]+=/.test(w.value) || w.value.startsWith('-')) break;
    j++;
  }
  return j;
}

// ---- env --------------------------------------------------------------------------------------

const ENV_SPEC: OptionSpec = {
  short: 'i0vu:C:S:a:',
  long: {
    'ignore-environment': 'none', null: 'none', unset: 'required', chdir: 'required', 'split-string': 'required',
    'block-signal': 'optional', 'default-signal': 'optional', 'ignore-signal': 'optional',
    'list-signal-handling': 'none', debug: 'none', argv0: 'required', ...HELP,
  },
  stopAfter: ['S', 'split-string'],
};

/** Splits an `env -S` string the way env does (quotes, backslash escapes); `${VAR}` is run-time. */
export function splitEnvString(s: string, start: number): ArgWord[] | null {
  const out: ArgWord[] = [];
  let cur = '';
  let inWord = false;
  let dynamic = false;
  let i = 0;
  const push = (): void => {
    if (inWord) out.push({ value: cur, dynamic, glob: false, start });
    cur = '';
    inWord = false;
    dynamic = false;
  };
  const ESC: Record<string, string> = { f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', _: ' ', '\\': '\\', '"': '"', "'": "'", '#': '#', $: '$' };
  while (i < s.length) {
    const c = s.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n') {
      push();
      i++;
    } else if (c === '#' && !inWord) {
      break;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end === -1) return null;
      cur += s.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        const d = s.charAt(i);
        if (d === '') return null;
        if (d === '"') break;
        if (d === '\\') {
          const e = ESC[s.charAt(i + 1)];
          if (e === undefined) return null;
          cur += e;
          i += 2;
        } else if (d === '$' && s.charAt(i + 1) === '{') {
          const end = s.indexOf('}', i);
          if (end === -1) return null;
          cur += s.slice(i, end + 1);
          dynamic = true;
          i = end + 1;
        } else {
          cur += d;
          i++;
        }
      }
      i++;
    } else if (c === '\\') {
      const n = s.charAt(i + 1);
      if (n === 'c') break;
      const e = ESC[n];
      if (e === undefined) return null;
      cur += e;
      inWord = true;
      i += 2;
    } else if (c === '$' && s.charAt(i + 1) === '{') {
      const end = s.indexOf('}', i);
      if (end === -1) return null;
      cur += s.slice(i, end + 1);
      dynamic = true;
      inWord = true;
      i = end + 1;
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  push();
  return out;
}

const env: Handler = (argsIn) => {
  let args = argsIn;
  let from = 1;
  // `-S` splices its split string into the arguments and option parsing goes on there.
  for (let guard = 0; guard < 16; guard++) {
    const scan = scanOptions(args, from, ENV_SPEC);
    if (!scan.ok) return opaque(scan);
    if (has(scan, 'help', 'version', 'list-signal-handling')) return { kind: 'self' };
    const split = scan.options.find((o) => o.name === 'S' || o.name === 'split-string');
    if (split === undefined) {
      const start = skipAssignments(args, scan.next);
      return start >= args.length ? { kind: 'self' } : exec(args.slice(start), 'env');
    }
    if (split.dynamic === true || split.value === null) return { kind: 'opaque', reason: 'env -S with a run-time string' };
    const words = splitEnvString(split.value, args[0]?.start ?? 0);
    if (words === null) return { kind: 'opaque', reason: 'env -S string not understood' };
    // Re-read: the split words take the place of the -S option; option parsing goes on there.
    args = [...args.slice(0, 1), ...words, ...args.slice(split.end)];
    from = 1;
  }
  return { kind: 'opaque', reason: 'env -S nested too deeply' };
};

// ---- sudo, doas, … ----------------------------------------------------------------------------

const SUDO_SPEC: OptionSpec = {
  short: 'Aa:BbC:c:D:Eeg:Hh::iKkLlNnPp:R:r:SsT:t:U:u:Vv',
  long: {
    askpass: 'none', background: 'none', bell: 'none', 'close-from': 'required', chdir: 'required',
    'preserve-env': 'optional', edit: 'none', group: 'required', 'set-home': 'none', help: 'none',
    host: 'required', login: 'none', 'remove-timestamp': 'none', 'reset-timestamp': 'none', list: 'none',
    'non-interactive': 'none', 'preserve-groups': 'none', prompt: 'required', chroot: 'required',
    role: 'required', stdin: 'none', shell: 'none', type: 'required', 'command-timeout': 'required',
    'other-user': 'required', user: 'required', version: 'none', validate: 'none', 'login-class': 'required',
    'auth-type': 'required',
  },
};

const sudo: Handler = (args, prog) => {
  const scan = scanOptions(args, 1, SUDO_SPEC);
  if (!scan.ok) return opaque(scan);
  if (has(scan, 'e', 'edit', 'l', 'list', 'v', 'validate', 'V', 'version', 'K', 'remove-timestamp', 'help')) return { kind: 'self' };
  if (scan.options.some((o) => o.name === 'h' && o.value === null)) return { kind: 'self' };
  const start = skipAssignments(args, scan.next);
  return start >= args.length ? { kind: 'self' } : exec(args.slice(start), prog);
};

const doas: Handler = (args, prog) => {
  const scan = scanOptions(args, 1, { short: 'a:C:Lnsu:' });
  if (!scan.ok) return opaque(scan);
  if (has(scan, 'L', 'C')) return { kind: 'self' };
  return exec(args.slice(scan.next), prog);
};

const command: Handler = (args) => {
  const scan = scanOptions(args, 1, { short: 'pvV' });
  if (!scan.ok) return opaque(scan);
  if (has(scan, 'v', 'V')) return { kind: 'self' };
  return exec(args.slice(scan.next), 'command');
};

const XARGS_SPEC: OptionSpec = {
  short: '0a:d:E:e::I:i::L:l::n:oP:prs:txJ:R:S:',
  long: {
    null: 'none', 'arg-file': 'required', delimiter: 'required', eof: 'optional', replace: 'optional',
    'max-lines': 'optional', 'max-args': 'required', 'open-tty': 'none', 'max-procs': 'required',
    interactive: 'none', 'process-slot-var': 'required', 'no-run-if-empty': 'none', 'max-chars': 'required',
    'show-limits': 'none', verbose: 'none', exit: 'none', ...HELP,
  },
};

/** Marks words holding `{}`/the replacement string (or appends the read arguments) as run-time. */
function withRunTimeArgs(argv: ArgWord[], repl: string | null, placeholder: string, from?: readonly ScriptSource[]): ArgWord[] {
  // `from`: the commands whose output the arguments are read from (`curl … | xargs bash -c`).
  const src = from !== undefined && from.length > 0 ? { from } : {};
  if (repl === null) return placeholder === '' ? argv : [...argv, { value: placeholder, dynamic: true, glob: false, start: argv[0]?.start ?? 0, ...src }];
  return argv.map((w) => (repl !== '' && w.value.includes(repl) ? { ...w, dynamic: true, ...src } : w));
}

const xargs: Handler = (args, _prog, u) => {
  const scan = scanOptions(args, 1, XARGS_SPEC);
  if (!scan.ok) return opaque(scan);
  if (has(scan, 'help', 'version', 'show-limits')) return { kind: 'self' };
  const rep = scan.options.find((o) => ['I', 'i', 'replace', 'J'].includes(o.name));
  const repl = rep === undefined ? null : (rep.value ?? '{}');
  const inner = args.slice(scan.next);
  const argv = inner.length === 0 ? [literalArg('echo', args[0]?.start)] : inner;
  // [h/flow] Input known on the line (`echo … | xargs …`): the commands it makes (xargs-input.ts).
  const literalInput = !has(scan, '0', 'null', 'd', 'delimiter', 'a', 'arg-file', 'E', 'e', 'eof', 'J');
  const items = literalInput ? xargsItems(u.stdin, repl !== null) : null;
  const made = items === null ? null : xargsCommands(argv, repl, items);
  if (made !== null && repl !== null) {
    for (const m of made) u.unwrap(m, 'xargs', null);
    return { kind: 'done' };
  }
  if (made?.[0] !== undefined) return { kind: 'exec', argv: made[0], label: 'xargs', keepStdin: false };
  const from = has(scan, 'a', 'arg-file') ? undefined : u.stdin?.from;
  return { kind: 'exec', argv: withRunTimeArgs(argv, repl, '$XARGS_ARGS', from), label: 'xargs', keepStdin: false };
};

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

const find: Handler = (args, _prog, u) => {
  for (let i = 1; i < args.length; i++) {
    const w = args[i];
    if (w === undefined || w.dynamic || !FIND_EXEC.has(w.value)) continue;
    let j = i + 1;
    while (j < args.length) {
      const v = args[j]?.value;
      if (v === ';' || (v === '+' && args[j - 1]?.value === '{}')) break;
      j++;
    }
    const inner = withRunTimeArgs(args.slice(i + 1, j), '{}', '');
    if (inner.length > 0) u.unwrap(inner, `find ${w.value}`, null);
    i = j;
  }
  return { kind: 'self' };
};

const WATCH_SPEC: OptionSpec = {
  short: 'bcCd::egn:pq:rtwxh',
  long: {
    beep: 'none', color: 'none', 'no-color': 'none', differences: 'optional', errexit: 'none', chgexit: 'none',
    equexit: 'required', interval: 'required', precise: 'none', 'no-rerun': 'none', 'no-title': 'none',
    'no-wrap': 'none', exec: 'none', ...HELP,
  },
};

const watch: Handler = (args, _prog, u) => {
  const scan = scanOptions(args, 1, WATCH_SPEC);
  if (!scan.ok) return opaque(scan);
  if (has(scan, 'h', 'help', 'version')) return { kind: 'self' };
  const rest = args.slice(scan.next);
  if (rest.length === 0) return { kind: 'self' };
  if (has(scan, 'x', 'exec')) return exec(rest, 'watch');
  // watch runs `sh -c "<arguments joined by spaces>"`.
  u.script(joinWords(rest), 'watch');
  return { kind: 'done' };
};

export function joinWords(ws: ArgWord[]): ArgWord {
  // [h/flow] One word is itself (it may name the commands it comes from: `eval "$(…)"`).
  if (ws.length === 1 && ws[0] !== undefined) return ws[0];
  return {
    value: ws.map((w) => w.value).join(' '),
    dynamic: ws.some((w) => w.dynamic),
    glob: false,
    start: ws[0]?.start ?? 0,
  };
}

// ---- shells -----------------------------------------------------------------------------------

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash', 'posh', 'yash', 'oksh', 'pdksh', 'loksh', 'fish']);

/** Long options of shells that take a value. */
const SHELL_LONG_WITH_VALUE = new Set(['--rcfile', '--init-file', '--init-command', '-C']);

const shell: Handler = (args, prog, u) => {
  let i = 1;
  let c = false;
  let s = false;
  while (i < args.length) {
    const w = args[i];
    if (w === undefined) break;
    const v = w.value;
    if (w.dynamic && (v.startsWith('-') || v.startsWith('+'))) return { kind: 'opaque', reason: `run-time shell option ${v}` };
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    if (v.startsWith('--')) {
      const [name] = v.split('=');
      if (prog === 'fish' && (name === '--command' || name === '-c')) {
        if (v.includes('=')) {
          u.script({ ...w, value: v.slice(v.indexOf('=') + 1) }, `${prog} -c`);
          return { kind: 'done' };
        }
        c = true;
        i++;
        continue;
      }
      i += SHELL_LONG_WITH_VALUE.has(name ?? '') && !v.includes('=') ? 2 : 1;
      continue;
    }
    if ((v.startsWith('-') || v.startsWith('+')) && v.length > 1) {
      let values = 0;
      for (const ch of v.slice(1)) {
        if (ch === 'c') c = true;
        else if (ch === 's') s = true;
        else if (ch === 'o' || ch === 'O' || (prog === 'fish' && ch === 'C')) values++;
      }
      i += 1 + values;
      continue;
    }
    break;
  }
  const operands = args.slice(i);
  const first = operands[0];
  // [h/flow] The words after the script are its positional parameters: `bash -c TEXT $0 $1 …`,
  // `bash FILE $1 …`, `bash -s $1 …` (then `$0` is the shell's name).
  if (c) {
    if (first === undefined) return { kind: 'self' };
    u.script(first, `${prog} -c`, operands.slice(1));
    return { kind: 'done' };
  }
  if (first !== undefined && !s) {
    u.file(first, `${prog} ${first.value}`, false, operands.slice(1));
    return { kind: 'self' };
  }
  readStdinScript(u, prog, operands.length > 0 ? [literalArg(prog, args[0]?.start), ...operands] : undefined);
  return { kind: 'self' };
};

/** A shell reading its script from standard input (`positional`: its `$0 $1 …`). */
function readStdinScript(u: UnwrapContext, prog: string, positional?: readonly ArgWord[]): void {
  const stdin = u.stdin;
  if (stdin === null) return;
  const label = stdin.label.replace('%', prog);
  const from = stdin.from;
  if (stdin.kind === 'text') u.script({ value: stdin.text, dynamic: stdin.dynamic, glob: false, start: 0, ...(from && { from }) }, label, positional);
  else if (stdin.kind === 'file') u.file(from ? { ...stdin.path, from } : stdin.path, label, false, positional?.slice(1));
  else u.emit(unseenStdin(prog, [...u.via, label], from));
}

/** The opaque command standing for a program read from standard input that is not known. */
function unseenStdin(prog: string, via: string[], from: readonly ScriptSource[] | undefined): ShellCommand {
  const cmd: ShellCommand = { argv: [prog], dynamic: [0], opaque: true, via, unseen: 'runtime' };
  if (from !== undefined && from.length > 0) cmd.script_from = from.slice(0, 32);
  return cmd;
}

const busybox: Handler = (args) => exec(args.slice(1), 'busybox');

const evalHandler: Handler = (args, _prog, u) => {
  const rest = args.slice(1);
  if (rest.length > 0 && rest[0]?.value === '--') rest.shift();
  if (rest.length === 0) return { kind: 'done' };
  u.script(joinWords(rest), 'eval');
  return { kind: 'done' };
};

const source: Handler = (args, prog, u) => {
  const path = args[1];
  // [h/flow] `source FILE a b` sets `$1 …`; without arguments the caller's stay (unknown here).
  if (path !== undefined) u.file(path, `${prog} ${path.value}`, false, args.length > 2 ? args.slice(2) : undefined);
  return { kind: 'self' };
};

const SU_LONG = {
  command: 'required', 'session-command': 'required', fast: 'none', group: 'required', 'supp-group': 'required',
  login: 'none', 'preserve-environment': 'none', pty: 'none', shell: 'required', 'whitelist-environment': 'required', ...HELP,
} as const;

/** `su [options] [-] [user [args]]`, options anywhere (GNU permutation); `-c CMD` runs `sh -c CMD`. */
const su: Handler = (args, prog, u) => {
  const scan = scanOptions(args, 1, { short: 'c:fg:G:lmpPs:w:hV', long: SU_LONG, permute: true });
  if (!scan.ok) return opaque(scan);
  const cmd = scan.options.find((o) => ['c', 'command', 'session-command'].includes(o.name));
  if (cmd === undefined || cmd.value === null) return { kind: 'self' };
  u.script({ value: cmd.value, dynamic: cmd.dynamic === true, glob: false, start: args[0]?.start ?? 0 }, `${prog} -c`);
  return { kind: 'done' };
};

/** `runuser -u USER [--] COMMAND…`, otherwise like su. */
const runuser: Handler = (args, prog, u) => {
  const scan = scanOptions(args, 1, { short: 'c:fg:G:lmpPs:w:u:hV', long: { ...SU_LONG, user: 'required' } });
  if (scan.ok && has(scan, 'u', 'user')) return exec(args.slice(scan.next), prog);
  return su(args, prog, u);
};

/** `trap 'cmd' SIGNAL…`: the command string runs later, in this shell. */
const trap: Handler = (args, _prog, u) => {
  const rest = args.slice(1);
  if (rest[0]?.value === '--') rest.shift();
  const action = rest[0];
  if (action === undefined || rest.length < 2 || action.value.startsWith('-')) return { kind: 'self' };
  if (action.value !== '') u.script(action, 'trap');
  return { kind: 'self' };
};

/** util-linux `script [options] [file]` with `-c CMD` (runs `sh -c CMD`, often to fake a terminal). */
const scriptHandler: Handler = (args, prog, u) => {
  const scan = scanOptions(args, 1, {
    short: 'ac:eE:fqm:t::T:B:I:O:hV',
    long: {
      append: 'none', command: 'required', echo: 'required', 'return': 'none', flush: 'none', force: 'none', quiet: 'none',
      'log-io': 'required', 'log-in': 'required', 'log-out': 'required', 'log-timing': 'required', 'logging-format': 'required',
      timing: 'optional', ...HELP,
    },
    permute: true,
  });
  if (!scan.ok) return opaque(scan);
  const cmd = scan.options.find((o) => o.name === 'c' || o.name === 'command');
  if (cmd === undefined || cmd.value === null) return { kind: 'self' };
  u.script({ value: cmd.value, dynamic: cmd.dynamic === true, glob: false, start: args[0]?.start ?? 0 }, `${prog} -c`);
  return { kind: 'done' };
};

// ---- interpreters with inline code ------------------------------------------------------------

/** Finds the inline-code argument of an interpreter; null when there is none. */
function inlineCode(args: ArgWord[], lang: InlineLanguage): ArgWord | null {
  const flags = lang === 'python' ? ['c'] : lang === 'node' ? ['e', 'p'] : lang === 'perl' ? ['e', 'E'] : lang === 'php' ? ['r'] : ['e'];
  const longFlags = lang === 'node' ? ['--eval', '--print'] : [];
  for (let i = 1; i < args.length; i++) {
    const w = args[i];
    if (w === undefined) break;
    const v = w.value;
    if (!v.startsWith('-') || v === '-' || v === '--') break;
    const eq = v.indexOf('=');
    if (longFlags.includes(eq === -1 ? v : v.slice(0, eq))) {
      return eq === -1 ? (args[i + 1] ?? null) : { ...w, value: v.slice(eq + 1) };
    }
    if (v.startsWith('--')) continue;
    for (let k = 1; k < v.length; k++) {
      if (flags.includes(v.charAt(k))) {
        const attached = v.slice(k + 1);
        return attached !== '' ? { ...w, value: attached } : (args[i + 1] ?? null);
      }
    }
  }
  return null;
}

function interpreter(lang: InlineLanguage): Handler {
  return (args, prog, u) => {
    const code = inlineCode(args, lang);
    const label = `${prog} ${lang === 'python' ? '-c' : lang === 'php' ? '-r' : '-e'}`;
    const operand = args.slice(1).find((w) => !w.value.startsWith('-'));
    if (code !== null) {
      reportInline(code.value, code.dynamic, label, u, code.start);
    } else if (operand === undefined) {
      // The program is read from standard input (`… | python3`, `node < x.js`).
      const stdin = u.stdin;
      if (stdin === null) return { kind: 'self' };
      const via = stdin.label.replace('%', prog);
      if (stdin.kind === 'text') reportInline(stdin.text, stdin.dynamic, via, u, 0, stdin.from ?? []);
      else if (stdin.kind === 'file') u.program(stdin.from ? { ...stdin.path, from: stdin.from } : stdin.path, via);
      else u.emit(unseenStdin(prog, [...u.via, via], stdin.from));
    } else if (!(lang === 'python' && args.some((w) => w.value === '-m'))) {
      // A program file written or fetched earlier on the line (`curl -o x.py … && python3 x.py`).
      u.program(operand, `${prog} ${operand.value}`);
    }
    return { kind: 'self' };
  };

  /** `from`: given when the code is a program read from standard input. */
  function reportInline(code: string, dynamic: boolean, label: string, u: UnwrapContext, start: number, from?: readonly ScriptSource[]): void {
    if (dynamic) {
      const cmd: ShellCommand = { argv: [code], dynamic: [0], opaque: true, via: [...u.via, label] };
      if (from !== undefined) {
        cmd.unseen = 'runtime';
        if (from.length > 0) cmd.script_from = from.slice(0, 32);
      }
      u.emit(cmd);
      return;
    }
    for (const call of scanInlineCode(code, lang)) {
      if (call.kind === 'shell') u.script(literalArg(call.text, start), label);
      else if (call.kind === 'argv') u.unwrap(call.argv.map((a) => literalArg(a, start)), label, null);
      else u.emit({ argv: [call.text], dynamic: [0], opaque: true, via: [...u.via, label] });
    }
  }
}

// ---- the table --------------------------------------------------------------------------------

/**
 * The handler of each wrapper program, made on first lookup and kept: most commands are not
 * wrappers, and building every handler with its option table up front was a measurable part of
 * each hook's start-up (docs/performance.md). This switch is the one list of wrappers.
 */
function makeHandler(prog: string): Handler | undefined {
  switch (prog) {
    case 'env':
      return env;
    case 'sudo':
      return sudo;
    case 'doas':
      return doas;
    case 'pkexec':
      return simpleWrapper({ short: '', long: { user: 'required', 'keep-cwd': 'none', 'disable-internal-agent': 'none', ...HELP } });
    case 'command':
      return command;
    case 'builtin':
      return simpleWrapper({ short: '' });
    case 'exec':
      return simpleWrapper({ short: 'cla:' });
    case 'time':
      return simpleWrapper({ short: 'pvaqlhf:o:', long: { append: 'none', format: 'required', output: 'required', portability: 'none', quiet: 'none', verbose: 'none', ...HELP } }, { noRun: ['help', 'version'] });
    case 'nice':
      return simpleWrapper({ short: 'n:', long: { adjustment: 'required', ...HELP }, numeric: true }, { noRun: ['help', 'version'] });
    case 'nohup':
      return simpleWrapper({ short: '', long: HELP }, { noRun: ['help', 'version'] });
    case 'timeout':
      return simpleWrapper({ short: 'k:s:vpf', long: { 'kill-after': 'required', signal: 'required', verbose: 'none', 'preserve-status': 'none', foreground: 'none', ...HELP } }, { operands: 1, noRun: ['help', 'version'] });
    case 'stdbuf':
      return simpleWrapper({ short: 'i:o:e:', long: { input: 'required', output: 'required', error: 'required', ...HELP } }, { noRun: ['help', 'version'] });
    case 'ionice':
      return simpleWrapper({ short: 'c:n:p:P:u:th', long: { class: 'required', classdata: 'required', pid: 'required', pgid: 'required', uid: 'required', ignore: 'none', ...HELP } }, { noRun: ['p', 'P', 'u', 'pid', 'pgid', 'uid', 'h', 'help', 'version'] });
    case 'setsid':
      return simpleWrapper({ short: 'cfwhV', long: { ctty: 'none', fork: 'none', wait: 'none', ...HELP } }, { noRun: ['h', 'V', 'help', 'version'] });
    case 'chrt':
      return simpleWrapper({ short: 'abdefimoprRvT:P:D:hV', long: { 'all-tasks': 'none', batch: 'none', deadline: 'none', ext: 'none', fifo: 'none', idle: 'none', max: 'none', other: 'none', pid: 'none', rr: 'none', 'reset-on-fork': 'none', 'sched-runtime': 'required', 'sched-period': 'required', 'sched-deadline': 'required', verbose: 'none', ...HELP } }, { operands: 1, noRun: ['p', 'pid', 'm', 'max', 'h', 'V', 'help', 'version'] });
    case 'taskset':
      return simpleWrapper({ short: 'acphV', long: { 'all-tasks': 'none', 'cpu-list': 'none', pid: 'none', ...HELP } }, { operands: 1, noRun: ['p', 'pid', 'h', 'V', 'help', 'version'] });
    case 'flock':
      return flockHandler();
    case 'xargs':
      return xargs;
    case 'find':
      return find;
    case 'watch':
      return watch;
    case 'eval':
      return evalHandler;
    case 'source':
    case '.':
      return source;
    case 'su':
      return su;
    case 'runuser':
      return runuser;
    case 'busybox':
      return busybox;
    case 'trap':
      return trap;
    case 'script':
      return scriptHandler;
    case 'node':
    case 'nodejs':
      return interpreter('node');
    case 'perl':
      return interpreter('perl');
    case 'ruby':
      return interpreter('ruby');
    case 'php':
      return interpreter('php');
    case 'pypy':
    case 'pypy3':
      return interpreter('python');
    default:
      if (SHELLS.has(prog)) return shell;
      if (prog.startsWith('python') && /^python[0-9.]*$/.test(prog)) return interpreter('python');
      return undefined;
  }
}

const made = new Map<string, Handler | null>();

/** The handler for a program name (pythonX.Y included), or undefined when it is no wrapper. */
export function handlerFor(prog: string): Handler | undefined {
  let h = made.get(prog);
  if (h === undefined) {
    h = makeHandler(prog) ?? null;
    made.set(prog, h);
  }
  return h ?? undefined;
}

function flockHandler(): Handler {
  return (args, prog, u) => {
    const scan = scanOptions(args, 1, {
      short: 'sxunow:E:c:FhV',
      long: { shared: 'none', exclusive: 'none', unlock: 'none', nonblock: 'none', 'close': 'none', timeout: 'required', 'conflict-exit-code': 'required', command: 'required', 'no-fork': 'none', verbose: 'none', ...HELP },
    });
    if (!scan.ok) return opaque(scan);
    const cmd = scan.options.find((o) => o.name === 'c' || o.name === 'command');
    if (cmd !== undefined && cmd.value !== null) {
      u.script({ value: cmd.value, dynamic: cmd.dynamic === true, glob: false, start: args[0]?.start ?? 0 }, `${prog} -c`);
      return { kind: 'done' };
    }
    // flock FILE -c COMMAND, or flock FILE COMMAND…
    const after = args[scan.next + 1];
    if (after !== undefined && (after.value === '-c' || after.value === '--command')) {
      const script = args[scan.next + 2];
      if (script === undefined) return { kind: 'self' };
      u.script(script, `${prog} -c`);
      return { kind: 'done' };
    }
    return scan.next + 1 < args.length ? exec(args.slice(scan.next + 1), prog) : { kind: 'self' };
  };
}
