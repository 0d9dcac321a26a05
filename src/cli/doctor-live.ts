/**
 * `buckler doctor --live`: proves that a running harness enforces Buckler, not only that the
 * hook process answers. It prints a canary command with a unique token for the person to ask
 * their agent to run; `buckler doctor --live --check TOKEN` then reads the audit log for it:
 * which harness's hook saw it, which event, what it decided.
 *
 * The canary is `buckler allow --revoke buckler-canary-<token>`: agent-tamper denies it from an
 * agent's shell (a deny is always recorded, unless audit_log = false), and run unguarded it is
 * harmless: no allow-once entry has that id, so it changes nothing (exit 1, "no entry").
 */
import { randomBytes } from 'node:crypto';
import { filterRecords, parseAuditLog } from '../audit/read.ts';
import type { CliIO } from './io.ts';
import { readLog } from './log.ts';
import { processPaths } from './process-paths.ts';

export const CANARY_PREFIX = 'buckler-canary-';

export function canaryCommand(token: string): string {
  return `buckler allow --revoke ${CANARY_PREFIX}${token}`;
}

export function newToken(): string {
  return randomBytes(6).toString('hex');
}

export function startLive(io: CliIO): number {
  const token = newToken();
  io.out(
    [
      'Ask your agent, in a session of the harness you want to check, to run this command:',
      '',
      `  ${canaryCommand(token)}`,
      '',
      'It is harmless: Buckler should deny it (agent-tamper); if nothing stops it, it changes nothing.',
      'Then check what the hook saw:',
      '',
      `  buckler doctor --live --check ${token}`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** Exit 0: a hook saw the canary and denied it; 1: no hook saw it, or one let it through. */
export function checkLive(token: string, io: CliIO): number {
  if (!/^[0-9a-f]{6,32}$/.test(token)) {
    io.err(`buckler doctor: --check needs the token doctor --live printed (hex), not '${token}' (see 'buckler doctor --help')\n`);
    return 2;
  }
  const file = processPaths(io.env).auditLog;
  const text = readLog(file, true, 'doctor', io);
  if (text === null) return 1;
  const word = `${CANARY_PREFIX}${token}`;
  const seen = filterRecords(parseAuditLog(text).records, {}).filter((r) => r.command !== null && r.command.split(/\s+/).includes(word));
  if (seen.length === 0) {
    io.out(
      `no hook saw the canary ${word}: the harness did not run Buckler's hook for it (not wired, hooks switched off, or the agent has not run it yet; audit_log = false records nothing)\n`,
    );
    return 1;
  }
  let ok = true;
  for (const r of seen) {
    const enforced = r.decision === 'deny' || r.decision === 'ask';
    if (!enforced) ok = false;
    io.out(`${r.time}  ${r.harness ?? 'unknown harness'}  ${r.event ?? r.trigger ?? '-'}  ${r.decision}${r.rule ? `  ${r.rule}` : ''}${enforced ? '' : '  (not blocked: check the rules and tier)'}\n`);
  }
  io.out(ok ? `the hook of ${[...new Set(seen.map((r) => r.harness ?? 'unknown'))].join(', ')} saw the canary and blocked it\n` : 'a hook saw the canary but let it through\n');
  return ok ? 0 : 1;
}
