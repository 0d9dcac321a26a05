/**
 * `buckler doctor` in the locked-down install (docs/install.md): names the mode, the harnesses it
 * protects (wired in a root-owned system settings file) and those it does not, and what voids or
 * weakens it: a passwordless sudo for the person, a Buckler file others than root can write, and
 * the person's own audit log (theirs to rewrite; the system log keeps the blocks).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SYSTEM_DIRS, SYSTEM_SETTINGS, codeFile, type InstallableHarness } from '../paths.ts';
import type { Finding, HarnessReport } from './doctor-finding.ts';
import type { CliIO } from './io.ts';
import { processUid } from './process-paths.ts';

/** Why `file` (or a directory above it) could be replaced by someone other than root, or null. */
export function rootOwnedProblem(file: string): string | null {
  let p = file;
  for (;;) {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (st === undefined) return `${p} does not exist`;
    if (st.uid !== 0) return `${p} belongs to uid ${st.uid}, not root`;
    if ((st.mode & 0o022) !== 0) return `${p} can be written by others than root (mode ${(st.mode & 0o777).toString(8)})`;
    if (p === '/') return null;
    p = path.dirname(p);
  }
}

/** Whether harness `h`'s system settings file wires the locked-down install's Buckler. */
export function systemWired(h: InstallableHarness): { file: string | null; wired: boolean; problem: string | null } {
  const file = SYSTEM_SETTINGS[h];
  if (file === null) return { file, wired: false, problem: null };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { file, wired: false, problem: null };
  }
  return { file, wired: text.includes(`${SYSTEM_DIRS.code}/`), problem: rootOwnedProblem(file) };
}

/** Whether the person can run `sudo` without a password (which voids the mode). */
function passwordlessSudo(env: CliIO['env']): boolean | null {
  const r = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5000, env: { PATH: '/usr/bin:/bin', HOME: env['HOME'] ?? '/' } });
  if (r.error !== undefined) return null;
  return r.status === 0;
}

export function systemFindings(io: CliIO, auditLog: string): Finding[] {
  const out: Finding[] = [];
  const code = path.dirname(path.dirname(codeFile()));
  out.push({ level: 'ok', text: `locked-down install: code ${code}, policy ${SYSTEM_DIRS.config}/config.toml (it decides; your config.toml and rules.d can only tighten), approvals in ${SYSTEM_DIRS.state}` });
  const protectedBy: string[] = [];
  const not: string[] = [];
  for (const h of Object.keys(SYSTEM_SETTINGS) as InstallableHarness[]) {
    const w = systemWired(h);
    if (w.file === null) not.push(h);
    else if (!w.wired) out.push({ level: 'problem', text: `${h}: its system settings file ${w.file} does not wire Buckler (rerun setup.sh install --system)` });
    else if (w.problem !== null) out.push({ level: 'problem', text: `${h}: ${w.file} is not the administrator's alone: ${w.problem}` });
    else protectedBy.push(h);
  }
  if (protectedBy.length > 0) out.push({ level: 'ok', text: `protected by the locked-down install (root-owned system settings): ${protectedBy.join(', ')}` });
  if (not.length > 0) out.push({ level: 'info', text: `not protected by the locked-down install (no system settings file Buckler can rely on): ${not.join(', ')}; their user and project settings can unwire Buckler` });
  for (const f of [codeFile(), process.execPath, path.join(SYSTEM_DIRS.config, 'config.toml'), SYSTEM_DIRS.state]) {
    const problem = rootOwnedProblem(f);
    if (problem !== null) out.push({ level: 'problem', text: `${f}: ${problem}; whoever can write it can change every decision` });
  }
  if (processUid() !== 0) {
    const sudo = passwordlessSudo(io.env);
    if (sudo === true) out.push({ level: 'problem', text: 'this user can run sudo without a password: anything the agent runs can become root, which voids the locked-down install' });
    else if (sudo === false) out.push({ level: 'ok', text: 'sudo asks this user for a password (or is not allowed)' });
    else out.push({ level: 'ok', text: 'no sudo here' });
  }
  out.push({ level: 'info', text: `your audit log ${auditLog} is yours, so you (and your agent) can rewrite it; denies, asks and grants used also go to the system log (logger, tag buckler)` });
  out.push({ level: 'info', text: 'BUCKLER_* and XDG_* variables and the operator bypass are ignored in this mode; the resident decision service is off' });
  return out;
}

/**
 * The harness reports, corrected for the locked-down install: a harness wired in its system
 * settings file is not "unwired" because its user settings are empty.
 */
export function systemHarnessFindings(reports: HarnessReport[]): void {
  for (const r of reports) {
    const w = systemWired(r.harness as InstallableHarness);
    if (!w.wired) continue;
    r.findings = r.findings.filter((f) => !(f.level === 'problem' && /not wired/.test(f.text)));
    r.findings.unshift({ level: 'ok', text: `wired in the system settings file ${w.file} (locked-down install)` });
  }
}
