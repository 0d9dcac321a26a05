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
import { printable } from './printable.ts';
import path from 'node:path';
import { addEntry, DEFAULT_TTL_MS, DEFAULT_USES, live, MAX_TTL_MS, MAX_USES, readStore, revokeEntries, shellWord, storeFile, type AllowEntry } from './allow-once.ts';
import { historyFile, recordGrant } from './allow-history.ts';
import { auditPersonAction as audit } from './audit-person.ts';
import { flag, parseCommand, str, usageError, type Parsed } from './args.ts';
import type { CliIO } from './io.ts';
import { showHelp } from './show-help.ts';
import { runSystemAllow } from './allow-system.ts';
import { processPathContext, processPaths, processUid, systemMode } from './process-paths.ts';
import { projectRoot } from './project.ts';
import { allowOutput } from '../core/contract.ts';

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 };

export function parseDuration(text: string): number | null {
  const m = /^([1-9][0-9]{0,6})([smhd])$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * (UNITS[m[2] as string] as number);
}

function describe(e: AllowEntry, now: number): string {
  const left = Math.max(0, Math.round((e.expires - now) / 1000));
  const time = left >= 3600 ? `${Math.floor(left / 3600)}h${Math.floor((left % 3600) / 60)}m` : left >= 60 ? `${Math.floor(left / 60)}m${left % 60}s` : `${left}s`;
  return `${printable(e.id)}  ${e.used}/${e.uses} used  ${time} left  ${printable(e.project)}  ${printable(e.argv.map(shellWord).join(' '))}\n`;
}

interface AllowArgs {
  project: string | undefined;
  uses: number;
  ttl: number;
  list: boolean;
  json: boolean;
  revoke: string | undefined;
  words: string[];
}

/** The options read and checked, or what is wrong with them. */
function allowArgs(p: Parsed, cwd: string): AllowArgs | string {
  const project = str(p, 'project');
  const uses = str(p, 'uses');
  const ttl = str(p, 'for');
  const revoke = str(p, 'revoke');
  if (project === '') return '--project needs a directory';
  if (uses !== undefined && (!/^[1-9][0-9]*$/.test(uses) || Number(uses) > MAX_USES)) return `--uses must be a whole number from 1 to ${MAX_USES}`;
  const ms = ttl === undefined ? DEFAULT_TTL_MS : parseDuration(ttl);
  if (ms === null) return '--for needs a duration such as 30s, 10m, 2h or 1d';
  if (ms > MAX_TTL_MS) return '--for is at most 1d';
  if (revoke === '') return '--revoke needs an entry id (see --list) or all';
  const out = { project: project === undefined ? undefined : path.resolve(cwd, project), uses: uses === undefined ? DEFAULT_USES : Number(uses), ttl: ms, list: flag(p, 'list'), json: flag(p, 'json'), revoke, words: p.operands };
  const modes = [out.list, revoke !== undefined, out.words.length > 0].filter(Boolean).length;
  if (modes !== 1) return modes === 0 ? 'give the command to allow, --list or --revoke ID' : 'give only one of: a command, --list, --revoke';
  return out;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('allow', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('allow', io);
  // The locked-down install: root-owned grants, bounded by time only (allow-system.ts).
  if (systemMode()) return runSystemAllow(args, io);
  const opts = allowArgs(parsed, io.cwd);
  if (typeof opts === 'string') return usageError(io, 'allow', opts);
  const { project, uses, ttl, list, json, revoke, words } = opts;
  const file = storeFile(processPaths(io.env).stateHome);
  const uid = processUid();
  const now = Date.now();
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
    const oneWord = quotedLine(words);
    if (oneWord !== null) {
      io.err(
        `buckler allow: "${words[0]}" is one word holding a whole command line, and an entry for it could never match (entries name each word).\n` +
          `  Give the words separately, as the block message shows:\n  buckler allow${project === undefined ? '' : ` --project ${shellWord(project)}`} -- ${oneWord.map(shellWord).join(' ')}\n`,
      );
      return 2;
    }
    const where = project ?? projectRoot(io.cwd, processPathContext(io.env).home);
    await warnIfNotBlocked(words, where, io);
    const entry = addEntry(file, uid, { argv: words, project: where, uses, ttlMs: ttl, now });
    try {
      // What `buckler suggest` reads: the store forgets the entry once it is used up.
      recordGrant(historyFile(processPaths(io.env).stateHome), uid, { id: entry.id, argv: words, project: where, at: now });
    } catch (e) {
      io.err(`buckler allow: warning: the grant history was not written: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    const command = words.map(shellWord).join(' ');
    audit(io, {
      input: { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cli', event: 'allow', shell: { command, cwd: io.cwd } },
      output: allowOutput(),
      harness: 'cli',
      project: where,
      allowOnce: { action: 'grant', ids: [entry.id] },
    });
    io.out(`allowed ${entry.id}: ${printable(command)}\n  in ${printable(where)}, ${uses} use${uses === 1 ? '' : 's'} within ${Math.round(ttl / 60000) || 1} min (revoke: buckler allow --revoke ${entry.id})\n`);
    return 0;
  } catch (e) {
    io.err(`buckler allow: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/**
 * `buckler allow -- "git push --force origin main"`: one operand holding several words (as
 * people quote for `check`). Its words split at blanks, or null when it is a single word (or
 * holds quotes or shell syntax, where splitting at blanks would not give the command's words).
 */
export function quotedLine(words: readonly string[]): string[] | null {
  if (words.length !== 1) return null;
  const w = words[0]!.trim();
  if (!/\s/.test(w)) return null;
  const parts = w.split(/\s+/);
  return parts;
}

/**
 * A person granting what would not be blocked now (a typo, another project, a rule since
 * switched off) gets a warning: the entry is still recorded. Shell commands only; a tool entry
 * (`Write /etc/hosts`) is named as the block message named it.
 */
async function warnIfNotBlocked(words: readonly string[], project: string, io: CliIO): Promise<void> {
  if (looksLikeToolEntry(words)) return;
  try {
    const { evaluate } = await import('../core/evaluate.ts');
    const { loadRuntimePolicy } = await import('../packs/runtime.ts');
    const { placeInput, whereOf } = await import('./command-input.ts');
    const command = words.map(shellWord).join(' ');
    const where = whereOf({});
    if (typeof where === 'string') return;
    const input = placeInput({ policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cli', shell: { command, cwd: project } }, { ...where, cwd: project }, io);
    const loaded = await loadRuntimePolicy(processPaths(io.env), { uid: processUid(), project });
    const out = evaluate(input, loaded.policy);
    if (out.decision !== 'deny' && out.decision !== 'ask') {
      io.err(`buckler allow: warning: \`${command}\` would not be blocked now in ${project} (${out.decision}); the entry is recorded anyway. Check the words against the block message.\n`);
    }
  } catch {
    /* no warning when the policy cannot be read: the grant itself does not depend on it */
  }
}

/** `Write /etc/hosts`, `mcp__srv__tool`: a tool's name (capitalised or mcp__), then absolute paths. */
function looksLikeToolEntry(words: readonly string[]): boolean {
  const [name, ...rest] = words;
  if (name === undefined || !/^(?:[A-Z][A-Za-z]*|mcp__\S+)$/.test(name)) return false;
  return rest.every((w) => w.startsWith('/'));
}
