/**
 * `buckler allow` in the locked-down install (docs/install.md): only root grants, for the person
 * `sudo` runs it for (SUDO_UID), into their root-owned store (system-grants.ts). A grant is bounded
 * by time only (the person's hooks cannot record a use): by default 2 minutes, at most 10, as
 * /etc/buckler/config.toml `[system]` sets; `allow = false` there switches granting off.
 */
import path from 'node:path';
import { allowOutput } from '../core/contract.ts';
import { MAX_GRANT_SECONDS, readSystemSettings } from './system-settings.ts';
import { shellWord, storeFile, type AllowEntry } from './allow-once.ts';
import { auditPersonAction as audit } from './audit-person.ts';
import type { CliIO } from './io.ts';
import { processPathContext, processUid, sudoUid } from './process-paths.ts';
import { projectRoot } from './project.ts';
import { addSystemGrant, ensureSystemApprovalsDir, liveGrants, readSystemStore, revokeSystemGrants, systemApprovalsDir } from './system-grants.ts';

export const SYSTEM_ALLOW_HELP = `Usage: sudo buckler allow [--project DIR] [--for DURATION] [--] WORD…
       buckler allow --list [--json]
       sudo buckler allow --revoke ID|all

Locked-down install: lets exactly one simple command run in one project although a deny or ask
rule blocks it, for every tool call until the grant expires (the hooks cannot count uses):
by default ${'${grant}'} s, at most ${MAX_GRANT_SECONDS / 60} min. Only root grants, with sudo, for the person
sudo runs it for (SUDO_UID). /etc/buckler/config.toml [system] sets the default (grant_seconds)
and can switch granting off (allow = false).
`;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

const settings = readSystemSettings;

function describe(e: AllowEntry, now: number): string {
  const left = Math.max(0, Math.round((e.expires - now) / 1000));
  return `${e.id}  ${left}s left (time-bound)  ${e.project}  ${e.argv.map(shellWord).join(' ')}\n`;
}

export function runSystemAllow(args: string[], io: CliIO): number {
  const usage = (msg: string): number => {
    io.err(`buckler allow: ${msg} (see 'buckler allow --help')\n`);
    return 2;
  };
  const conf = settings();
  for (const w of conf.warnings) io.err(`buckler allow: warning: ${w}\n`);
  let project: string | undefined;
  let seconds: number | undefined;
  let list = false;
  let json = false;
  let revoke: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      words.push(...args.slice(i + 1));
      break;
    }
    if (words.length > 0 || !arg.startsWith('-')) {
      words.push(...args.slice(i));
      break;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : args[++i]);
    if (name === '-h' || name === '--help') {
      io.out(SYSTEM_ALLOW_HELP.replace('${grant}', String(conf.grantSeconds)));
      return 0;
    } else if (name === '--list') list = true;
    else if (name === '--json') json = true;
    else if (name === '--project') {
      const v = value();
      if (v === undefined || v === '') return usage('--project needs a directory');
      project = path.resolve(io.cwd, v);
    } else if (name === '--for') {
      const m = /^([1-9][0-9]{0,6})([smh])$/.exec(value() ?? '');
      if (!m) return usage('--for needs a duration such as 30s or 5m');
      seconds = Number(m[1]) * (UNITS[m[2] as string] as number);
      if (seconds > MAX_GRANT_SECONDS) return usage(`--for is at most ${MAX_GRANT_SECONDS / 60}m in the locked-down install`);
    } else if (name === '--uses') {
      return usage('--uses does not apply in the locked-down install: a grant is bounded by time only');
    } else if (name === '--revoke') {
      const v = value();
      if (v === undefined || v === '') return usage('--revoke needs an entry id (see --list) or all');
      revoke = v;
    } else return usage(`unknown option '${arg}'`);
  }
  const modes = [list, revoke !== undefined, words.length > 0].filter(Boolean).length;
  if (modes !== 1) return usage(modes === 0 ? 'give the command to allow, --list or --revoke ID' : 'give only one of: a command, --list, --revoke');
  const uid = processUid() ?? 0;
  const now = Date.now();
  try {
    if (list) {
      // The person may list their own grants; root lists SUDO_UID's.
      const whose = uid === 0 ? sudoUid(io.env) : uid;
      if (whose === undefined) return usage('as root, run it through sudo from the person\'s account (SUDO_UID names whose grants)');
      const entries = liveGrants(readSystemStore(storeFile(systemApprovalsDir(whose))), now);
      if (json) io.out(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      else if (entries.length === 0) io.err('buckler allow: no entries\n');
      else io.out(entries.map((e) => describe(e, now)).join(''));
      return 0;
    }
    if (uid !== 0) {
      io.err(`buckler allow: in the locked-down install only an administrator grants: sudo buckler allow ${words.map(shellWord).join(' ') || '…'}\n`);
      return 1;
    }
    const person = sudoUid(io.env);
    if (person === undefined) {
      io.err('buckler allow: refused: SUDO_UID is not set (or is root); run it with sudo from the account of the person the grant is for\n');
      return 1;
    }
    if (!conf.allow) {
      io.err('buckler allow: refused: /etc/buckler/config.toml switches allow off ([system] allow = false)\n');
      return 1;
    }
    const file = storeFile(ensureSystemApprovalsDir(person));
    if (revoke !== undefined) {
      const gone = revokeSystemGrants(file, revoke, now);
      if (gone.length === 0) {
        io.err(`buckler allow: no entry ${revoke}\n`);
        return 1;
      }
      io.out(`revoked ${gone.map((e) => e.id).join(', ')}\n`);
      return 0;
    }
    const ttl = (seconds ?? conf.grantSeconds) * 1000;
    const where = project ?? projectRoot(io.cwd, processPathContext(io.env).home);
    const entry = addSystemGrant(file, { argv: words, project: where, ttlMs: ttl, now });
    const command = words.map(shellWord).join(' ');
    audit(io, {
      input: { policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cli', event: 'allow', shell: { command, cwd: io.cwd } },
      output: allowOutput(),
      harness: 'cli',
      project: where,
      allowOnce: { action: 'grant', ids: [entry.id] },
    });
    io.out(
      `allowed ${entry.id} for uid ${person}: ${command}\n  in ${where}, every time it runs for ${Math.round(ttl / 1000)} s ` +
        `(locked-down install: bounded by time only; revoke: sudo buckler allow --revoke ${entry.id})\n`,
    );
    return 0;
  } catch (e) {
    io.err(`buckler allow: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/**
 * Why `buckler trust` (granting or revoking) is refused in the locked-down install, or null:
 * only root, through sudo for a person (SUDO_UID), while the system config allows it.
 */
export function systemTrustRefusal(env: CliIO['env']): string | null {
  if ((processUid() ?? 0) !== 0) return 'in the locked-down install only an administrator trusts project rules: sudo buckler trust';
  if (sudoUid(env) === undefined) return 'refused: SUDO_UID is not set (or is root); run it with sudo from the account of the person it is for';
  const conf = settings();
  if (!conf.trust) return 'refused: /etc/buckler/config.toml switches trust off ([system] trust = false)';
  ensureSystemApprovalsDir(sudoUid(env) as number);
  return null;
}
