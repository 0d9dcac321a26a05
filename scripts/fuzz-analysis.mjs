#!/usr/bin/env node
// In-process fuzzing of the analysis (docs/performance.md, "Fuzzing the analysis"): runs many
// inputs through evaluate() with the builtin packs (shell analysis, unwrapping, git aliases,
// judging) and reports
//   - crashes: anything thrown by evaluate() (a ShellParseError is answered, never thrown);
//   - slow inputs: over --slow-ms (default 50) of CPU time (the process's user + system time:
//     on a shared machine wall time also counts other processes), measured again twice to rule
//     out a collector pause; only an input slow all three times is reported (wall times too).
// Inputs: mutations of the shell corpus (src/shell/testdata/*.json, /work/shared/corpus when
// present, --corpus FILE for more), generated token soup, and inputs grown to near the 64 KiB
// limit by repeating a random piece (the shape of every super-linear case found so far).
//
//   node scripts/fuzz-analysis.mjs [--count 1000000] [--seed 1] [--slow-ms 50] [--corpus FILE]…
//
// Exit status 1 when a crash or a slow input was found. Findings are also written as JSON to
// .tmp/fuzz-analysis-<seed>.json.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    'slow-ms': { type: 'string', default: '50' },
    corpus: { type: 'string', multiple: true, default: [] },
  },
});
const COUNT = Number(values.count);
const SEED = Number(values.seed);
const SLOW_MS = Number(values['slow-ms']);
const MAX_BYTES = 64 * 1024;

// ---- the code under test, bundled from the sources -------------------------------------------
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const entry = path.join(tmp, 'fuzz-entry.ts');
fs.writeFileSync(
  entry,
  `export { evaluate } from '../src/core/evaluate.ts';
export { loadRuntimePolicy } from '../src/packs/runtime.ts';
export { resolvePaths } from '../src/paths.ts';
`,
);
const bundle = path.join(tmp, 'fuzz-analysis.cjs');
await build({
  entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
  external: ['js-yaml', 'smol-toml'], logLevel: 'warning', logOverride: { 'empty-import-meta': 'silent' },
});
const { evaluate, loadRuntimePolicy, resolvePaths } = createRequire(import.meta.url)(bundle);
const home = fs.mkdtempSync(path.join(tmp, 'fuzz-home-'));
const env = { HOME: home, BUCKLER_CONFIG_HOME: path.join(home, 'c'), BUCKLER_STATE_HOME: path.join(home, 's') };
const { policy } = await loadRuntimePolicy(resolvePaths({ env, platform: process.platform, home }), { packsDir: path.join(root, 'packs') });
fs.rmSync(home, { recursive: true, force: true });

// ---- seeds --------------------------------------------------------------------------------------
function strings(value, out) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (/[ ;|&$(){}<>'"`\\\n]/.test(k)) out.push(k);
      strings(v, out);
    }
  }
}
const seedFiles = [
  ...fs.readdirSync(path.join(root, 'src/shell/testdata')).filter((f) => f.endsWith('.json')).map((f) => path.join(root, 'src/shell/testdata', f)),
  '/work/shared/corpus/shell-snippets.json',
  ...values.corpus,
].filter((f) => fs.existsSync(f));
const seedSet = new Set();
for (const f of seedFiles) {
  const out = [];
  strings(JSON.parse(fs.readFileSync(f, 'utf8')), out);
  for (const s of out) if (s.length <= 4096) seedSet.add(s);
}
for (const s of [
  'git push -f origin main', 'git commit -m wip', 'gh pr close 1', 'rm -rf /', 'sudo -u x bash -c "git push --force"',
  'echo {1..5} {a,b}', 'x=git; $x push', 'eval "$x"', 'cat <<EOF\n$(git push)\nEOF', "find . -exec git push ';'",
  "bash -c 'eval \"$1\"' _ 'git push -f'", "git -c alias.x='!git push -f' x", 'echo $\\\n(git push -f)',
]) seedSet.add(s);
const seeds = [...seedSet];

// ---- a small deterministic generator ----------------------------------------------------------
let state = (SEED >>> 0) || 1;
const rnd = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4294967296;
};
const int = (n) => Math.floor(rnd() * n);
const pick = (xs) => xs[int(xs.length)];

const TOKENS = [
  ' ', ' ', '\n', ';', '&&', '||', '|', '&', '(', ')', '{', '}', '{ ', '; }', '$(', '`', "'", '"', '$', '${', '}', '$((', '))',
  '\\', '\\\n', '<', '>', '<<', '<<E\n', '\nE\n', "<<'E'\n", '<<<', '<(', '>(', '#', '=', '[[', ']]', '!', ',', '..', '*', '?',
  '1', 'a', 'x', 'git', 'push', '-f', 'echo', 'eval ', 'bash -c ', 'sh', 'sudo ', 'env ', 'xargs ', 'find . -exec ', ' {} ;',
  'x=', '$x', '"$x"', 'export ', 'if ', ' then ', ' fi', 'for i in ', ' do ', ' done', 'case ', ' in ', ' esac', 'function f ',
  'f() ', 'time ', 'coproc ', 'watch ', 'alias.x=', 'git -c ', "'!", '{1..9}', '{a,b}', 'python -c ', 'node -e ', 'source ',
];

function soup() {
  let s = '';
  const n = 1 + int(24);
  for (let i = 0; i < n; i++) s += pick(TOKENS);
  return s;
}

function mutate(s) {
  let t = s;
  const steps = 1 + int(4);
  for (let k = 0; k < steps; k++) {
    const at = int(t.length + 1);
    switch (int(7)) {
      case 0: // insert a token
        t = t.slice(0, at) + pick(TOKENS) + t.slice(at);
        break;
      case 1: // delete a span
        t = t.slice(0, at) + t.slice(at + 1 + int(8));
        break;
      case 2: // replace a character
        t = t.slice(0, at) + pick(TOKENS).charAt(0) + t.slice(at + 1);
        break;
      case 3: // splice another seed in
        t = t.slice(0, at) + pick(seeds) + t.slice(at);
        break;
      case 4: // wrap
        t = pick([(x) => `bash -c '${x.replace(/'/g, "'\\''")}'`, (x) => `eval "${x.replace(/["\\$`]/g, '\\$&')}"`, (x) => `echo $(${x})`, (x) => `sudo ${x}`, (x) => `{ ${x}; }`, (x) => `${x} | sh`])(t);
        break;
      case 5: // a line continuation somewhere
        t = t.slice(0, at) + '\\\n' + t.slice(at);
        break;
      default: // duplicate a piece a few times
        {
          const len = 1 + int(16);
          t = t.slice(0, at) + t.slice(at, at + len).repeat(2 + int(6)) + t.slice(at);
        }
    }
  }
  return t;
}

/** A piece of `s` repeated until the text is close to the 64 KiB limit. */
function grow(s) {
  const from = int(Math.max(1, s.length));
  const piece = s.slice(from, from + 1 + int(40)) || pick(TOKENS);
  const room = MAX_BYTES - s.length - 16;
  if (room <= piece.length) return s;
  return s.slice(0, from) + piece.repeat(Math.floor(room / Buffer.byteLength(piece))) + s.slice(from);
}

function next(i) {
  const r = rnd();
  if (i % 500 === 499) return grow(r < 0.5 ? mutate(pick(seeds)) : soup());
  if (r < 0.15) return pick(seeds);
  if (r < 0.45) return soup();
  return mutate(pick(seeds));
}

// ---- run ----------------------------------------------------------------------------------------
const input = (command) => ({ policy_io_version: '1', trigger: 'pre_shell_tool', harness: 'fuzz', shell: { command }, env: {} });
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const crashes = [];
const slow = [];
const decisions = { allow: 0, deny: 0, ask: 0, nudge: 0, parse_error: 0 };
let maxMs = 0;
let maxInput = '';
let bytes = 0;
let remeasured = 0;
const started = performance.now();
for (let i = 0; i < COUNT; i++) {
  const text = next(i);
  bytes += text.length;
  const inp = input(text);
  const t0 = cpu();
  let out;
  try {
    out = evaluate(inp, policy);
  } catch (e) {
    crashes.push({ input: text, error: String(e?.stack ?? e).split('\n').slice(0, 4).join(' | ') });
    continue;
  }
  const ms = cpu() - t0;
  if (out.error) decisions.parse_error++;
  else decisions[out.decision] = (decisions[out.decision] ?? 0) + 1;
  if (ms > maxMs) {
    maxMs = ms;
    maxInput = text;
  }
  if (ms > SLOW_MS) {
    // Measure twice more: a collector pause or another process taking the CPU is not the input's fault.
    remeasured++;
    const again = [];
    const cpuAgain = [];
    for (let k = 0; k < 2; k++) {
      const w0 = performance.now();
      const c0 = cpu();
      evaluate(inp, policy);
      cpuAgain.push(cpu() - c0);
      again.push(performance.now() - w0);
    }
    if (Math.min(...cpuAgain) > SLOW_MS) slow.push({ input: text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text, bytes: text.length, ms: [ms, ...cpuAgain], wall_ms: again, full: text });
  }
  if ((i + 1) % 100_000 === 0) {
    const s = ((performance.now() - started) / 1000).toFixed(0);
    console.error(`${i + 1} inputs, ${s} s, ${crashes.length} crashes, ${slow.length} slow, slowest first run ${maxMs.toFixed(1)} ms CPU`);
  }
}
const seconds = (performance.now() - started) / 1000;
const report = {
  seed: SEED,
  inputs: COUNT,
  seeds: seeds.length,
  seed_files: seedFiles.map((f) => path.relative(root, f)),
  megabytes: Number((bytes / 1e6).toFixed(1)),
  seconds: Number(seconds.toFixed(1)),
  decisions,
  crashes: crashes.length,
  slow_over_ms: SLOW_MS,
  slow: slow.length,
  remeasured,
  slowest_first_run_cpu_ms: Number(maxMs.toFixed(2)),
  slowest_first_run_input: maxInput.length > 200 ? `${maxInput.slice(0, 200)}… (${maxInput.length} chars)` : maxInput,
};
const file = path.join(tmp, `fuzz-analysis-${SEED}.json`);
fs.writeFileSync(file, JSON.stringify({ ...report, crash_list: crashes.slice(0, 200), slow_list: slow.slice(0, 50) }, null, 2) + '\n');
console.log(JSON.stringify(report, null, 2));
for (const c of crashes.slice(0, 10)) console.log('CRASH', JSON.stringify(c.input.slice(0, 300)), c.error);
for (const s of slow.slice(0, 10)) console.log('SLOW', s.ms.map((m) => m.toFixed(1)).join('/'), 'ms CPU', JSON.stringify(s.input));
console.log(`findings: ${path.relative(root, file)}`);
process.exitCode = crashes.length > 0 || slow.length > 0 ? 1 : 0;
