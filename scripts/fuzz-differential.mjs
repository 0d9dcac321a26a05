#!/usr/bin/env node
// The differential fuzz against real bash: command lines that hide a denied command
// (`git push --force origin main`, `gh repo delete x --yes`, … — every `match` example of the
// packs' deny rules plus the spec's list) behind random wrappers and spellings run through real
// bash with fake `git`/`gh` that log their argv; Buckler (in process) decides each line. A miss
// is a line where bash ran a denied action while Buckler allowed the line.
// Generator: src/cli/differential-gen.testing.ts; sandbox and judge: src/cli/differential-bash.testing.ts.
//
// Usage: node scripts/fuzz-differential.mjs [--count 10000] [--seed 1] [--workers 2] [--cli 200]
//                                           [--probe] [--json FILE] [--quiet]
//   --count N    random cases (default 10000)
//   --probe      also run the single-feature probe (every layer alone over every target)
//   --cli N      also decide N sampled lines through the built CLI (dist/buckler.cjs evaluate)
//                and count disagreements with the in-process decision
//   --json FILE  write every miss and false positive, with its features, to FILE
// Exit 1 when a miss is in no class of MISS_CLASSES or in a class nobody is fixing. Bounded: at most 2 workers, every
// line under a timeout (8 s, watch 1.5 s), no network (user namespaces where available).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export async function loadFuzzModules() {
  const { build } = await import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-fuzz-bundle-'));
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(
    entry,
    ['differential-gen.testing.ts', 'differential-bash.testing.ts']
      .map((f) => `export * from ${JSON.stringify(path.join(ROOT, 'src/cli', f))};`)
      .concat(`export { analyzeCommandLine, ShellParseError } from ${JSON.stringify(path.join(ROOT, 'src/shell/index.ts'))};`)
      .join('\n'),
  );
  const out = path.join(dir, 'fuzz.mjs');
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
    // Packages the sources require lazily (js-yaml) resolve from the project, not the temp dir.
    banner: { js: `import { createRequire as __cr } from 'node:module'; const require = __cr(${JSON.stringify(path.join(ROOT, 'package.json'))});` },
  });
  const mod = await import(out);
  fs.rmSync(dir, { recursive: true, force: true });
  return mod;
}

const argValue = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};

/** Runs `cases` through bash in `workers` sandboxes side by side, batches of `batch` lines. */
export async function runDifferential(m, cases, { workers = 2, batch = 250, decide, progress = () => {} } = {}) {
  const ns = m.namespacesAvailable();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-fuzz-'));
  const boxes = Array.from({ length: Math.min(2, Math.max(1, workers)) }, (_, i) => {
    const dir = path.join(base, `s${i}`);
    fs.mkdirSync(dir);
    return m.createSandbox(dir, ns);
  });
  const judged = new Array(cases.length);
  let next = 0;
  let done = 0;
  try {
    await Promise.all(
      boxes.map(async (sb) => {
        while (next < cases.length) {
          const from = next;
          next = Math.min(cases.length, next + batch);
          const slice = cases.slice(from, next);
          const results = await m.runLines(sb, slice.map((c) => c.line));
          slice.forEach((c, i) => (judged[from + i] = m.judge(c, results[i], decide)));
          done += slice.length;
          progress(done);
        }
      }),
    );
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  return { judged, ns };
}

/** Decides `lines` through the built CLI (one `buckler evaluate` per line) in an isolated config. */
export function cliDecisions(lines) {
  const bundle = path.join(ROOT, 'dist', 'buckler.cjs');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-fuzz-cli-'));
  const env = { PATH: process.env.PATH, HOME: home, BUCKLER_CONFIG_HOME: path.join(home, 'c'), BUCKLER_STATE_HOME: path.join(home, 's'), BUCKLER_DATA_HOME: path.join(home, 'd') };
  try {
    return lines.map(({ line, tier }) => {
      const input = JSON.stringify({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: line } });
      const r = spawnSync(process.execPath, [bundle, 'evaluate', '--tier', tier], { input, env, encoding: 'utf8', timeout: 30_000 });
      try {
        return JSON.parse(r.stdout).decision;
      } catch {
        return `error: ${(r.stderr || '').split('\n')[0]}`;
      }
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export function report(m, title, s, out = console.log) {
  out(`${title}: ${s.total} lines — caught ${s.counts.caught}, asked ${s.counts.asked}, MISSED ${s.counts.miss} (in no class: ${s.unexpected.length}; in classes nobody fixes: ${s.open.length}), bash ran nothing denied: ${s.counts.quiet + s.counts['false-positive']} (of which Buckler denied, false positives: ${s.counts['false-positive']})`);
  const fixedBy = Object.fromEntries(m.MISS_CLASSES.map((k) => [k.name, k.fixedBy]));
  const byClass = Object.entries(s.missClasses).sort((a, b) => b[1] - a[1]);
  for (const [k, n] of byClass) out(`  ${String(n).padStart(5)}  ${k}: ${k === '(none)' ? 'NOT CLASSIFIED' : fixedBy[k] === null ? 'OPEN, nobody is fixing it' : fixedBy[k]}`);
}

async function main() {
  const m = await loadFuzzModules();
  const refusal = m.bashRefusal(m.namespacesAvailable());
  if (refusal !== null) {
    console.log(`fuzz-differential: ${refusal}; nothing to compare with`);
    process.exitCode = 1;
    return;
  }
  const count = Number(argValue('--count', '10000'));
  const seed = Number(argValue('--seed', '1'));
  const workers = Number(argValue('--workers', '2'));
  const cliN = Number(argValue('--cli', '0'));
  const jsonOut = argValue('--json', null);
  const quiet = process.argv.includes('--quiet');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-fuzz-home-'));
  const decide = await m.policyDecider(path.join(ROOT, 'packs'), home);
  const ns = m.namespacesAvailable();
  const targets = m.loadTargets(path.join(ROOT, 'packs'));
  console.log(`targets: ${targets.length} denied commands (${targets.filter((t) => t.argv).length} simple); namespaces: ${ns ? 'yes (no network, fakes over real paths)' : 'no (PATH fakes only)'}`);
  const started = Date.now();
  const tick = (total) => (done) => {
    if (!quiet && (done % 1000 < 250 || done === total)) process.stderr.write(`\r  ${done}/${total} lines, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  };
  const out = { seed, count, misses: [], falsePositives: [] };
  if (process.argv.includes('--probe')) {
    const probe = m.probeCases(targets, seed, { ns });
    const { judged } = await runDifferential(m, probe, { workers, decide, progress: tick(probe.length) });
    if (!quiet) process.stderr.write('\n');
    const s = m.summarize(judged);
    report(m, 'single-feature probe', s);
    out.probe = s.misses.map((j) => ({ features: j.case.features, line: j.case.line, decision: j.decision, ran: j.ran }));
  }
  const cases = m.generateCases(targets, count, seed, { ns });
  const { judged } = await runDifferential(m, cases, { workers, decide, progress: tick(cases.length) });
  if (!quiet) process.stderr.write('\n');
  const s = m.summarize(judged);
  report(m, `random cases (seed ${seed})`, s);
  console.log(`  wall time ${((Date.now() - started) / 1000).toFixed(1)} s, ${workers} workers`);
  for (const j of [...s.unexpected, ...s.open].slice(0, 20)) console.log(`  MISS [${j.case.features.join(' ')}] ${JSON.stringify(j.case.line)} → ${j.decision}; bash ran ${j.ran.join(' | ')}`);
  out.misses = s.misses.map((j) => ({ features: j.case.features, class: m.expectedMiss(j)?.name ?? null, line: j.case.line, tier: j.case.tier, decision: j.decision, ran: j.ran }));
  out.falsePositives = s.falsePositives.map((j) => ({ features: j.case.features, line: j.case.line, rc: j.rc }));
  out.counts = s.counts;
  if (cliN > 0) {
    const stride = Math.max(1, Math.floor(cases.length / cliN));
    const sample = cases.filter((_, i) => i % stride === 0).slice(0, cliN);
    const viaCli = cliDecisions(sample);
    const differ = sample.filter((c, i) => viaCli[i] !== decide(c.line, c.tier));
    console.log(`built CLI sample: ${sample.length} lines through dist/buckler.cjs evaluate, ${differ.length} decisions differ from in process`);
    for (const c of differ.slice(0, 10)) console.log(`  DIFFER ${JSON.stringify(c.line)}`);
    out.cli = { sample: sample.length, differ: differ.length };
    if (differ.length > 0) process.exitCode = 1;
  }
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(out, null, 1) + '\n');
  fs.rmSync(home, { recursive: true, force: true });
  if (s.unexpected.length > 0 || s.open.length > 0) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) await main();
