/**
 * `buckler allow`: let one blocked simple command through, for a person (docs/allow-once.md).
 *
 *   buckler allow [--project DIR] [--uses N] [--for DURATION] [--] WORD…   add an entry (changes state)
 *   buckler allow --list [--json]                                          list live entries (read-only)
 *   buckler allow --revoke ID|all                                          remove entries (changes state)
 *
 * Only a person should run it: the agent-tamper pack denies `buckler allow` (without --list)
 * from an agent's shell. Exit codes: 0 done, 1 the store could not be read or written, 2 usage.
 */
import path from 'node:path';
import { addEntry, DEFAULT_TTL_MS, DEFAULT_USES, live, MAX_TTL_MS, MAX_USES, readStore, revokeEntries, shellWord, storeFile, type AllowEntry } from './allow-once.ts';
import { auditPersonAction as audit } from './audit-person.ts';
import type { CliIO } from './io.ts';
import { runSystemAllow } from './allow-system.ts';
import { processPathContext, processPaths, processUid, systemMode } from './process-paths.ts';
import { projectRoot } from './project.ts';
import { allowOutput } from '../core/contract.ts';

export const ALLOW_HELP = `Usage: buckler allow [--project DIR] [--uses N] [--for DURATION] [--] WORD…
       buckler allow --list [--json]
       buckler allow --revoke ID|all

Lets exactly one simple command (these words, as Buckler's block message shows them) run in
one project although a deny or ask rule blocks it: for N tool calls (default ${DEFAULT_USES}) within
DURATION (default 10m, at most 24h). Run it yourself, in your own terminal: Buckler's
agent-tamper pack denies it from an agent's shell.

Options:
      --project DIR   the project the command runs in (default: the project of the current
                      directory: its repository root)
      --uses N        how many tool calls may use it (1..${MAX_USES}, default ${DEFAULT_USES})
      --for D         how long it stays valid: 30s, 10m, 2h, 1d (default 10m, at most 1d)
      --list          list the entries still valid (read-only); --json for JSON lines
      --revoke ID     remove an entry (or all of them)
  -h, --help          show this help

Exit codes: 0 done, 1 the store could not be read or written, 2 usage.
`;

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 };

export function parseDuration(text: string): number | null {
  const m = /^([1-9][0-9]{0,6})([smhd])$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * (UNITS[m[2] as string] as number);
}

function describe(e: AllowEntry, now: number): string {
  const left = Math.max(0, Math.round((e.expires - now) / 1000));
  const time = left >= 3600 ? `${Math.floor(left / 3600)}h${Math.floor((left % 3600) / 60)}m` : left >= 60 ? `${Math.floor(left / 60)}m${left % 60}s` : `${left}s`;
  return `${e.id}  ${e.used}/${e.uses} used  ${time} left  ${e.project}  ${e.argv.map(shellWord).join(' ')}\n`;
}

export function run(args: string[], io: CliIO): number {
  if (systemMode()) return runSystemAllow(args, io);
  let project: string | undefined;
  let uses = DEFAULT_USES;
  let ttl = DEFAULT_TTL_MS;
  let list = false;
  let json = false;
  let revoke: string | undefined;
  const words: string[] = [];
  const usage = (msg: string): number => {
    io.err(`buckler allow: ${msg} (see 'buckler allow --help')\n`);
    return 2;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      words.push(...args.slice(i + 1));
      break;
    }
    if (words.length > 0 || !arg.startsWith('-')) {
      // The command's own words start here (its options included): `buckler allow git push -f`.
      words.push(...args.slice(i));
      break;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : args[++i]);
    if (name === '-h' || name === '--help') {
      io.out(ALLOW_HELP);
      return 0;
    } else if (name === '--list') list = true;
    else if (name === '--json') json = true;
    else if (name === '--project') {
      const v = value();
      if (v === undefined || v === '') return usage('--project needs a directory');
      project = path.resolve(io.cwd, v);
    } else if (name === '--uses') {
      const v = value();
      if (v === undefined || !/^[1-9][0-9]*$/.test(v) || Number(v) > MAX_USES) return usage(`--uses must be a whole number from 1 to ${MAX_USES}`);
      uses = Number(v);
    } else if (name === '--for') {
      const v = value();
      const ms = v === undefined ? null : parseDuration(v);
      if (ms === null) return usage('--for needs a duration such as 30s, 10m, 2h or 1d');
      if (ms > MAX_TTL_MS) return usage('--for is at most 1d');
      ttl = ms;
    } else if (name === '--revoke') {
      const v = value();
      if (v === undefined || v === '') return usage('--revoke needs an entry id (see --list) or all');
      revoke = v;
    } else return usage(`unknown option '${arg}'`);
  }
  const file = storeFile(processPaths(io.env).stateHome);
  const uid = processUid();
  const now = Date.now();
  const modes = [list, revoke !== undefined, words.length > 0].filter(Boolean).length;
  if (modes !== 1) return usage(modes === 0 ? 'give the command to allow, --list or --revoke ID' : 'give only one of: a command, --list, --revoke');
  try {
    if (list) {
      const entries = readStore(file, uid).filter((e) => live(e, now) && e.used < e.uses);
      if (json) io.out(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      else if (entries.length === 0) io.err('buckler allow: no entries\n');
      else io.out(entries.map((e) => describe(e, now)).join(''));
      return 0;
    }
    if (revoke !== undefined) {
      const gone = revokeEntries(file, uid, revoke, now);
      if (gone.length === 0) {
        io.err(`buckler allow: no entry ${revoke}\n`);
        return 1;
      }
      audit(io, { input: null, output: allowOutput(), harness: 'cli', allowOnce: { action: 'revoke', ids: gone.map((e) => e.id) } });
      io.out(`revoked ${gone.map((e) => e.id).join(', ')}\n`);
      return 0;
    }
    const where = project ?? projectRoot(io.cwd, processPathContext(io.env).home);
    const entry = addEntry(file, uid, { argv: words, project: where, uses, ttlMs: ttl, now });
    const command = words.map(shellWord).join(' ');
    audit(io, {
      input: { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cli', event: 'allow', shell: { command, cwd: io.cwd } },
      output: allowOutput(),
      harness: 'cli',
      project: where,
      allowOnce: { action: 'grant', ids: [entry.id] },
    });
    io.out(`allowed ${entry.id}: ${command}\n  in ${where}, ${uses} use${uses === 1 ? '' : 's'} within ${Math.round(ttl / 60000) || 1} min (revoke: buckler allow --revoke ${entry.id})\n`);
    return 0;
  } catch (e) {
    io.err(`buckler allow: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
