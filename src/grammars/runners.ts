/**
 * Programs that run other programs, shell text or code, as data (types.ts), read by the one
 * reader. Option tables follow each program's own getopt string or manual page; an option not
 * listed on a `strict` program makes the command not understood (never guessed).
 */
import type { ProgramGrammar } from './types.ts';

const HELP = ['--help', '--version'];
/** GNU getopt_long programs: long options may be abbreviated. */
const GNU = { abbreviations: true, strict: true, options_first: true } as const;

const env: ProgramGrammar = {
  ...GNU,
  dash: '-i',
  flags: ['-i', '-0', '-v'],
  long_options: ['--ignore-environment', '--null', '--list-signal-handling', '--debug', ...HELP],
  // `-P ALTPATH`: BSD and macOS env.
  value_options: ['-u', '--unset', '-C', '--chdir', '-a', '--argv0', '-P'],
  optional_value: ['--block-signal', '--default-signal', '--ignore-signal'],
  synonyms: { '-i': '--ignore-environment', '-0': '--null', '-u': '--unset', '-C': '--chdir', '-S': '--split-string', '-v': '--debug' },
  split_options: ['-S', '--split-string'],
  runs: { command: true, assignments: true, no_run: [...HELP, '--list-signal-handling'], self: 'idle' },
};

const sudo: ProgramGrammar = {
  ...GNU,
  flags: ['-A', '-B', '-b', '-E', '-e', '-H', '-i', '-K', '-k', '-L', '-l', '-N', '-n', '-P', '-S', '-s', '-V', '-v'],
  value_options: [
    '-a', '-C', '-c', '-D', '-g', '-p', '-R', '-r', '-T', '-t', '-U', '-u', '--close-from', '--chdir', '--group', '--host',
    '--prompt', '--chroot', '--role', '--type', '--command-timeout', '--other-user', '--user', '--login-class', '--auth-type',
  ],
  optional_value: ['-h', '--preserve-env'],
  long_options: [
    '--askpass', '--background', '--bell', '--edit', '--set-home', '--help', '--login', '--remove-timestamp', '--reset-timestamp',
    '--list', '--non-interactive', '--preserve-groups', '--stdin', '--shell', '--version', '--validate',
  ],
  runs: {
    command: true,
    assignments: true,
    no_run: ['-e', '--edit', '-l', '--list', '-v', '--validate', '-V', '--version', '-K', '--remove-timestamp', '--help', '-h'],
    self: 'idle',
  },
};

/** A GNU-style wrapper: `PROG [OPTIONS] [skip operands] COMMAND…`. */
const wrapper = (g: Omit<ProgramGrammar, 'runs'>, skip = 0, noRun: string[] = HELP): ProgramGrammar => ({
  ...GNU,
  ...g,
  long_options: [...(g.long_options ?? []), ...HELP],
  runs: { command: true, ...(skip > 0 ? { skip } : {}), no_run: noRun, self: 'idle' },
});

const shell: ProgramGrammar = {
  // A non-interactive bash reads the file `$BASH_ENV` names before its script.
  env_runs: { BASH_ENV: 'script' },
  options_first: true,
  plus_options: true,
  dash: '--',
  // bash reads `-o NAME` from the next word even in a bundle (`-oe pipefail`, `-eo pipefail`).
  next_word_values: ['-o', '-O'],
  value_options: ['--rcfile', '--init-file'],
  runs: { shell_flags: ['-c'], script_operand: true, stdin_script: true, stdin_flags: ['-s'], self: 'idle' },
  files: { first: 'read', when: { '-c': { first: 'none' } } },
};

const fish: ProgramGrammar = {
  options_first: true,
  value_options: ['-c', '--command', '-C', '--init-command'],
  synonyms: { '-c': '--command', '-C': '--init-command' },
  runs: { shell_options: ['-c', '--command'], script_operand: true, stdin_script: true, self: 'idle' },
};

const su: ProgramGrammar = {
  strict: true,
  abbreviations: true,
  dash: '-l',
  flags: ['-f', '-l', '-m', '-p', '-P', '-h', '-V'],
  long_options: ['--fast', '--login', '--preserve-environment', '--pty', ...HELP],
  value_options: ['-c', '-g', '-G', '-s', '-w', '--command', '--session-command', '--group', '--supp-group', '--shell', '--whitelist-environment'],
  runs: { shell_options: ['-c', '--command', '--session-command'], self: 'idle' },
};

const python: ProgramGrammar = {
  versioned: true,
  options_first: true,
  flags: ['-b', '-B', '-d', '-E', '-h', '-i', '-I', '-O', '-P', '-q', '-s', '-S', '-u', '-v', '-V', '-x'],
  value_options: ['-W', '-X', '-m', '--check-hash-based-pycs'],
  stop_after: ['-c', '-m'],
  runs: { code_options: ['-c'], language: 'python', stdin_code: true },
  files: { first: 'read' },
};

const node: ProgramGrammar = {
  versioned: true,
  options_first: true,
  value_options: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file', '--title'],
  synonyms: { '-e': '--eval', '-p': '--print' },
  runs: { code_options: ['-e', '-p', '--eval', '--print'], language: 'node', stdin_code: true },
};

const perl: ProgramGrammar = {
  versioned: true,
  options_first: true,
  // `-l[OCT]` and `-0[HEX]` take digits only: read as flags, the digits as more flags.
  flags: ['-a', '-c', '-n', '-p', '-s', '-t', '-T', '-u', '-U', '-w', '-W', '-X', '-h', '-v', '-S', '-g', '-f', '-l', '-0'],
  // `-I DIR` may stand apart; the others take only an attached value.
  optional_value: ['-i', '-M', '-m', '-x', '-C', '-d', '-D', '-V'],
  value_options: ['-F', '-I'],
  runs: { code_options: ['-e', '-E'], language: 'perl', stdin_code: true },
  files: { operands: 'read', when: { '-i': { operands: 'write' } } },
};

const ruby: ProgramGrammar = {
  versioned: true,
  options_first: true,
  value_options: ['-r', '-I', '-E', '-C', '-F', '--encoding'],
  optional_value: ['-0', '-i', '-K', '-T', '-W', '-x'],
  runs: { code_options: ['-e'], language: 'ruby', stdin_code: true },
};

const php: ProgramGrammar = {
  versioned: true,
  options_first: true,
  value_options: ['-c', '-d', '-z', '-f', '-t', '-S'],
  runs: { code_options: ['-r'], language: 'php', stdin_code: true },
};

const find: ProgramGrammar = {
  single_dash_long: true,
  value_options: [
    '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-type', '-xtype',
    '-user', '-group', '-uid', '-gid', '-perm', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer',
    '-anewer', '-cnewer', '-maxdepth', '-mindepth', '-inum', '-links', '-samefile', '-fstype', '-used', '-printf', '-fprint',
    '-fprint0', '-fls', '-context', '-regextype', '-files0-from', '-D', '-O',
  ],
  runs: { exec_options: { '-exec': [';', '{} +'], '-execdir': [';', '{} +'], '-ok': [';'], '-okdir': [';'] }, replace: '{}' },
  files: {
    operands: 'read',
    leading: true,
    options: { '-fprint': 'write', '-fprint0': 'write', '-fls': 'write', '-files0-from': 'read' },
    when: { '-delete': { operands: 'delete', recursive: true, contents: true } },
  },
};

const xargs: ProgramGrammar = {
  ...GNU,
  flags: ['-0', '-o', '-p', '-r', '-t', '-x'],
  value_options: [
    '-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '-J', '-R', '-S', '--arg-file', '--delimiter', '--max-args', '--max-procs',
    '--process-slot-var', '--max-chars',
  ],
  optional_value: ['-e', '-i', '-l', '--eof', '--replace', '--max-lines'],
  long_options: ['--null', '--open-tty', '--interactive', '--no-run-if-empty', '--show-limits', '--verbose', '--exit', ...HELP],
  synonyms: { '-a': '--arg-file' },
  runs: {
    command: true,
    replace: '{}',
    replace_options: ['-I', '-i', '--replace', '-J'],
    appends: true,
    no_stdin: true,
    stdin_args: ['-d', '--delimiter', '-a', '--arg-file', '-E', '-e', '--eof', '-J'],
    stdin_nul: ['-0', '--null'],
    default_command: 'echo',
    no_run: [...HELP, '--show-limits'],
    self: 'idle',
  },
  files: { options: { '--arg-file': 'read' } },
};

const watch: ProgramGrammar = {
  ...GNU,
  flags: ['-b', '-c', '-C', '-e', '-g', '-p', '-r', '-t', '-w', '-x', '-h'],
  optional_value: ['-d', '--differences'],
  value_options: ['-n', '-q', '--interval', '--equexit'],
  long_options: ['--beep', '--color', '--no-color', '--errexit', '--chgexit', '--precise', '--no-rerun', '--no-title', '--no-wrap', '--exec', ...HELP],
  synonyms: { '-x': '--exec' },
  runs: { shell_operands: true, exec_flags: ['-x', '--exec'], no_run: ['-h', ...HELP], self: 'idle' },
};

const script: ProgramGrammar = {
  strict: true,
  abbreviations: true,
  flags: ['-a', '-e', '-f', '-q', '-h', '-V'],
  long_options: ['--append', '--return', '--flush', '--force', '--quiet', ...HELP],
  value_options: ['-c', '-E', '-m', '-T', '-B', '-I', '-O', '--command', '--echo', '--log-io', '--log-in', '--log-out', '--log-timing', '--logging-format'],
  optional_value: ['-t', '--timing'],
  runs: { shell_options: ['-c', '--command'], self: 'idle' },
};

const flock: ProgramGrammar = {
  ...GNU,
  options_after: 1,
  flags: ['-s', '-x', '-u', '-n', '-o', '-F', '-h', '-V'],
  long_options: ['--shared', '--exclusive', '--unlock', '--nonblock', '--close', '--no-fork', '--verbose', ...HELP],
  value_options: ['-w', '-E', '--timeout', '--conflict-exit-code'],
  runs: { command: true, skip: 1, shell_options: ['-c', '--command'], no_run: HELP, self: 'idle' },
};

const parallel: ProgramGrammar = {
  ...GNU,
  flags: [
    '-0', '-k', '-q', '-u', '-v', '-X', '-m', '-g', '--null', '--keep-order', '--quote', '--ungroup', '--verbose', '--group',
    '--line-buffer', '--lb', '--dry-run', '--progress', '--bar', '--eta', '--tag', '--halt-on-error', '--no-notice', '--xargs',
    '--pipe', '--shuf', '--trim', '--files', '--will-cite', '--citation', '--nonall', '--onall', '--plain', '--header', '--lb',
  ],
  value_options: [
    '-I', '-j', '-P', '-S', '-a', '-d', '-E', '-n', '-N', '-L', '-l', '-s', '-C', '--jobs', '--max-procs', '--sshlogin', '--arg-file',
    '--delimiter', '--colsep', '--joblog', '--results', '--res', '--tmpdir', '--workdir', '--wd', '--max-args', '--max-lines',
    '--timeout', '--delay', '--memfree', '--load', '--nice', '--sshloginfile', '--basefile', '--bf', '--env', '--tagstring',
    '--tag-string', '--halt', '--retries', '--block', '--recstart', '--recend', '--return', '--transferfile', '--tf',
  ],
  optional_value: ['-i', '--replace'],
  runs: { shell_operands: true, until: [':::', '::::', ':::+', '::::+'], replace: '{}', replace_options: ['-I', '-i', '--replace'], no_run: HELP, self: 'idle' },
};

const strace: ProgramGrammar = wrapper({
  flags: ['-A', '-c', '-C', '-d', '-D', '-f', '-F', '-h', '-i', '-k', '-n', '-q', '-r', '-t', '-T', '-v', '-V', '-w', '-x', '-y', '-z', '-Z'],
  value_options: [
    '-a', '-b', '-e', '-E', '-I', '-o', '-O', '-p', '-P', '-s', '-S', '-u', '-U', '-X', '--trace', '--signal', '--status', '--output',
    '--attach', '--user', '--env', '--string-limit', '--summary-columns', '--trace-path', '--columns', '--const-print-style',
  ],
  long_options: ['--summary-only', '--summary', '--follow-forks', '--output-separately', '--seccomp-bpf', '--decode-fds', '--no-abbrev', '--quiet', '--timestamps', '--relative-timestamps', '--syscall-times', '--instruction-pointer', '--stack-trace', '--verbose'],
});

const ltrace: ProgramGrammar = wrapper({
  flags: ['-b', '-c', '-C', '-d', '-D', '-f', '-h', '-i', '-L', '-r', '-S', '-t', '-T', '-V'],
  value_options: ['-a', '-A', '-e', '-F', '-n', '-o', '-p', '-s', '-u', '-w', '-x', '-l', '--align', '--config', '--output', '--library', '--indent'],
  long_options: ['--demangle', '--debug'],
});

const nsenter: ProgramGrammar = wrapper({
  flags: ['-a', '-F', '-Z', '-h', '-V'],
  optional_value: ['-m', '-u', '-i', '-n', '-p', '-C', '-U', '-T', '-r', '-w', '--mount', '--uts', '--ipc', '--net', '--pid', '--cgroup', '--user', '--time', '--root', '--wd'],
  value_options: ['-t', '-S', '-G', '-N', '--target', '--setuid', '--setgid', '--net-socket'],
  long_options: ['--all', '--no-fork', '--preserve-credentials', '--follow-context', '--user-parent', '--keep-caps', '--env'],
});

const ssh: ProgramGrammar = {
  strict: true,
  options_first: true,
  // OpenSSH reads options again after the destination (`ssh host -p 22 CMD`, `ssh host -- CMD`).
  options_after: 1,
  flags: ['-4', '-6', '-A', '-a', '-C', '-f', '-G', '-g', '-K', '-k', '-M', '-N', '-n', '-q', '-s', '-T', '-t', '-V', '-v', '-X', '-x', '-Y', '-y'],
  value_options: ['-B', '-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w'],
  runs: { shell_operands: true, skip: 1, no_run: ['-V', '-G', '-Q'], self: 'idle', shell_settings: { '-o': ['ProxyCommand', 'LocalCommand', 'KnownHostsCommand'] } },
  // -i: a key ssh uses, not read into the agent's context (agent-secrets allows `ssh -i KEY`).
  files: { options: { '-F': 'read', '-E': 'write' } },
};

/** `docker exec [OPTIONS] CONTAINER COMMAND…`, also `docker container exec`. */
const dockerExec = (extraFlags: string[], extraValues: string[]) => ({
  strict: true,
  options_first: true,
  flags: ['-d', '-i', '-t', '--detach', '--interactive', '--tty', '--privileged', '--help', ...extraFlags],
  value_options: ['-e', '-u', '-w', '--detach-keys', '--env', '--env-file', '--user', '--workdir', ...extraValues],
  synonyms: { '-e': '--env', '-u': '--user', '-w': '--workdir', '-d': '--detach', '-i': '--interactive', '-t': '--tty' },
  runs: { command: true, skip: 1, no_run: ['--help'], self: 'always' as const },
});

const docker: ProgramGrammar = {
  nested: true,
  value_options: ['-c', '--context', '-H', '--host', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'],
  subcommands: {
    exec: dockerExec([], []),
    container: { nested: true, subcommands: { exec: dockerExec([], []) } },
  },
};

const podman: ProgramGrammar = {
  nested: true,
  value_options: ['--connection', '-c', '--url', '--identity', '--root', '--runroot', '--log-level', '--cgroup-manager', '--storage-driver', '--module'],
  subcommands: {
    exec: dockerExec([], ['--preserve-fds', '--preserve-fd']),
    container: { nested: true, subcommands: { exec: dockerExec([], ['--preserve-fds', '--preserve-fd']) } },
  },
};

/** `kubectl exec POD [-c CONTAINER] -- COMMAND…` (cobra: options anywhere before `--`). */
const kubectl: ProgramGrammar = {
  nested: true,
  inherit_options: true,
  short_equals: true,
  value_options: ['-n', '--namespace', '--context', '--kubeconfig', '-s', '--server', '--cluster', '--user', '--token', '--as', '--as-group', '--request-timeout', '-v'],
  subcommands: {
    exec: {
      strict: true,
      flags: ['-i', '-t', '-q', '--stdin', '--tty', '--quiet', '--help', '-h'],
      value_options: ['-c', '--container', '-f', '--filename', '--pod-running-timeout'],
      runs: { command: true, skip: 1, self: 'always' },
    },
  },
};

const npmExec = {
  value_options: ['-c', '--call', '-p', '--package', '-w', '--workspace'],
  // `npx prisma migrate reset`, `npm exec -- knex …`: the operands are the command it runs.
  runs: { command: true, shell_options: ['-c', '--call'], self: 'always' as const },
};

export const RUNNERS: Record<string, ProgramGrammar> = {
  env,
  sudo,
  doas: { strict: true, options_first: true, flags: ['-L', '-n', '-s'], value_options: ['-a', '-C', '-u'], runs: { command: true, no_run: ['-L', '-C'], self: 'idle' } },
  pkexec: wrapper({ value_options: ['--user'], long_options: ['--keep-cwd', '--disable-internal-agent'] }),
  command: { strict: true, options_first: true, flags: ['-p', '-v', '-V'], runs: { command: true, no_run: ['-v', '-V'], self: 'idle' } },
  builtin: { strict: true, options_first: true, runs: { command: true, self: 'idle' } },
  exec: { strict: true, options_first: true, flags: ['-c', '-l'], value_options: ['-a'], runs: { command: true, self: 'idle' } },
  time: wrapper({
    flags: ['-p', '-v', '-a', '-q', '-l', '-h'],
    value_options: ['-f', '-o', '--format', '--output'],
    long_options: ['--append', '--portability', '--quiet', '--verbose'],
  }),
  nice: wrapper({ numeric: true, value_options: ['-n', '--adjustment'] }),
  nohup: wrapper({}),
  timeout: wrapper(
    { flags: ['-v', '-p', '-f'], value_options: ['-k', '-s', '--kill-after', '--signal'], long_options: ['--verbose', '--preserve-status', '--foreground'] },
    1,
  ),
  stdbuf: wrapper({ value_options: ['-i', '-o', '-e', '--input', '--output', '--error'] }),
  ionice: wrapper(
    { flags: ['-t', '-h'], value_options: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid'], long_options: ['--ignore'] },
    0,
    ['-p', '-P', '-u', '--pid', '--pgid', '--uid', '-h', ...HELP],
  ),
  setsid: wrapper({ flags: ['-c', '-f', '-w', '-h', '-V'], long_options: ['--ctty', '--fork', '--wait'] }, 0, ['-h', '-V', ...HELP]),
  chrt: wrapper(
    {
      flags: ['-a', '-b', '-d', '-e', '-f', '-i', '-m', '-o', '-p', '-r', '-R', '-v', '-h', '-V'],
      value_options: ['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline'],
      long_options: ['--all-tasks', '--batch', '--deadline', '--ext', '--fifo', '--idle', '--max', '--other', '--pid', '--rr', '--reset-on-fork', '--verbose'],
    },
    1,
    ['-p', '--pid', '-m', '--max', '-h', '-V', ...HELP],
  ),
  taskset: wrapper(
    { flags: ['-a', '-c', '-p', '-h', '-V'], long_options: ['--all-tasks', '--cpu-list', '--pid'] },
    1,
    ['-p', '--pid', '-h', '-V', ...HELP],
  ),
  // systemd-run(1), systemd 255: runs COMMAND as a transient unit (now, or on a timer).
  'systemd-run': wrapper(
    {
      flags: ['-r', '-d', '-t', '-P', '-q', '-G', '-S', '-h'],
      value_options: ['-u', '-p', '-E', '-H', '-M', '--unit', '--property', '--description', '--slice', '--service-type', '--uid', '--gid', '--nice',
        '--working-directory', '--setenv', '--host', '--machine', '--path-property', '--socket-property', '--timer-property', '--on-active', '--on-boot',
        '--on-startup', '--on-unit-active', '--on-unit-inactive', '--on-calendar', '--expand-environment', '--json', '--capsule', '-C', '--background'],
      long_options: ['--user', '--system', '--scope', '--remain-after-exit', '--send-sighup', '--same-dir', '--pty', '--pipe', '--quiet', '--collect',
        '--shell', '--on-clock-change', '--on-timezone-change', '--no-block', '--wait', '--no-ask-password', '--slice-inherit', '--ignore-failure',
        '--version'],
      synonyms: { '-u': '--unit', '-p': '--property', '-E': '--setenv', '-H': '--host', '-M': '--machine', '-r': '--remain-after-exit', '-d': '--same-dir',
        '-t': '--pty', '-P': '--pipe', '-q': '--quiet', '-G': '--collect', '-S': '--shell', '-h': '--help' },
    },
    0,
    ['--help', '--version', '-h'],
  ),
  // man(1) (man-db 2.12): the pager, `-P PAGER` or $MANPAGER / $PAGER, runs through a shell.
  man: {
    value_options: ['-C', '-M', '-P', '-r', '-E', '-L', '-m', '-e', '-p', '-R', '-S', '-s', '--config-file', '--manpath', '--pager', '--prompt', '--encoding', '--locale', '--systems', '--extension', '--preprocessor', '--recode', '--sections'],
    // `-T[DEVICE]`, `-H[BROWSER]`, `-X[DPI]`: the value only when attached.
    optional_value: ['-T', '-H', '-X', '--troff-device', '--html', '--gxditview'],
    synonyms: { '-P': '--pager' },
    env_runs: { MANPAGER: 'shell', PAGER: 'shell' },
    runs: { shell_options: ['--pager', '-P'] },
  },
  // at(1), batch(1): the commands to run later are read from standard input (or `-f FILE`, not read).
  at: { options_first: true, flags: ['-m', '-M', '-v', '-l', '-d', '-r', '-c', '-b', '-V'], value_options: ['-q', '-f', '-t'], runs: { stdin_script: true, no_run: ['-l', '-d', '-r', '-c', '-V'], self: 'idle' } },
  batch: { options_first: true, flags: ['-m', '-M', '-v', '-V'], value_options: ['-q', '-f'], runs: { stdin_script: true, no_run: ['-V'], self: 'idle' } },
  flock,
  xargs,
  find,
  watch,
  parallel,
  strace,
  ltrace,
  nsenter,
  unbuffer: { strict: true, options_first: true, flags: ['-p'], runs: { command: true, self: 'idle' } },
  caffeinate: { strict: true, options_first: true, flags: ['-d', '-i', '-m', '-s', '-u'], value_options: ['-t', '-w'], runs: { command: true, self: 'idle' } },
  sg: { options_first: true, options_after: 1, dash: '-', flags: ['-c'], runs: { shell_operands: true, skip: 1, self: 'idle' } },
  ssh,
  docker,
  podman,
  kubectl,
  npm: { nested: true, aliases: { x: 'exec' }, subcommands: { exec: npmExec } },
  npx: { options_first: true, ...npmExec },
  eval: { options_first: true, runs: { shell_operands: true, self: 'never' } },
  source: { options_first: true, runs: { script_operand: true, keeps_positional: true }, files: { first: 'read' } },
  '.': { options_first: true, runs: { script_operand: true, keeps_positional: true }, files: { first: 'read' } },
  su,
  runuser: {
    ...su,
    value_options: [...(su.value_options ?? []), '-u', '--user'],
    runs: { shell_options: ['-c', '--command', '--session-command'], command_when: ['-u', '--user'], self: 'idle' },
  },
  trap: { options_first: true, flags: ['-p', '-l'], runs: { shell_first: 2 } },
  // `alias NAME=VALUE`: VALUE runs where NAME is later used as a command (bash expands aliases
  // in scripts with `shopt -s expand_aliases`, which some harnesses' shells set): read as if it
  // ran here, so defining an alias is judged like running what it stands for.
  alias: { options_first: true, flags: ['-p'], runs: { shell_assignments: true } },
  script,
  busybox: { options_first: true, runs: { command: true, self: 'idle' } },
  fish,
  python,
  pypy: python,
  node,
  nodejs: node,
  perl,
  ruby,
  php,
};

/** Shells: `-c TEXT [$0 $1 …]`, a script file, or a script on standard input. */
for (const name of ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash', 'posh', 'yash', 'oksh', 'pdksh', 'loksh']) RUNNERS[name] = shell;
