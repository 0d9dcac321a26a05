/**
 * `buckler trust`: the person's say-so over a repository's own rules (docs/project-rules.md).
 *
 *   buckler trust [--project DIR]            trust `.buckler/rules.d` as it is now (changes state)
 *   buckler trust --status [--project DIR]   trusted, untrusted or changed since trusted (read-only)
 *   buckler trust --revoke [--project DIR]   forget the trust (changes state)
 *   buckler trust --list                     every trusted project, and whether it still matches
 *
 * Trusting records the digest of the rule files in the trust store (`trust.json` in the state
 * directory, 0600, written atomically); granting and revoking are recorded in the audit log
 * (`trust` field, docs/audit-log.md) unless `audit_log = false`. Any change to a file (added, removed, edited) makes the
 * rules untrusted again: they can then only tighten. Only a person should run it: agent-tamper
 * denies `buckler trust` from an agent's shell, and writes to the state directory.
 *
 * Exit codes: 0 done (--status: trusted); 1 not done (no rules, rules with errors, the store
 * could not be written; --status: not trusted); 2 usage.
 */
import { printable } from './printable.ts';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic.ts';
import { formatProblem } from '../packs/problems.ts';
import { projectDigest, readProjectRules, readTrustStore, type TrustStore } from '../packs/project-load.ts';
import { projectRulesDir, trustStoreFile } from '../packs/project-rules.ts';
import { loadPolicyReport, type PolicyReport } from '../packs/runtime.ts';
import { allowOutput } from '../core/contract.ts';
import type { TrustChange } from '../audit/record.ts';
import { auditPersonAction } from './audit-person.ts';
import { parseCommand, usageError } from './args.ts';
import { showHelp } from './show-help.ts';
import type { CliIO } from './io.ts';
import { systemTrustRefusal } from './allow-system.ts';
import { processPaths, processUid, systemMode } from './process-paths.ts';
import { projectOf } from './project.ts';

/** Granting or revoking trust, in the audit log (after the store was written). */
function audit(io: CliIO, project: string, trust: TrustChange): void {
  auditPersonAction(io, { input: null, output: allowOutput(), harness: 'cli', project, trust });
}

function writeStore(file: string, store: TrustStore): void {
  // The locked-down install: root writes it, the person's hooks read it (allow-system.ts).
  const shared = systemMode();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: shared ? 0o755 : 0o700 });
  writeFileAtomic(file, `${JSON.stringify(store, null, 2)}\n`, { mode: shared ? 0o644 : 0o600 });
}

/** The project's rules as the hook would load them now: which are in force, which ignored. */
function projectRules(report: PolicyReport, dir: string): { line: string; ignored: boolean }[] {
  const inDir = (f: string | undefined): boolean => f !== undefined && (f === dir || f.startsWith(dir + path.sep));
  return report.known
    .filter((k) => inDir(k.source) && k.rule.id !== 'project/rules-unreadable')
    .map((k) => ({
      line: `${k.rule.action.padEnd(5)}  ${k.rule.id}  (${path.basename(k.source ?? '')})${k.state === 'skipped_trust' ? '  ignored until trusted' : k.state !== 'active' ? `  ${k.state}` : ''}`,
      ignored: k.state === 'skipped_trust',
    }));
}

/** `--list`: every trusted project, and whether its rules still match. */
function listTrusted(store: TrustStore, json: boolean, io: CliIO): number {
  const rows = Object.entries(store.projects).map(([root, e]) => {
    const read = readProjectRules(root);
    const state = !read.exists ? 'rules gone' : projectDigest(read) === e.digest ? 'trusted' : 'changed since trusted (untrusted)';
    return { project: root, state, trusted_at: e.trusted_at, files: e.files };
  });
  if (json) io.out(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  else if (rows.length === 0) io.err('buckler trust: no project is trusted\n');
  else io.out(rows.map((r) => `${printable(r.project)}  ${r.state}  since ${printable(r.trusted_at)}  (${printable(r.files.join(', '))})\n`).join(''));
  return 0;
}

/** `--revoke`: forget the trust in `root`'s rules. */
function revokeTrust(file: string, store: TrustStore, root: string, io: CliIO): number {
  const entry = store.projects[root];
  if (entry === undefined) {
    io.out(`${printable(root)}: not trusted; nothing to revoke\n`);
    return 0;
  }
  const next: TrustStore = { version: 1, projects: { ...store.projects } };
  delete next.projects[root];
  try {
    writeStore(file, next);
  } catch (e) {
    io.err(`buckler trust: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 1;
  }
  audit(io, root, { action: 'revoke', digest: entry.digest, files: entry.files });
  io.out(`${printable(root)}: trust revoked; its project rules can only tighten again\n`);
  return 0;
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('trust', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('trust', io);
  const values = parsed.values;
  const usage = (msg: string): number => usageError(io, 'trust', msg);
  const modes = [values.status, values.revoke, values.list].filter(Boolean).length;
  if (modes > 1) return usage('give only one of --status, --revoke, --list');
  if (values.list && values.project !== undefined) return usage('--list takes no --project');
  if (values.json && !values.status && !values.list) return usage('--json goes with --status or --list');
  if (systemMode() && !values.status && !values.list) {
    const refusal = systemTrustRefusal(io.env);
    if (refusal !== null) {
      io.err(`buckler trust: ${refusal}\n`);
      return 1;
    }
  }
  const paths = processPaths(io.env);
  const file = trustStoreFile(paths.stateHome);
  const { store, problem } = readTrustStore(file);
  if (problem !== undefined) io.err(`buckler trust: warning: ${problem}\n`);

  if (values.list) return listTrusted(store, values.json === true, io);

  const given = values.project as string | undefined;
  if (given === '') return usage('--project needs a directory');
  const root = given !== undefined ? path.resolve(io.cwd, given) : projectOf(io.cwd, io.env);
  if (root === undefined) {
    io.err(`buckler trust: ${io.cwd} is not in a project (the home directory and / are not projects); give --project DIR\n`);
    return 1;
  }
  const dir = projectRulesDir(root);
  const entry = store.projects[root];

  if (values.revoke) return revokeTrust(file, store, root, io);

  const report = await loadPolicyReport(paths, { project: root, examples: true, uid: processUid() });
  const src = report.sources.find((s) => s.source === 'project');
  const state = src?.project;
  if (state === undefined) {
    if (values.status && values.json) io.out(`${JSON.stringify({ project: root, rules_dir: dir, rules: false, trusted: false })}\n`);
    else io.err(`buckler trust: ${printable(root)} has no project rules (${printable(dir)})${entry !== undefined ? '; it was trusted before: --revoke forgets it' : ''}\n`);
    return 1;
  }
  const rules = projectRules(report, dir);
  const errors = report.problems.filter((p) => p.severity === 'error' && (p.file === dir || p.file.startsWith(dir + path.sep)));

  if (values.status) {
    const word = state.trusted ? 'trusted' : state.changed ? 'changed since trusted: untrusted (can only tighten)' : 'untrusted (can only tighten)';
    if (values.json) {
      io.out(
        `${JSON.stringify({ project: root, rules_dir: dir, rules: true, trusted: state.trusted, changed: state.changed, digest: state.digest, trusted_at: entry?.trusted_at ?? null, files: src!.files.map((f) => path.basename(f)), errors: errors.length })}\n`,
      );
    } else {
      io.out(`${printable(root)}: project rules ${word}\n`);
      if (entry !== undefined) io.out(`  trusted at ${printable(entry.trusted_at)}: ${printable(entry.files.join(', '))}\n`);
      for (const r of rules) io.out(`  ${printable(r.line)}\n`);
      for (const p of errors) io.out(`  error: ${printable(formatProblem(p))}\n`);
    }
    return state.trusted ? 0 : 1;
  }

  // Trust: only a set that loads cleanly, exactly as read for this report.
  if (errors.length > 0) {
    for (const p of errors) io.err(`error: ${printable(formatProblem(p))}\n`);
    io.err(`buckler trust: not trusted: fix the ${errors.length === 1 ? 'error' : `${errors.length} errors`} in ${printable(dir)} first ('buckler validate' in the project lists them)\n`);
    return 1;
  }
  const files = src!.files.map((f) => path.basename(f));
  if (state.trusted) {
    io.out(`${printable(root)}: project rules already trusted as they are (${printable(files.join(', '))})\n`);
    return 0;
  }
  const next: TrustStore = { version: 1, projects: { ...store.projects, [root]: { digest: state.digest, files, trusted_at: new Date().toISOString() } } };
  try {
    writeStore(file, next);
  } catch (e) {
    io.err(`buckler trust: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`);
    return 1;
  }
  audit(io, root, { action: 'grant', digest: state.digest, files });
  io.out(`${printable(root)}: trusted ${files.length} project rules file${files.length === 1 ? '' : 's'} (${printable(files.join(', '))}); they now count like your own rules:\n`);
  for (const r of rules) io.out(`  ${printable(r.line.replace('  ignored until trusted', ''))}\n`);
  io.out(`A change to any of them makes them untrusted again. 'buckler trust --revoke' undoes this.\n`);
  return 0;
}
