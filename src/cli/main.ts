/**
 * `buckler` entry point: argv → one command module, loaded lazily so that the hook path
 * (driver mode) pays only for what a hook needs.
 *
 *   buckler [--driver NAME] [--event EVENT]   hook driver: native event on stdin, native reply on stdout
 *   buckler evaluate|validate|check|hooks|paths|log …
 */
import { processIO, type CliIO } from './io.ts';
import { systemMode } from './process-paths.ts';
import { systemEnv } from '../paths.ts';

declare const __BUCKLER_VERSION__: string;
export const VERSION: string = typeof __BUCKLER_VERSION__ === 'string' ? __BUCKLER_VERSION__ : '0.0.0-dev';

export type CommandRun = (args: string[], io: CliIO) => number | Promise<number>;

/** Each command lives in its own module; `import()` keeps the others off the hook path. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run: CommandRun }> }> = {
  evaluate: { summary: 'PolicyInput JSON in, PolicyOutput JSON out', load: () => import('./evaluate.ts') },
  check: { summary: 'decide one command line, readably', load: () => import('./check.ts') },
  explain: { summary: 'why a command line (or harness event) gets its decision, rule by rule', load: () => import('./explain.ts') },
  test: { summary: 'run policy test cases (YAML): exit 1 with a diff on a mismatch', load: () => import('./policy-test.ts') },
  validate: { summary: 'check packs and user rules; exit 1 on errors', load: () => import('./validate.ts') },
  hooks: { summary: 'merge|strip|status Buckler in a harness config', load: () => import('./hooks.ts') },
  paths: { summary: 'print the files and directories Buckler uses', load: () => import('./paths.ts') },
  log: { summary: 'show recent decisions from the audit log', load: () => import('./log.ts') },
  stats: { summary: 'count the audit log by decision, rule, project and day', load: () => import('./stats.ts') },
  replay: { summary: 're-decide logged commands under another policy; print what changes', load: () => import('./replay.ts') },
  pack: { summary: 'signed pack bundles: keygen|sign|install|list|update|rollback|remove', load: () => import('./pack.ts') },
  allow: { summary: 'let one blocked command through, once (--list, --revoke)', load: () => import('./allow.ts') },
  trust: { summary: "trust this repository's .buckler/rules.d (--status, --revoke, --list)", load: () => import('./trust.ts') },
  doctor: { summary: 'check that Buckler really guards every harness here; exit 1 on a problem', load: () => import('./doctor.ts') },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  const lines = Object.entries(COMMANDS).map(([k, v]) => `  buckler ${k.padEnd(width)}  ${v.summary}`);
  return [
    `buckler ${VERSION} — policy engine for AI coding agents' hooks`,
    '',
    'Usage:',
    '  buckler [--driver NAME] [--event EVENT]',
    '                            hook mode: the harness event on stdin, the reply on stdout',
    '                            (NAME: cursor, claude-code, codex, gemini-cli, copilot-cli;',
    '                            default $BUCKLER_DRIVER or cursor; EVENT: for payloads that',
    '                            do not name their event, Copilot CLI native hooks)',
    ...lines,
    '  buckler version | --version | -v | --help',
    '',
    "Run 'buckler COMMAND --help' for a command's options.",
    '',
  ].join('\n');
}

/** Set by a hook run that gave up at its deadline with a read still pending (see start()). */
let abandonedHook = false;

/** Set by a hook run (see start()). */
let hookRun = false;

/** Which parts of the hook path this hook run went through (`codeCacheWanted`); 0: none worth keeping. */
let hookCode = 0;

/**
 * Which parts of the hook path a V8 code cache made after this run would hold, one bit each
 * (src/cli/driver.ts, `CODE`); 0 when the loader should not keep a cache of this run (any other
 * command, the pack compiler of a first hook after an install, a failure). The loader keeps one
 * cache holding every part the hooks on this machine have used (src/cli/loader.ts).
 */
export function codeCacheWanted(): number {
  return hookCode;
}

export async function main(argv: string[], given: CliIO): Promise<number> {
  // The locked-down install: no BUCKLER_* / XDG_* variable or operator bypass counts (paths.ts).
  const io = systemMode() ? { ...given, env: systemEnv(given.env) } : given;
  const first = argv[0];
  if (first === undefined || first.startsWith('--driver') || first.startsWith('--event')) {
    hookRun = true;
    const { runDriver } = await import('./driver.ts');
    const run = await runDriver(argv, io);
    hookCode = run.code;
    abandonedHook = run.abandoned;
    return run.exitCode;
  }
  if (first === '--version' || first === '-V' || first === '-v' || first === 'version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    io.out(helpText());
    return 0;
  }
  const cmd = COMMANDS[first];
  if (!cmd) {
    io.err(`buckler: unknown command '${first}'. Run 'buckler --help'.\n`);
    return 2;
  }
  const mod = await cmd.load();
  return mod.run(argv.slice(1), io);
}

/** Last line of defence: no stack trace ever reaches a harness or a terminal. */
function fatal(e: unknown): void {
  const msg = e instanceof Error ? e.message : String(e);
  try {
    processIO().err(`buckler: internal error: ${msg}\n`);
  } catch {
    /* nothing left to report to */
  }
  process.exitCode = 2;
}

/** Runs the command line of this process. Called by dist/buckler.cjs (src/cli/loader.ts). */
export function start(): void {
  main(process.argv.slice(2), processIO()).then((code) => {
    process.exitCode = code;
    // A hook's reply is out (written synchronously, as is the audit record): exit now. A stdin
    // read the harness never ends would keep the process alive, and the harness waiting, until
    // its own timeout; and a natural exit also waits for V8's background tasks and tears the
    // heap down, which a hook process has no use for (docs/performance.md).
    if (hookRun || abandonedHook) process.exit(code);
  }, fatal);
}
