/**
 * The hook's audit stage: config.toml's `audit_log` says which calls are recorded (src/audit/
 * defaults.ts). When the call failed before the policy loaded (an unreadable event), the config
 * is read once more just for this: fail-closed denies are what an operator most wants to find
 * in the log. Never changes the reply; a failure to write is one warning on stderr.
 */
import type { AuditEvent } from '../../audit/record.ts';
import { isRecorded, recordedByDefault, recordsEveryDecision, type AuditSetting } from '../../audit/defaults.ts';
import type { CliIO } from '../io.ts';
import { processUid, systemMode } from '../process-paths.ts';
import type { DriverDeps, HookResult } from './result.ts';

/** What the audit stage needs besides the result. */
export interface AuditContext {
  io: Pick<CliIO, 'env' | 'err'>;
  deps: DriverDeps;
  /** The deadline passed while the policy loaded: loading it again could take as long, and the reply must go out now. */
  policyTimedOut: boolean;
  warn: (text: string) => void;
}

/** Whether this call is recorded: the loaded config's setting, else the config read again (null when unreadable). */
async function auditSetting(result: HookResult, byDefault: boolean, ctx: AuditContext): Promise<AuditSetting | undefined> {
  let setting: AuditSetting | undefined = result.loaded?.config.audit_log;
  if (setting === undefined && ctx.policyTimedOut) setting = false;
  if (setting === undefined && byDefault) {
    try {
      setting = (await ctx.deps.loadPolicy(ctx.io.env, result.project)).config.audit_log;
    } catch {
      setting = null;
    }
  }
  return setting;
}

/** The audit event for a decided call (`everyDecision`: its paths were listed when it was decided). */
function auditEvent(result: HookResult, everyDecision: boolean, deps: DriverDeps, inputProject: (i: NonNullable<HookResult['input']>) => string): AuditEvent {
  const event: AuditEvent = { input: result.input ?? null, output: result.output, harness: result.adapter.name };
  // A decision recorded by default (a deny, an ask): its paths, listed by deciding once more
  // (pure and quick; a default allow never pays for it).
  if (!everyDecision && result.input !== undefined && result.loaded !== undefined && result.output.error === undefined) {
    try {
      // The commands judged when it was decided, when the deps kept them; else decided again.
      event.paths = deps.decidedPaths?.() ?? deps.evaluate(result.input, result.loaded.policy, { paths: true }).commands.flatMap((c) => c.paths ?? []);
    } catch {
      /* the record goes out without paths */
    }
  }
  if (result.allowOnce) {
    event.project = result.allowOnce.project;
    event.allowOnce = { action: 'use', ids: result.allowOnce.ids, was: result.allowOnce.was };
  } else if (result.input?.shell?.cwd !== undefined || result.input?.session?.workspace_roots !== undefined) {
    event.project = inputProject(result.input);
  }
  return event;
}

/** `buckler doctor`'s self-test nonce, in the hook's environment (never the agent's command line). */
export const SELF_TEST_VAR = 'BUCKLER_DOCTOR_SELF_TEST';
/** The command `buckler doctor` asks each wired hook about (then a space and the nonce): unparsable, so denied. */
export const SELF_TEST_COMMAND = 'echo "buckler doctor self-test: unterminated';

/**
 * A call `buckler doctor` made to test the hook: its nonce (at least 16 characters) is both in
 * the hook's environment and in the command. Such calls stay out of the audit log.
 */
export function isDoctorSelfTest(result: HookResult, env: CliIO['env']): boolean {
  const nonce = env[SELF_TEST_VAR];
  if (typeof nonce !== 'string' || nonce.length < 16) return false;
  const command = result.input?.shell?.command;
  return typeof command === 'string' && command.startsWith(`${SELF_TEST_COMMAND} `) && command.endsWith(` ${nonce}`);
}

/** Records the call when the setting says so; sets `result.audited` when a record was written. */
export async function auditHook(result: HookResult, ctx: AuditContext): Promise<void> {
  if (isDoctorSelfTest(result, ctx.io.env)) return;
  const byDefault = recordedByDefault(result.output, result.allowOnce !== undefined);
  // The locked-down install: blocks and grants used also go to the system log, which the
  // person cannot rewrite (system-log.ts), beside the person's own audit log.
  if (byDefault && systemMode()) await systemLog(result);
  const setting = await auditSetting(result, byDefault, ctx);
  if (!isRecorded(setting, byDefault)) return;
  // Imported only now: the audit code (redaction tables included) stays off a default hook's path.
  try {
    const { recordDecision } = await import('../audit.ts');
    const { inputProject } = await import('../allow-apply.ts');
    // Where the system config let location variables move the person's audit log, it goes there.
    const io = result.env === undefined ? ctx.io : { ...ctx.io, env: result.env };
    recordDecision(io, auditEvent(result, recordsEveryDecision(setting), ctx.deps, (i) => inputProject(i, io.env)));
    result.audited = true;
  } catch (e) {
    ctx.warn(`warning: audit record not written: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The locked-down install's line in the system journal or syslog for a block, a bypass or a grant used. */
async function systemLog(result: HookResult): Promise<void> {
  const { syslogText, toSyslog } = await import('../system-log.ts');
  const o = result.output;
  const text = syslogText({
    uid: processUid(),
    harness: result.adapter.name,
    decision: o.decision,
    was: result.allowOnce?.was,
    grant: result.allowOnce?.ids.join(','),
    rule: o.rule,
    bypass: o.bypass ? 'yes' : undefined,
    error: o.error?.code,
    command: result.input?.shell?.command ?? result.input?.tool?.name,
    cwd: result.input?.shell?.cwd,
  });
  toSyslog(text, o.decision === 'allow' ? 'auth.notice' : 'auth.warning');
}
