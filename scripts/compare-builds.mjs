#!/usr/bin/env node
// A differential run of two builds of Buckler (for a change that must not change behaviour: a
// refactor, a build change). Both builds get the same inputs in identical, fresh sandboxes, and
// everything they answer is compared byte for byte:
//
// - `evaluate` (the PolicyOutput: the decision and everything with it) and `explain --json`
//   for every shell line of the shared corpus (shell-snippets.json), every core fixture
//   (src/core/fixtures/inputs and invalid) and N generated fuzz lines (the generator of
//   src/cli/differential-gen.testing.ts, deterministic from --seed);
// - the hook (`buckler.cjs --driver NAME`, and `--driver NAME --event EVENT`) for every adapter
//   fixture (src/adapters/*/fixtures/*.input.json): stdout (the native reply), stderr, exit code
//   and the audit records it appended, less their volatile fields (`time`), once with the default
//   config and once with `audit_log = true`. (evaluate runs with `audit_log = false`: its record
//   is the hook's, and an fsync per denied line would only slow the run.)
//
// Speed: evaluate and explain run in one long-lived child per build that require()s that build's
// own command bundles (dist/cli-evaluate.cjs, dist/cli-explain.cjs: each exports the command's
// `run(args, io)`) and decides line after line, so a run compares the built code, not the sources.
// A build whose bundles do not export `run` is driven one process per input instead (slow: lower
// --fuzz). The hook runs one process per fixture, as a harness runs it.
//
// Usage: node scripts/compare-builds.mjs OLD NEW [--fuzz 10000] [--seed 1] [--json FILE]
//                                        [--corpus DIR] [--show 5] [--quiet]
//   OLD, NEW      a build's dist/ directory (or the package root holding dist/); its package root
//                 (the directory above dist/) must hold packs/ (the builtin packs). js-yaml and
//                 smol-toml resolve from its node_modules, else from this checkout's.
//   --fuzz N      generated lines (default 10000)
//   --corpus DIR  the shared corpus (default ../shared/corpus from the repository root; skipped,
//                 with the reason printed, when absent)
//   --show N      differences printed in full (default 5)
//   --json FILE   write the counts and every difference to FILE
// Exit 0 when everything compared is identical, 1 on any difference, 2 on a usage error.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VOLATILE = /^(time|timestamp|ts|duration|duration_ms|elapsed|elapsed_ms|ms|pid|ppid)$/;

// ---- worker: one per build, decides lines with that build's bundles ----------------------------

async function worker(root) {
  const dist = path.join(root, 'dist');
  const load = (cmd) => {
    try {
      const mod = createRequire(path.join(dist, 'x.cjs'))(path.join(dist, `cli-${cmd}.cjs`));
      return typeof mod.run === 'function' ? mod.run : null;
    } catch {
      return null;
    }
  };
  const runs = { evaluate: load('evaluate'), explain: load('explain') };
  const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
  say({ ready: true, inProcess: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v !== null])) });
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line === '') continue;
    const req = JSON.parse(line);
    const run = runs[req.cmd];
    if (run === null) {
      const r = spawnSync(process.execPath, [path.join(dist, 'buckler.cjs'), req.cmd, ...req.args], { input: req.stdin, encoding: 'utf8', timeout: 60_000 });
      say({ id: req.id, code: r.status, out: r.stdout, err: r.stderr });
      continue;
    }
    let out = '';
    let err = '';
    const io = {
      env: process.env,
      cwd: process.cwd(),
      stdoutIsTTY: false,
      stdinIsTTY: false,
      readStdin: () => Buffer.from(req.stdin, 'utf8'),
      out: (t) => (out += t),
      err: (t) => (err += t),
    };
    let code;
    try {
      code = await run(req.args, io);
    } catch (e) {
      code = `threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    say({ id: req.id, code, out, err });
  }
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3]);
  process.exit(0);
}

// ---- the sandboxes -----------------------------------------------------------------------------

function usage(msg) {
  process.stderr.write(`compare-builds: ${msg}\nUsage: node scripts/compare-builds.mjs OLD_DIST NEW_DIST [--fuzz 10000] [--seed 1] [--json FILE] [--corpus DIR] [--show 5]\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { builds: [], fuzz: 10000, seed: 1, json: null, corpus: path.resolve(ROOT, '..', 'shared', 'corpus'), show: 5, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    const num = () => {
      const n = Number(val());
      if (!Number.isInteger(n) || n < 0) usage(`${a} needs a whole number`);
      return n;
    };
    if (a === '--fuzz') o.fuzz = num();
    else if (a === '--seed') o.seed = num();
    else if (a === '--show') o.show = num();
    else if (a === '--json') o.json = val();
    else if (a === '--corpus') o.corpus = path.resolve(val());
    else if (a === '--quiet') o.quiet = true;
    else if (a === '-h' || a === '--help') usage('compares two builds');
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else o.builds.push(a);
  }
  if (o.builds.length !== 2) usage('give two builds: OLD_DIST NEW_DIST');
  return o;
}

/** A build's package root from its dist/ (or the root itself). */
function buildRoot(arg) {
  const p = path.resolve(arg);
  const root = fs.existsSync(path.join(p, 'buckler.cjs')) ? path.dirname(p) : p;
  if (!fs.existsSync(path.join(root, 'dist', 'buckler.cjs'))) usage(`${arg}: no buckler.cjs (give a built dist/ directory)`);
  if (!fs.existsSync(path.join(root, 'packs'))) usage(`${arg}: no packs/ beside it (${path.join(root, 'packs')}); a build's package root holds dist/ and packs/`);
  return root;
}

/**
 * A fresh sandbox: a temporary home with Buckler's config, state and data homes in it, and a
 * working directory. The environment is built from nothing (no variable of this process leaks
 * in: no BUCKLER_BYPASS, no harness variables, never the real home).
 */
function sandbox(label, root, config) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `buckler-compare-${label}-`));
  const dirs = { home: path.join(base, 'home'), config: path.join(base, 'config'), state: path.join(base, 'state'), data: path.join(base, 'data'), work: path.join(base, 'work') };
  for (const d of Object.values(dirs)) fs.mkdirSync(d);
  if (config) fs.writeFileSync(path.join(dirs.config, 'config.toml'), config);
  const nodePath = [path.join(root, 'node_modules'), path.join(ROOT, 'node_modules')].filter((d) => fs.existsSync(d)).join(path.delimiter);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dirs.home,
    BUCKLER_CONFIG_HOME: dirs.config,
    BUCKLER_STATE_HOME: dirs.state,
    BUCKLER_DATA_HOME: dirs.data,
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    NODE_PATH: nodePath,
  };
  return { base, dirs, env, root, auditLog: path.join(dirs.state, 'audit.jsonl') };
}

/** Paths that differ between the two sandboxes only by where they are: one placeholder each. */
function normaliser(box) {
  const pairs = [
    [box.base, '<SANDBOX>'],
    [box.root, '<BUILD>'],
    [fs.realpathSync(box.base), '<SANDBOX>'],
  ];
  return (text) => {
    if (typeof text !== 'string') return text;
    for (const [from, to] of pairs) text = text.split(from).join(to);
    return text;
  };
}

// ---- the long-lived deciders -------------------------------------------------------------------

function startWorker(box) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--worker', box.root], { cwd: box.dirs.work, env: box.env, stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map();
  let ready;
  const readyP = new Promise((r) => (ready = r));
  const rl = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  rl.on('line', (line) => {
    const msg = JSON.parse(line);
    if (msg.ready) return ready(msg.inProcess);
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    p(msg);
  });
  let nextId = 0;
  const exited = new Promise((r) => child.on('exit', r));
  return {
    ready: readyP,
    ask(cmd, args, stdin) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, cmd, args, stdin })}\n`);
      });
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

// ---- the inputs ---------------------------------------------------------------------------------

async function fuzzLines(count, seed) {
  const { build } = await import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-compare-gen-'));
  try {
    const out = path.join(dir, 'gen.mjs');
    await build({ entryPoints: [path.join(ROOT, 'src/cli/differential-gen.testing.ts')], outfile: out, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
    const m = await import(out);
    const targets = m.loadTargets(path.join(ROOT, 'packs'));
    return m.generateCases(targets, count, seed, { ns: false }).map((c) => ({ line: c.line, tier: c.tier }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function corpusLines(dir) {
  const file = path.join(dir, 'shell-snippets.json');
  if (!fs.existsSync(file)) return { lines: [], skipped: `no ${file} (give --corpus DIR)` };
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  const lines = [];
  for (const [key, list] of Object.entries(data)) if (Array.isArray(list)) for (const s of list) if (typeof s === 'string') lines.push({ line: s, from: key });
  return { lines, skipped: null };
}

function readJsonFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => ({ file: path.relative(ROOT, path.join(dir, f)), text: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** The shell-line items: one PolicyInput each, run through `evaluate` and `explain --json`. */
function lineInput(line, cwdMarker) {
  return JSON.stringify({ policy_io_version: '1', trigger: 'pre_shell_exec', harness: 'cli', shell: { command: line, cwd: cwdMarker } });
}

// ---- comparing ----------------------------------------------------------------------------------

class Tally {
  constructor(show) {
    this.show = show;
    this.cats = new Map();
    this.diffs = [];
  }
  add(category, what, a, b, extra = {}) {
    const c = this.cats.get(category) ?? { compared: 0, identical: 0, different: 0, decisions: {} };
    this.cats.set(category, c);
    c.compared++;
    const same = JSON.stringify(a) === JSON.stringify(b);
    if (same) c.identical++;
    else {
      c.different++;
      this.diffs.push({ category, what, old: a, new: b, ...extra });
    }
    if (a && typeof a.decision === 'string') c.decisions[a.decision] = (c.decisions[a.decision] ?? 0) + 1;
    if (a && Array.isArray(a.audit)) {
      c.decisions[`exit ${a.code}`] = (c.decisions[`exit ${a.code}`] ?? 0) + 1;
      c.decisions['audit records'] = (c.decisions['audit records'] ?? 0) + a.audit.length;
    }
    return same;
  }
}

/** The decision of an evaluate reply (for the summary), or how it failed. */
function decisionOf(r) {
  try {
    return JSON.parse(r.out).decision ?? 'no decision';
  } catch {
    return `exit ${r.code}`;
  }
}

function stripVolatile(v) {
  if (Array.isArray(v)) return v.map(stripVolatile);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !VOLATILE.test(k)).map(([k, x]) => [k, stripVolatile(x)]));
}

/** Runs the line items through both workers (a window of requests in flight) and tallies. */
async function compareLines(tally, workers, norms, items, progress) {
  const WINDOW = 64;
  let next = 0;
  let done = 0;
  const one = async (it) => {
    const ask = (w, n) => w.ask(it.cmd, it.args, it.stdin).then((r) => ({ code: r.code, out: n(r.out), err: n(r.err) }));
    const [a, b] = await Promise.all([ask(workers[0], norms[0]), ask(workers[1], norms[1])]);
    const tag = it.cmd === 'evaluate' ? { decision: decisionOf(a) } : {};
    tally.add(it.category, it.what, { ...a, ...tag }, { ...b, ...(it.cmd === 'evaluate' ? { decision: decisionOf(b) } : {}) });
    progress(++done, items.length);
  };
  await Promise.all(
    Array.from({ length: WINDOW }, async () => {
      while (next < items.length) await one(items[next++]);
    }),
  );
}

/** One hook run as a harness makes it: a fresh process, the event on stdin; what it appended to the audit log. */
function runHook(box, args, stdin) {
  const before = fs.existsSync(box.auditLog) ? fs.statSync(box.auditLog).size : 0;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(box.root, 'dist', 'buckler.cjs'), ...args], { cwd: box.dirs.work, env: box.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      let records = [];
      if (fs.existsSync(box.auditLog)) {
        const text = fs.readFileSync(box.auditLog).subarray(before).toString('utf8');
        records = text
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => {
            try {
              return stripVolatile(JSON.parse(l));
            } catch {
              return `unparsable: ${l}`;
            }
          });
      }
      resolve({ code, signal, stdout, stderr, audit: records });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

function adapterFixtures() {
  const dir = path.join(ROOT, 'src', 'adapters');
  const out = [];
  for (const harness of fs.readdirSync(dir).sort()) {
    const fx = path.join(dir, harness, 'fixtures');
    if (!fs.existsSync(fx)) continue;
    for (const f of readJsonFiles(fx, '.input.json')) out.push({ harness, event: path.basename(f.file, '.input.json').split('-')[0], ...f });
  }
  return out;
}

/** Each top-level field that differs, with the text around where the two first part. */
function divergence(a, b) {
  const out = [];
  for (const k of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
    const x = typeof a?.[k] === 'string' ? a[k] : JSON.stringify(a?.[k]);
    const y = typeof b?.[k] === 'string' ? b[k] : JSON.stringify(b?.[k]);
    if (x === y) continue;
    let i = 0;
    while (i < Math.min(x?.length ?? 0, y?.length ?? 0) && x[i] === y[i]) i++;
    const at = (s) => (s === undefined ? 'absent' : JSON.stringify(s.slice(Math.max(0, i - 60), i + 60)));
    out.push(`${k} differs at character ${i}: old …${at(x)}… new …${at(y)}…`);
  }
  return out;
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const roots = o.builds.map(buildRoot);
  const log = (s) => console.log(s);
  const progress = (label) => (done, total) => {
    if (o.quiet) return;
    const secs = `${((Date.now() - started) / 1000).toFixed(0)} s`;
    if (process.stderr.isTTY && (done % 500 === 0 || done === total)) process.stderr.write(`\r  ${label}: ${done}/${total}, ${secs}${done === total ? '\n' : ''}`);
    else if (!process.stderr.isTTY && done % 5000 === 0) process.stderr.write(`  ${label}: ${done}/${total}, ${secs}\n`);
  };
  log(`compare-builds: old ${roots[0]}\n                new ${roots[1]}`);
  const tally = new Tally(o.show);
  const skipped = [];

  // 1. Shell lines and PolicyInputs through evaluate and explain --json, in one child per build.
  // audit_log = false: the audit is compared through the hook (below); here it would only cost
  // an fsync per denied line.
  const boxes = roots.map((r, i) => sandbox(i === 0 ? 'old' : 'new', r, '[core]\naudit_log = false\n'));
  const norms = boxes.map(normaliser);
  const workers = boxes.map(startWorker);
  const modes = await Promise.all(workers.map((w) => w.ready));
  log(`deciders: ${modes.map((m, i) => `${i === 0 ? 'old' : 'new'} ${Object.entries(m).map(([k, v]) => `${k} ${v ? 'in process' : 'one process per input'}`).join(', ')}`).join('; ')}`);
  // The same working directory text for both (it is data in the input; the sandboxes differ).
  const cwd = '/tmp/buckler-compare-project';
  const items = [];
  const pushLine = (category, what, line, tier) => {
    const stdin = lineInput(line, cwd);
    const tierArgs = tier ? ['--tier', tier] : [];
    items.push({ category: `${category}: evaluate`, what, cmd: 'evaluate', args: tierArgs, stdin });
    items.push({ category: `${category}: explain --json`, what, cmd: 'explain', args: ['--json', ...tierArgs, '-i', '-'], stdin });
  };
  const corpus = corpusLines(o.corpus);
  if (corpus.skipped) {
    skipped.push(`shared corpus: ${corpus.skipped}`);
    log(`shared corpus: skipped, ${corpus.skipped}`);
  }
  corpus.lines.forEach((c, i) => pushLine('corpus', { from: c.from, index: i, line: c.line }, c.line, null));
  const core = path.join(ROOT, 'src', 'core', 'fixtures');
  for (const f of [...readJsonFiles(path.join(core, 'inputs'), '.json'), ...readJsonFiles(path.join(core, 'invalid'), '.json')]) {
    items.push({ category: 'core fixtures: evaluate', what: { file: f.file }, cmd: 'evaluate', args: [], stdin: f.text });
    items.push({ category: 'core fixtures: explain --json', what: { file: f.file }, cmd: 'explain', args: ['--json', '-i', '-'], stdin: f.text });
  }
  const genStart = Date.now();
  const fuzz = o.fuzz > 0 ? await fuzzLines(o.fuzz, o.seed) : [];
  log(`fuzz: ${fuzz.length} generated lines (seed ${o.seed}) in ${((Date.now() - genStart) / 1000).toFixed(1)} s`);
  fuzz.forEach((c, i) => pushLine('fuzz', { index: i, tier: c.tier, line: c.line }, c.line, c.tier));
  const t1 = Date.now();
  await compareLines(tally, workers, norms, items, progress('evaluate/explain'));
  await Promise.all(workers.map((w) => w.close()));
  log(`evaluate and explain: ${items.length} runs per build in ${((Date.now() - t1) / 1000).toFixed(1)} s`);

  // 2. Adapter fixtures through each build's hook, a fresh sandbox per build and config.
  const fixtures = adapterFixtures();
  const t2 = Date.now();
  for (const [label, config, forms] of [
    ['default config', null, (f) => [['--driver', f.harness], ['--driver', f.harness, '--event', f.event]]],
    ['audit_log = true', '[core]\naudit_log = true\n', (f) => [['--driver', f.harness]]],
  ]) {
    const hookBoxes = roots.map((r, i) => sandbox(`hook-${i}`, r, config));
    const hookNorms = hookBoxes.map(normaliser);
    for (const f of fixtures) {
      for (const args of forms(f)) {
        // The two builds side by side (each in its own sandbox): one process each at a time.
        const [a, b] = (await Promise.all(hookBoxes.map((box) => runHook(box, args, f.text)))).map((r, i) => JSON.parse(hookNorms[i](JSON.stringify(r))));
        tally.add(`adapter fixtures: hook (${label})`, { file: f.file, args: args.join(' ') }, a, b);
      }
    }
    for (const b of hookBoxes) fs.rmSync(b.base, { recursive: true, force: true });
  }
  log(`hook: ${fixtures.length} adapter fixtures (default config: with and without --event; audit_log = true: without) in ${((Date.now() - t2) / 1000).toFixed(1)} s`);
  for (const b of boxes) fs.rmSync(b.base, { recursive: true, force: true });

  // Report.
  log('');
  log(`${'category'.padEnd(40)} ${'compared'.padStart(8)} ${'identical'.padStart(9)} ${'different'.padStart(9)}  decisions (old build)`);
  let total = { compared: 0, identical: 0, different: 0 };
  for (const [k, c] of tally.cats) {
    const ds = Object.entries(c.decisions)
      .sort((x, y) => y[1] - x[1])
      .map(([d, n]) => `${d} ${n}`)
      .join(', ');
    log(`${k.padEnd(40)} ${String(c.compared).padStart(8)} ${String(c.identical).padStart(9)} ${String(c.different).padStart(9)}  ${ds}`);
    for (const f of ['compared', 'identical', 'different']) total[f] += c[f];
  }
  log(`${'total'.padEnd(40)} ${String(total.compared).padStart(8)} ${String(total.identical).padStart(9)} ${String(total.different).padStart(9)}`);
  const seconds = (Date.now() - started) / 1000;
  log(`wall time ${seconds.toFixed(1)} s`);
  for (const d of tally.diffs.slice(0, o.show)) {
    log(`\nDIFFERENT (${d.category}) ${JSON.stringify(d.what)}`);
    for (const line of divergence(d.old, d.new)) log(`  ${line}`);
    log(`  in full, old: ${JSON.stringify(d.old)}`);
    log(`  in full, new: ${JSON.stringify(d.new)}`);
  }
  if (tally.diffs.length > o.show) log(`\n… ${tally.diffs.length - o.show} more differences${o.json ? ` (all in ${o.json})` : ' (--json FILE lists them all)'}`);
  if (o.json) {
    const report = { old: roots[0], new: roots[1], seed: o.seed, fuzz: o.fuzz, seconds, skipped, categories: Object.fromEntries(tally.cats), total, differences: tally.diffs };
    fs.writeFileSync(o.json, `${JSON.stringify(report, null, 1)}\n`);
  }
  log(total.different === 0 ? '\nno differences' : `\n${total.different} differences`);
  process.exitCode = total.different === 0 ? 0 : 1;
}

await main();
