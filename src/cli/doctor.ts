/**
 * `buckler doctor [--project DIR] [--json]`: is Buckler really guarding this machine? For each
 * harness found: its version, whether every event Buckler needs is wired (in any scope), whether
 * each wired command starts and denies (a live self-test in that harness's own event format),
 * and every setting that silently switches hooks off. Then Buckler's own state: packs and rules
 * that did not load, where each pack comes from (builtin, user, a signed bundle), bundles refused
 * and packs switched off, and the operator bypass. Exit 0 when nothing is wrong, 1 on any problem,
 * 2 for bad arguments. See docs/doctor.md.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { getAdapter } from '../adapters/registry.ts';
import type { Adapter, NativeReply } from '../adapters/adapter.ts';
import { InstallerError } from '../installers/errors.ts';
import type { HarnessInstaller, OffSwitch } from '../installers/installer.ts';
import { readConfig } from '../installers/config-file.ts';
import { SELF_TEST_COMMAND, SELF_TEST_VAR } from './hook/audit.ts';
import { INSTALLERS } from '../installers/registry.ts';
import { readStatus, type ConfigStatus } from '../installers/status.ts';
import { formatProblem } from '../packs/problems.ts';
import { auditHealth } from '../audit/append.ts';
import { compareVersions, shortKey } from '../packs/bundle.ts';
import { checkRuntimeCache, loadPolicyReport, type PolicyReport } from '../packs/runtime.ts';
import { harnessConfigFile, harnessHomeDir, resolvePaths, type PathContext, type Scope } from '../paths.ts';
import { parseCommand, usageError } from './args.ts';
import { showHelp } from './show-help.ts';
import type { Finding, HarnessReport } from './doctor-finding.ts';
import type { CliIO } from './io.ts';
import { policyOptions, processPathContext, processPaths, processUid, systemMode } from './process-paths.ts';
import { unknownEventFindings } from './doctor-events.ts';
import { projectOf } from './project.ts';

/** A command Buckler cannot parse: every correctly wired hook denies it, whatever the packs say. */
export { SELF_TEST_COMMAND };

/** How long a wired command may take to answer the self-test (hook timeouts are 10 s). */
const SELF_TEST_TIMEOUT_MS = 10_000;

export type { Finding, HarnessReport } from './doctor-finding.ts';

export interface DoctorReport {
  ok: boolean;
  harnesses: HarnessReport[];
  buckler: Finding[];
  /** The locked-down install's own checks (doctor-system.ts); absent in an ordinary install. */
  system?: Finding[];
}

type Scoped = { scope: Scope; file: string };

function realProject(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

function settingsFiles(installer: HarnessInstaller, ctx: PathContext, project: string): Scoped[] {
  return installer.scopes.map((scope) => ({ scope, file: harnessConfigFile(installer.name, scope, { ...ctx, project }) }));
}

/** The harness CLI's version: the first x.y.z its `--version` prints, or null. */
function cliVersion(installer: HarnessInstaller, env: CliIO['env']): string | null {
  if (installer.cli === undefined) return null;
  const r = spawnSync(installer.cli.bin, [...installer.cli.versionArgs], {
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 5_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error !== undefined || r.status !== 0) return null;
  return /\d+\.\d+\.\d+/.exec(r.stdout)?.[0] ?? null;
}

/** Runs a wired hook command the way the harness does (through the shell) with `event` on stdin. */
export function selfTest(command: string, adapter: Adapter, cwd: string, env: CliIO['env']): Finding {
  // A nonce in the command and in the hook's environment marks the call as doctor's own: the
  // hook answers it as any other but keeps it out of the audit log (hook/audit.ts). An agent
  // cannot set the hook process's environment, so it cannot hide a call this way.
  const nonce = randomBytes(12).toString('hex');
  const event = adapter.selfTestEvent(`${SELF_TEST_COMMAND} ${nonce}`, cwd);
  const shell = process.platform === 'win32' ? { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', command] } : { file: '/bin/sh', args: ['-c', command] };
  const r = spawnSync(shell.file, shell.args, {
    cwd,
    env: { ...(env as NodeJS.ProcessEnv), [SELF_TEST_VAR]: nonce },
    input: `${JSON.stringify(event)}\n`,
    encoding: 'utf8',
    timeout: SELF_TEST_TIMEOUT_MS,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const name = `self-test of ${command}`;
  if (r.error !== undefined) {
    const timedOut = (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
    return { level: 'problem', text: `${name}: ${timedOut ? `no answer within ${SELF_TEST_TIMEOUT_MS / 1000} s` : r.error.message}` };
  }
  const out = r.stdout.trim();
  let stdout: Record<string, unknown> | null = null;
  if (out !== '') {
    try {
      const v: unknown = JSON.parse(out);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) stdout = v as Record<string, unknown>;
      else throw new Error('not an object');
    } catch {
      return { level: 'problem', text: `${name}: printed something that is not one JSON object (${out.slice(0, 120)})` };
    }
  }
  const reply: NativeReply = { stdout, exitCode: r.status ?? 1 };
  if (r.status !== 0) return { level: 'problem', text: `${name}: exited ${r.status ?? r.signal}: ${r.stderr.trim().slice(0, 200)}` };
  if (!adapter.isBlocking(reply)) {
    return { level: 'problem', text: `${name}: did not deny a command it cannot parse (the harness would let it run)` };
  }
  return { level: 'ok', text: `${name}: denies as it should` };
}

/** The value at a dotted key path (`hooks.hooksDisabled`), or undefined. */
function settingAt(value: Record<string, unknown>, key: string): unknown {
  let v: unknown = value;
  for (const part of key.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function switchFindings(switches: readonly OffSwitch[], values: Map<Scope, Record<string, unknown>>, wiredIn: Set<Scope>, files: Scoped[]): Finding[] {
  const out: Finding[] = [];
  for (const sw of switches) {
    if (sw.unlessWiredIn?.some((s) => wiredIn.has(s))) continue;
    for (const scope of sw.scopes) {
      const v = values.get(scope);
      if (v !== undefined && settingAt(v, sw.key) === sw.value) {
        const file = files.find((f) => f.scope === scope)?.file ?? scope;
        out.push({ level: 'problem', text: `${file}: "${sw.key}": ${JSON.stringify(sw.value)}: ${sw.effect}` });
      }
    }
  }
  return out;
}

function checkHarness(installer: HarnessInstaller, ctx: PathContext, project: string, env: CliIO['env']): HarnessReport {
  const adapter = getAdapter(installer.name) as Adapter;
  const home = harnessHomeDir(installer.name, ctx);
  const found = fs.existsSync(home);
  const report: HarnessReport = { harness: installer.name, title: adapter.title, found, version: null, findings: [] };
  if (!found) {
    report.findings.push({ level: 'info', text: `not found (no ${home})` });
    return report;
  }
  const f = report.findings;
  report.version = cliVersion(installer, env);
  const verified = adapter.protocol.version;
  if (installer.cli !== undefined) {
    if (report.version === null) f.push({ level: 'info', text: `version unknown (\`${installer.cli.bin} ${installer.cli.versionArgs.join(' ')}\` did not answer)` });
    else if (compareVersions(report.version, verified) < 0) {
      f.push({ level: 'problem', text: `version ${report.version} is older than ${verified}, the version whose hook protocol (failing closed included) Buckler was checked against: update it` });
    } else f.push({ level: 'ok', text: `version ${report.version} (protocol checked against ${verified})` });
  }
  const files = settingsFiles(installer, ctx, project);
  const values = new Map<Scope, Record<string, unknown>>();
  const statuses: { scope: Scope; status: ConfigStatus }[] = [];
  for (const { scope, file } of files) {
    try {
      const snap = readConfig(file, installer.codec);
      if (!snap.exists) continue;
      if (typeof snap.value === 'object' && snap.value !== null && !Array.isArray(snap.value)) values.set(scope, snap.value as Record<string, unknown>);
      // Whether the harness runs them at all (Codex's hook trust), for the scopes it keeps trust for.
      const projectRoot = scope === 'project' ? realProject(project) : null;
      const trust = scope === 'user' || scope === 'project' ? { home, projectRoot } : undefined;
      statuses.push({ scope, status: readStatus(installer, file, null, trust) });
    } catch (e) {
      f.push({ level: 'problem', text: e instanceof InstallerError ? e.message : `${file}: ${String(e)}` });
    }
  }
  const wiredIn = new Set(statuses.filter((s) => s.status.wiring === 'full').map((s) => s.scope));
  if (wiredIn.size === 0) {
    const partial = statuses.filter((s) => s.status.wiring === 'partial');
    if (partial.length === 0) f.push({ level: 'problem', text: `Buckler is not wired (run \`buckler hooks merge --harness ${installer.name}\`)` });
    for (const p of partial) {
      const missing = p.status.hooks.filter((h) => h.state !== 'wired').map((h) => h.event + (h.matcher === undefined ? '' : ` [${h.matcher}]`));
      f.push({ level: 'problem', text: `${p.status.file}: wired for only some events; missing or changed: ${missing.join(', ')} (run \`buckler hooks merge\`)` });
    }
  }
  for (const s of statuses) {
    if (s.status.wiring === 'full') f.push({ level: 'ok', text: `wired for every event in ${s.status.file}` });
    for (const t of s.status.trust) f.push({ level: 'problem', text: `${s.status.file}: ${t}` });
    for (const c of s.status.commands) for (const p of c.problems) f.push({ level: 'problem', text: `${s.status.file}: the hook command cannot start: ${p}` });
  }
  const commands = new Set(statuses.flatMap((s) => s.status.commands.filter((c) => c.problems.length === 0).map((c) => c.command)));
  for (const command of commands) f.push(selfTest(command, adapter, project, env));
  f.push(...switchFindings(installer.offSwitches, values, wiredIn, files));
  for (const v of installer.offEnv ?? []) {
    const set = env[v.name];
    if (set !== undefined && set !== '' && set !== '0' && set.toLowerCase() !== 'false') {
      f.push({ level: 'problem', text: `${v.name}=${set} is set in this environment: ${v.effect}` });
    }
  }
  return report;
}

/** The compiled-pack cache, as a hook would check it: before the self-tests, whose hooks replace a bad one. */
function checkCache(io: CliIO): Finding[] {
  const cache = systemMode() ? checkRuntimeCache(processPaths(io.env), policyOptions(io.env)) : checkRuntimeCache(resolvePaths(processPathContext(io.env)), { uid: processUid() });
  if (cache.state !== 'damaged' && cache.state !== 'unsafe') return [];
  return [{ level: 'problem', text: `compiled-pack cache ${cache.file} is not used: ${cache.reason ?? cache.state} (something other than Buckler wrote it; the next hook replaces it)` }];
}

async function checkBuckler(io: CliIO): Promise<Finding[]> {
  const out: Finding[] = [];
  const ctx = processPathContext(io.env);
  const paths = systemMode() ? processPaths(io.env) : resolvePaths(ctx);
  for (const name of ['BUCKLER_BYPASS', 'RETHUNK_ALLOW_SHELL']) {
    const v = io.env[name];
    if (v !== undefined && v !== '' && v !== '0') {
      out.push({ level: 'problem', text: `${name}=${v} is set in this environment: a harness started from here lets everything through` });
    }
  }
  try {
    // As the hooks load it: in the locked-down install, with the person's layers (policyOptions).
    const report = await loadPolicyReport(paths, systemMode() ? { ...policyOptions(io.env), examples: true } : { examples: true });
    const refusedFiles = new Set(report.sources.flatMap((s) => s.refused.map((r) => r.file)));
    const errors = report.problems.filter((p) => p.severity === 'error');
    for (const p of errors) {
      if (p.file === paths.configFile) out.push({ level: 'problem', text: `config error (the hook reads config.toml the strict way until it is fixed): ${formatProblem(p, (f) => f)}` });
      else if (!refusedFiles.has(p.file)) out.push({ level: 'problem', text: `${p.dropped ? 'not loaded' : 'pack error'}: ${formatProblem(p, (f) => f)}` });
    }
    for (const p of report.problems) if (p.severity === 'warning' && p.file === paths.configFile) out.push({ level: 'info', text: `config warning: ${formatProblem(p, (f) => f)}` });
    if (errors.length === 0) out.push({ level: 'ok', text: `${report.policy.rules.length} rules active (tier ${report.policy.tier}) from ${report.files.length} pack files` });
    // The audit log, when it is on or already exists: the same checks a hook makes before writing.
    const log = auditHealth(paths.auditLog, processUid());
    if (log.state === 'unsafe' || log.state === 'unreadable') {
      out.push({ level: report.config.audit_log !== false ? 'problem' : 'info', text: `audit log ${log.file} is not written: ${log.reason ?? log.state}` });
    } else if (report.config.audit_log !== false) {
      out.push({ level: 'ok', text: `audit log ${log.file} (${report.config.audit_log === true ? 'every decision' : 'denials, asks, bypasses, allow-once uses'}): ${log.state === 'absent' ? 'created on the first record' : 'writable'}${log.note ? ` (${log.note})` : ''}` });
    }
    out.push(...sourceFindings(report));
  } catch (e) {
    out.push({ level: 'problem', text: `the policy cannot be loaded: ${e instanceof Error ? e.message : String(e)}` });
  }
  return out;
}

/**
 * Where each pack (so each rule) comes from, what each source refused, and which packs a person
 * switched off in config.toml.
 */
export function sourceFindings(report: PolicyReport): Finding[] {
  const out: Finding[] = [];
  const active = new Map(report.policy.packs.map((p) => [p.source, p.rules]));
  for (const s of report.sources) {
    for (const p of s.packs) {
      if (report.config.packs[p.id]?.enabled === false) {
        out.push({ level: 'info', text: `pack ${p.id} (${p.origin}) is switched off in config.toml ([packs] ${p.id} = { enabled = false })` });
      } else if (s.source !== 'builtin') {
        const n = active.get(p.pack.file) ?? 0;
        const signer = p.bundle === undefined ? '' : `, signed by ${shortKey(p.bundle.key)}`;
        out.push({ level: 'ok', text: `pack ${p.id}: ${n} rule${n === 1 ? '' : 's'} active, from ${p.origin}${signer} (${p.pack.file})` });
      }
    }
    for (const r of s.refused) {
      const hint =
        r.reason === 'untrusted-key'
          ? " (its key is not, or no longer, in [bundles] trusted_keys: trust it again, or 'buckler pack remove' the bundle)"
          : r.reason === 'collision'
            ? ' (rename the pack in the bundle, or remove the other pack)'
            : '';
      out.push({ level: 'problem', text: `${s.source} refused, not loaded: ${r.file}: ${r.message}${hint}` });
    }
  }
  const builtin = report.sources.find((s) => s.source === 'builtin');
  if (builtin !== undefined) {
    const on = builtin.packs.filter((p) => report.config.packs[p.id]?.enabled !== false).map((p) => p.id);
    out.push({ level: 'info', text: `builtin packs on: ${on.join(', ') || 'none'}` });
  }
  return out;
}

/**
 * The project's own rules (.buckler/rules.d, docs/project-rules.md) as a hook there loads them:
 * trusted or not, how many loaded or ignored, and any file refused (then every action in the
 * project asks the person: a problem).
 */
async function checkProjectRules(io: CliIO, dir: string): Promise<Finding[]> {
  const root = projectOf(dir, io.env);
  if (root === undefined) return [];
  const report = systemMode()
    ? await loadPolicyReport(processPaths(io.env), { ...policyOptions(io.env), project: root, examples: false })
    : await loadPolicyReport(resolvePaths(processPathContext(io.env)), { project: root, examples: false, uid: processUid() });
  const src = report.sources.find((s) => s.source === 'project');
  if (src?.project === undefined) return [];
  const inDir = (f: string | undefined): boolean => f !== undefined && (f === src.dir || f.startsWith(src.dir + path.sep));
  const mine = report.known.filter((k) => inDir(k.source) && k.rule.id !== 'project/rules-unreadable');
  const ignored = mine.filter((k) => k.state === 'skipped_trust').length;
  const p = src.project;
  const out: Finding[] = [];
  const counts = `${mine.length - ignored} rules loaded${ignored > 0 ? `, ${ignored} ignored for want of trust` : ''}`;
  if (p.trusted) out.push({ level: 'ok', text: `project rules ${src.dir}: trusted (buckler trust); ${counts}` });
  else {
    out.push({
      level: 'info',
      text: `project rules ${src.dir}: ${p.changed ? 'changed since you trusted them, so ' : ''}untrusted: they can only tighten; ${counts} (read them, then \`buckler trust\` to count them like your own)`,
    });
  }
  for (const q of report.problems.filter((x) => x.dropped === true && inDir(x.file))) {
    out.push({ level: 'problem', text: `project rules not loaded, so every action in ${root} asks first: ${formatProblem(q, (f) => f)}` });
  }
  return out;
}

export async function doctor(io: CliIO, project: string): Promise<DoctorReport> {
  const ctx = processPathContext(io.env);
  const cache = checkCache(io);
  const harnesses = Object.values(INSTALLERS).map((i) => checkHarness(i, ctx, project, io.env));
  // Events the harnesses sent that this Buckler does not know, from the audit log (doctor-events.ts).
  const buckler = [...(await checkBuckler(io)), ...cache, ...(await checkProjectRules(io, project)), ...unknownEventFindings(processPaths(io.env).auditLog)];
  // The locked-down install (doctor-system.ts): its own section, and the harnesses it wires.
  let system: Finding[] | undefined;
  if (systemMode()) {
    const ds = await import('./doctor-system.ts');
    ds.systemHarnessFindings(harnesses);
    system = ds.systemFindings(io, processPaths(io.env).auditLog);
  }
  if (!harnesses.some((h) => h.found) && system === undefined) buckler.push({ level: 'problem', text: 'no supported harness found: nothing is guarded' });
  const ok = [...harnesses.flatMap((h) => h.findings), ...buckler, ...(system ?? [])].every((x) => x.level !== 'problem');
  return system === undefined ? { ok, harnesses, buckler } : { ok, harnesses, buckler, system };
}

const MARK = { ok: '✓', info: '·', problem: '✗' } as const;

export function renderDoctor(r: DoctorReport, color: boolean): string {
  const paint = (level: Finding['level'], s: string): string =>
    !color ? s : level === 'problem' ? `\x1b[31m${s}\x1b[0m` : level === 'ok' ? `\x1b[32m${s}\x1b[0m` : s;
  const lines: string[] = [];
  for (const h of r.harnesses) {
    lines.push(`${h.title} (${h.harness})${h.version === null ? '' : ` ${h.version}`}`);
    for (const x of h.findings) lines.push(`  ${paint(x.level, MARK[x.level])} ${x.text}`);
  }
  lines.push('Buckler');
  for (const x of r.buckler) lines.push(`  ${paint(x.level, MARK[x.level])} ${x.text}`);
  if (r.system !== undefined) {
    lines.push('Locked-down install');
    for (const x of r.system) lines.push(`  ${paint(x.level, MARK[x.level])} ${x.text}`);
  }
  const problems = [...r.harnesses.flatMap((h) => h.findings), ...r.buckler, ...(r.system ?? [])].filter((x) => x.level === 'problem').length;
  lines.push(problems === 0 ? 'ok: no problem found' : `${problems} problem${problems === 1 ? '' : 's'} found`);
  return `${lines.join('\n')}\n`;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('doctor', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('doctor', io);
  const { values } = parsed;
  const check = values.check as string | undefined;
  if (check !== undefined && values.live !== true) return usageError(io, 'doctor', '--check needs --live');
  if (values.live === true) {
    const { checkLive, startLive } = await import('./doctor-live.ts');
    return check === undefined ? startLive(io) : checkLive(check, io);
  }
  const project = path.resolve(io.cwd, (values.project as string | undefined) ?? '.');
  const report = await doctor(io, project);
  io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctor(report, io.stdoutIsTTY));
  return report.ok ? 0 : 1;
}
