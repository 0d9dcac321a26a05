/**
 * `buckler` entry point: argv → one command module, loaded lazily so that the hook path
 * (driver mode) pays only for what a hook needs.
 *
 *   buckler [--driver NAME] [--event EVENT]   hook driver: native event on stdin, native reply on stdout
 *   buckler COMMAND …                         every other command: src/cli/command-table.ts
 */
import type { ModuleCommand } from './command-table.ts';
import { processIO, type CliIO } from './io.ts';
import { systemCommandEnv, systemMode } from './process-paths.ts';
import { systemEnv, systemWithheld } from '../paths.ts';

declare const __BUCKLER_VERSION__: string;
export const VERSION: string = typeof __BUCKLER_VERSION__ === 'string' ? __BUCKLER_VERSION__ : '0.0.0-dev';

export type CommandRun = (args: string[], io: CliIO) => number | Promise<number>;

/**
 * Which module runs each command of the command table (src/cli/command-table.ts): the table's
 * `module`, as an `import()` esbuild can see. scripts/build.mjs makes each a bundle of its own
 * (dist/cli-<module>.cjs) and these imports `require()`s of it, so the hook never reads or
 * compiles their code; main.ts reads only the table's types, so the hook bundle holds none of
 * the table either. The type makes this list follow the table; command-table.test.ts checks
 * that each entry loads the module the table names.
 */
export const LOADERS: Record<ModuleCommand, () => Promise<{ run: CommandRun }>> = {
  evaluate: () => import('./evaluate.ts'),
  check: () => import('./check.ts'),
  explain: () => import('./explain.ts'),
  test: () => import('./policy-test.ts'),
  validate: () => import('./validate.ts'),
  scan: () => import('./scan.ts'),
  hooks: () => import('./hooks.ts'),
  paths: () => import('./paths.ts'),
  log: () => import('./log.ts'),
  stats: () => import('./stats.ts'),
  replay: () => import('./replay.ts'),
  pack: () => import('./pack.ts'),
  allow: () => import('./allow.ts'),
  suggest: () => import('./suggest.ts'),
  init: () => import('./init.ts'),
  trust: () => import('./trust.ts'),
  doctor: () => import('./doctor.ts'),
  completion: () => import('./completion.ts'),
  help: () => import('./help.ts'),
};

/** How a command line ended: its exit code, and for a hook, what the loader's code cache wants. */
export interface Outcome {
  exitCode: number;
  /** A hook run: which parts of the hook path it went through (`CODE` in src/cli/driver.ts), 0 for none worth keeping. */
  hook?: { codeCache: number };
}

export async function main(argv: string[], given: CliIO): Promise<number> {
  return (await dispatch(argv, given)).exitCode;
}

async function dispatch(argv: string[], given: CliIO): Promise<Outcome> {
  const first = argv[0];
  const hook = first === undefined || first.startsWith('--driver') || first.startsWith('--event');
  // The locked-down install: no BUCKLER_* / XDG_* variable or operator bypass counts (paths.ts)
  // unless the system config allows it. A hook sets the variables aside until its policy (which
  // carries the system config) has loaded (hook/decide.ts); a command reads the config now.
  let io = given;
  if (systemMode()) {
    if (hook) io = { ...given, env: systemEnv(given.env), withheldEnv: systemWithheld(given.env) };
    else io = { ...given, env: await systemCommandEnv(given.env) };
  }
  if (hook) {
    const { runDriver } = await import('./driver.ts');
    const run = await runDriver(argv, io);
    return { exitCode: run.exitCode, hook: { codeCache: run.code } };
  }
  if (first === '--version' || first === '-V' || first === '-v' || first === 'version') {
    io.out(`${VERSION}\n`);
    return { exitCode: 0 };
  }
  if (first === '--help' || first === '-h') {
    const { helpText } = (await LOADERS.help()) as unknown as typeof import('./help.ts');
    io.out(helpText());
    return { exitCode: 0 };
  }
  const load = Object.hasOwn(LOADERS, first) ? LOADERS[first as ModuleCommand] : undefined;
  if (!load) {
    io.err(`buckler: unknown command '${first}'. Run 'buckler --help'.\n`);
    return { exitCode: 2 };
  }
  const mod = await load();
  return { exitCode: await mod.run(argv.slice(1), io) };
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

/**
 * Runs the command line of this process; `done` hears how it ended (the loader keeps a hook's
 * code-cache parts from it). Called by dist/buckler.cjs (src/cli/loader.ts).
 */
export function start(done?: (outcome: { codeCache: number }) => void): void {
  dispatch(process.argv.slice(2), processIO()).then((outcome) => {
    const code = outcome.exitCode;
    process.exitCode = code;
    done?.({ codeCache: outcome.hook?.codeCache ?? 0 });
    // A hook's reply is out (written synchronously, as is the audit record): exit now. A stdin
    // read the harness never ends would keep the process alive, and the harness waiting, until
    // its own timeout; and a natural exit also waits for V8's background tasks and tears the
    // heap down, which a hook process has no use for (docs/performance.md).
    if (outcome.hook !== undefined) process.exit(code);
  }, fatal);
}
