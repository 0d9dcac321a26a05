#!/usr/bin/env node
// The million-input fuzz of the analysis (issue 14): inputs are mutations of the shell corpus
// (../shared/corpus/shell-snippets.json beside the repository when present, and every string of
// src/shell/testdata/*.json) and of generated lines (src/cli/differential-gen.testing.ts), each
// decided in process by `evaluate` with the default packs (baseline, pre_shell_exec).
//  - crash: `evaluate` threw (it turns a ShellParseError into a fail-closed deny, so anything
//    thrown is a crash);
//  - slow: an input over --slow-ms (default 50) of wall time, or with --clock cpu of CPU time
//    (the process's user + system time: on a shared machine wall time also counts other
//    processes), measured a second time to rule out a collector pause;
// then the real-bash differential (scripts/fuzz-differential.mjs) on a sample of generated lines.
// Only generated lines go to bash: mutated corpus text could do anything a shell can.
//
// --mix soup changes the inputs (same seeds): 15 % seeds as is, 55 % mutations, 30 % token soup,
// and every 500th input grown to near 64 KiB by repeating a random piece (the shape of every
// super-linear case found so far). --corpus FILE (repeatable) adds the strings of more JSON files.
//
// Usage: node scripts/fuzz-million.mjs [--count 1000000] [--seed 1] [--workers 2]
//                                      [--differential 10000] [--json FILE] [--slow-ms 50]
//                                      [--clock wall|cpu] [--mix mutate|soup] [--corpus FILE]…
// Exit 1 on a crash or a differential miss outside the known-misses list; slow inputs are
// reported (and exit 1 with --strict-time).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliDecisions, loadFuzzModules, report, runDifferential } from './fuzz-differential.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SHARED_CORPUS = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'shared', 'corpus', 'shell-snippets.json');
const MAX_BYTES = 64 * 1024;

const argValue = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
/** Every value of a repeatable option. */
const argValues = (name) => process.argv.flatMap((a, i) => (a === name && i + 1 < process.argv.length ? [process.argv[i + 1]] : []));
const LIMIT_MS = Number(argValue('--slow-ms', '50'));
const CLOCK = argValue('--clock', 'wall');
const MIX = argValue('--mix', 'mutate');
if (!['wall', 'cpu'].includes(CLOCK) || !['mutate', 'soup'].includes(MIX) || !(LIMIT_MS > 0)) {
  console.error('fuzz-million: --clock takes wall or cpu, --mix mutate or soup, --slow-ms a positive number');
  process.exit(2);
}
/** Milliseconds on the chosen clock. */
const now = CLOCK === 'cpu' ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; } : () => performance.now();

/** Every string in a JSON value (corpus entries, test tables), deduplicated. */
function stringsOf(value, out) {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
}

function seedInputs(m, seed) {
  const set = new Set();
  const files = fs.readdirSync(path.join(ROOT, 'src/shell/testdata')).filter((f) => f.endsWith('.json')).map((f) => path.join(ROOT, 'src/shell/testdata', f));
  if (fs.existsSync(SHARED_CORPUS)) files.push(SHARED_CORPUS);
  for (const f of argValues('--corpus')) files.push(path.resolve(f));
  for (const f of files) stringsOf(JSON.parse(fs.readFileSync(f, 'utf8')), set);
  // Digests, paths and verdict words of the oracle files are strings too; they are harmless inputs.
  const corpus = [...set].filter((s) => s.length <= MAX_BYTES);
  const generated = m.generateCases(m.loadTargets(path.join(ROOT, 'packs')), 5000, seed, { ns: true }).map((c) => c.line);
  return { corpus, generated, files };
}

const TOKENS = [
  ' ', '\n', ';', '&&', '||', '|', '&', '(', ')', '{ ', ' }', '$(', '`', "'", '"', "$'", '\\', '\\\n', '<<EOF\n', '\nEOF\n',
  '<<<', '<(', '>(', '>', '2>&1', '$', '${', '}', '$((', '))', '[[ ', ' ]]', 'if ', 'then ', 'fi', 'for i in 1; do ', 'done',
  'case x in x) ', ';; esac', 'eval ', 'bash -c ', 'sh -c ', 'sudo ', 'env ', 'xargs ', 'git ', 'push ', '-f ', 'gh ', 'commit ',
  'x=', '"$@"', '$1', 'f() { ', '{a,b}', '{1..3}', '*', '?', '#', '\t', '\r', '\u00e9', '\u0000', 'time ', 'coproc ', '! ',
];

/** One mutation of `base` (or of a splice with `other`). */
function mutate(rng, base, other) {
  let s = base;
  const n = 1 + rng.int(4);
  for (let k = 0; k < n; k++) {
    const at = rng.int(s.length + 1);
    switch (rng.int(10)) {
      case 0:
      case 1:
        s = s.slice(0, at) + rng.pick(TOKENS) + s.slice(at);
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at + 1 + rng.int(8));
        break;
      case 3: {
        const b = rng.int(other.length + 1);
        s = s.slice(0, at) + other.slice(b, b + 1 + rng.int(80)) + s.slice(at);
        break;
      }
      case 4:
        s = s.slice(0, at) + String.fromCharCode(rng.int(128)) + s.slice(at + 1);
        break;
      case 5: {
        const b = Math.min(s.length, at + 1 + rng.int(40));
        const piece = s.slice(at, b);
        s = s.slice(0, b) + piece.repeat(1 + rng.int(rng.chance(0.02) ? 400 : 4)) + s.slice(b);
        break;
      }
      case 6:
        s = `${rng.pick(['bash -c ', 'eval ', 'sudo ', 'echo $(', '( ', '{ ', 'nice '])}${rng.chance(0.5) ? m.shq(s) : s}${rng.pick(['', ')', ' )', '; }', '\n'])}`;
        break;
      case 7:
        s = `${s}${rng.pick(['; ', ' && ', ' | ', '\n'])}${other}`;
        break;
      case 8:
        // Brace expansion groups: small ones often, a bomb rarely (the work bound's worst case).
        s = s.slice(0, at) + (rng.chance(0.01) ? '{1..1000}'.repeat(2 + rng.int(3)) : rng.pick(['{a,b}', '{1..9}', '{x,{y,z}}'])) + s.slice(at);
        break;
      default:
        s = s.slice(0, at) + s.slice(at).split('').reverse().join('').slice(0, 20) + s.slice(at + 20);
    }
  }
  return s.length > MAX_BYTES ? s.slice(0, MAX_BYTES) : s;
}

/** Token soup: 1 to 24 shell tokens in a row. */
function soup(rng) {
  let s = '';
  for (let n = 1 + rng.int(24); n > 0; n--) s += rng.pick(TOKENS);
  return s;
}

/** A piece of `s` repeated until the text is close to the 64 KiB limit. */
function grow(rng, s) {
  const from = rng.int(Math.max(1, s.length));
  const piece = s.slice(from, from + 1 + rng.int(40)) || rng.pick(TOKENS);
  const room = MAX_BYTES - s.length - 16;
  if (room <= piece.length) return s;
  return s.slice(0, from) + piece.repeat(Math.floor(room / Buffer.byteLength(piece))) + s.slice(from);
}

/** Input `i`: by default one in eight is a seed as is and the rest mutations; --mix soup as in the header. */
function nextInput(rng, i, pool) {
  const base = pool[rng.int(pool.length)];
  if (MIX === 'mutate') return i % 8 === 0 ? base : mutate(rng, base, pool[rng.int(pool.length)]);
  const r = rng.next();
  if (i % 500 === 499) return grow(rng, r < 0.5 ? mutate(rng, base, pool[rng.int(pool.length)]) : soup(rng));
  if (r < 0.15) return base;
  if (r < 0.45) return soup(rng);
  return mutate(rng, base, pool[rng.int(pool.length)]);
}

let m;

/** One shard: inputs i with i % shards === shard. */
async function shard(k, shards, count, seed) {
  m = await loadFuzzModules();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-million-'));
  const policies = await m.loadPolicies(path.join(ROOT, 'packs'), home);
  const policy = policies.baseline;
  // The readers the hook passes (script files, git aliases), for an empty directory and home.
  const readers = m.hookReaders(home);
  const { corpus, generated } = seedInputs(m, seed);
  const pool = [...corpus, ...generated];
  const rng = m.rngFrom(seed * 7919 + k);
  const crashes = [];
  const slow = [];
  let bytes = 0;
  let maxMs = 0;
  let maxInput = '';
  const decisions = { allow: 0, deny: 0, ask: 0, nudge: 0 };
  const started = performance.now();
  const decideOnce = (text) => m.evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: text } }, policy, readers);
  for (let i = k; i < count; i += shards) {
    const text = nextInput(rng, i, pool);
    bytes += text.length;
    const t0 = now();
    let out;
    try {
      out = decideOnce(text);
    } catch (e) {
      crashes.push({ input: text.slice(0, 2000), error: String(e?.stack ?? e).split('\n').slice(0, 4).join(' | ') });
      continue;
    }
    const ms = now() - t0;
    decisions[out.decision]++;
    if (ms > LIMIT_MS) {
      const t1 = now();
      decideOnce(text);
      const again = now() - t1;
      if (again > LIMIT_MS) slow.push({ ms: Math.round(ms), again: Math.round(again), bytes: text.length, input: text, decision: out.decision, error: out.error?.code ?? null });
    }
    if (ms > maxMs) {
      maxMs = ms;
      maxInput = text.slice(0, 200);
    }
  }
  fs.rmSync(home, { recursive: true, force: true });
  return { inputs: Math.ceil((count - k) / shards), bytes, crashes, slow, maxMs, maxInput, decisions, seconds: (performance.now() - started) / 1000, seeds: { corpus: corpus.length, generated: generated.length } };
}

async function main() {
  const count = Number(argValue('--count', '1000000'));
  const seed = Number(argValue('--seed', '1'));
  const workers = Math.min(2, Math.max(1, Number(argValue('--workers', '2'))));
  const diffN = Number(argValue('--differential', '10000'));
  const jsonOut = argValue('--json', null);
  const started = Date.now();
  const self = new URL(import.meta.url).pathname;
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, k) =>
      new Promise((resolve, reject) => {
        const pass = ['--slow-ms', String(LIMIT_MS), '--clock', CLOCK, '--mix', MIX, ...argValues('--corpus').flatMap((f) => ['--corpus', f])];
        const child = fork(self, ['--shard', String(k), '--shards', String(workers), '--count', String(count), '--seed', String(seed), ...pass], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        child.on('message', resolve);
        child.on('exit', (code) => code !== 0 && reject(new Error(`shard ${k} exited with ${code}`)));
      }),
    ),
  );
  const sum = (f) => parts.reduce((s, p) => s + f(p), 0);
  const crashes = parts.flatMap((p) => p.crashes);
  const slow = parts.flatMap((p) => p.slow).sort((a, b) => b.again - a.again);
  const worst = parts.reduce((a, b) => (a.maxMs >= b.maxMs ? a : b));
  console.log(`in process: ${sum((p) => p.inputs)} inputs (${(sum((p) => p.bytes) / 1e6).toFixed(1)} MB; seeds: ${parts[0].seeds.corpus} corpus strings, ${parts[0].seeds.generated} generated lines), ${Math.max(...parts.map((p) => p.seconds)).toFixed(0)} s on ${workers} workers`);
  console.log(`  decisions: ${JSON.stringify(Object.fromEntries(Object.keys(parts[0].decisions).map((d) => [d, sum((p) => p.decisions[d])])))}`);
  console.log(`  crashes: ${crashes.length}; over ${LIMIT_MS} ms (${CLOCK} clock, mix ${MIX}) twice: ${slow.length}; slowest first measurement ${worst.maxMs.toFixed(1)} ms`);
  for (const c of crashes.slice(0, 10)) console.log(`  CRASH ${JSON.stringify(c.input.slice(0, 200))}: ${c.error}`);
  for (const s of slow.slice(0, 10)) console.log(`  SLOW ${s.ms}/${s.again} ms, ${s.bytes} bytes, ${s.decision}${s.error ? ` (${s.error})` : ''}: ${JSON.stringify(s.input.slice(0, 120))}`);

  const result = { count, seed, slowMs: LIMIT_MS, clock: CLOCK, mix: MIX, crashes, slow, differential: null };
  if (diffN > 0) {
    m = await loadFuzzModules();
    const refusal = m.bashRefusal(m.namespacesAvailable());
    if (refusal !== null) {
      console.log(`differential: ${refusal}; skipped`);
      process.exitCode = 1;
    } else {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-million-diff-'));
      const decide = await m.policyDecider(path.join(ROOT, 'packs'), home);
      const ns = m.namespacesAvailable();
      const cases = m.generateCases(m.loadTargets(path.join(ROOT, 'packs')), diffN, seed + 1, { ns });
      const { judged } = await runDifferential(m, cases, { workers, decide });
      const s = m.summarize(judged);
      report(m, `real-bash differential (seed ${seed + 1}, namespaces ${ns ? 'yes' : 'no'})`, s);
      for (const j of [...s.unexpected, ...s.open].slice(0, 20)) console.log(`  MISS [${j.case.features.join(' ')}] ${JSON.stringify(j.case.line)} → ${j.decision}; bash ran ${j.ran.join(' | ')}`);
      const stride = Math.max(1, Math.floor(cases.length / 100));
      const sample = cases.filter((_, i) => i % stride === 0).slice(0, 100);
      const viaCli = cliDecisions(sample);
      const differ = sample.filter((c, i) => viaCli[i] !== decide(c.line, c.tier)).length;
      console.log(`  built CLI sample: ${sample.length} lines, ${differ} decisions differ from in process`);
      result.differential = { counts: s.counts, unexpected: s.unexpected.length, open: s.open.length, missClasses: s.missClasses, cliSample: sample.length, cliDiffer: differ, misses: s.misses.map((j) => ({ features: j.case.features, line: j.case.line, decision: j.decision, ran: j.ran })) };
      fs.rmSync(home, { recursive: true, force: true });
      if (s.unexpected.length > 0 || s.open.length > 0 || differ > 0) process.exitCode = 1;
    }
  }
  console.log(`total wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(result, null, 1) + '\n');
  if (crashes.length > 0) process.exitCode = 1;
  if (slow.length > 0 && process.argv.includes('--strict-time')) process.exitCode = 1;
}

if (process.argv.includes('--shard')) {
  const r = await shard(Number(argValue('--shard')), Number(argValue('--shards')), Number(argValue('--count')), Number(argValue('--seed')));
  process.send(r, () => process.exit(0));
} else {
  await main();
}
