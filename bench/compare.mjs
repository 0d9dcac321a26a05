#!/usr/bin/env node
// A/B of Buckler's own time in a warm hook between builds (docs/performance.md):
//
//   node bench/compare.mjs [--only REGEX] [RUNS] DIST_A DIST_B …   (each a built dist/ directory)
//
// For each build: a temporary home of its own, its V8 code cache removed, then every hook of the
// benchmark (bench/payloads.mjs) three times in the benchmark's order, as `npm run bench` warms
// up (so each build's code cache is made by the same hooks). Then RUNS rounds (default 30): each
// payload through each build in turn, with bench/span-probe.cjs preloaded, which measures the
// process from the preload to its `exit` event. Prints the median and 25th percentile per
// payload and build, and the size of each build's code cache.
//
// Interleaved in one process on purpose: far less noisy than whole-process timings taken at
// different moments, so the measure for "did this change make hooks faster".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookPayloads } from './payloads.mjs';

const args = process.argv.slice(2);
// --only REGEX: just the payloads whose name matches (a quicker A/B of the scenarios a change concerns).
const onlyAt = args.indexOf('--only');
const only = onlyAt < 0 ? null : new RegExp(args.splice(onlyAt, 2)[1] ?? '');
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 30;
if (args.length === 0) {
  process.stderr.write('usage: node bench/compare.mjs [--only REGEX] [RUNS] DIST_A [DIST_B …]\n');
  process.exit(2);
}
const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'span-probe.cjs');
const codeCaches = (dist) => fs.readdirSync(dist).filter((f) => f.startsWith('.main-') && f.endsWith('.v8cache'));

const builds = args.map((d) => {
  const dist = path.resolve(d);
  if (!fs.existsSync(path.join(dist, 'buckler.cjs'))) throw new Error(`${dist}: no buckler.cjs (build it first)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-compare-'));
  const env = { ...process.env, HOME: tmp, BUCKLER_CONFIG_HOME: path.join(tmp, 'config'), BUCKLER_STATE_HOME: path.join(tmp, 'state'), BUCKLER_DATA_HOME: path.join(tmp, 'data') };
  delete env.BUCKLER_BYPASS;
  delete env.RETHUNK_ALLOW_SHELL;
  for (const f of codeCaches(dist)) fs.rmSync(path.join(dist, f));
  return { dist, tmp, env, payloads: hookPayloads(tmp) };
});
const names = Object.keys(builds[0].payloads).filter((n) => only === null || only.test(n));

const once = (b, name, measured) => {
  const [driver, payload] = b.payloads[name];
  const entry = path.join(b.dist, 'buckler.cjs');
  const r = spawnSync(process.execPath, measured ? ['--require', probe, entry, '--driver', driver] : [entry, '--driver', driver], { input: JSON.stringify(payload), env: b.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${b.dist} ${name}: exit ${r.status}: ${r.stderr}`);
  if (!measured) return 0;
  const m = /buckler-bench-span \S+ (\S+)/.exec(r.stderr);
  if (!m) throw new Error(`${b.dist} ${name}: no span on stderr`);
  return Number(m[1]);
};

try {
  for (const b of builds) for (const name of names) for (let i = 0; i < 3; i++) once(b, name, false);
  const ms = Object.fromEntries(names.map((n) => [n, builds.map(() => [])]));
  for (let i = 0; i < runs; i++) for (const name of names) builds.forEach((b, j) => ms[name][j].push(once(b, name, true)));
  const at = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))].toFixed(2);
  const width = Math.max(...names.map((n) => n.length));
  process.stdout.write(`Buckler's own ms in a warm hook, median (25th percentile), ${runs} interleaved runs\n`);
  process.stdout.write(`${''.padEnd(width)}  ${builds.map((_, j) => `build ${String.fromCharCode(65 + j)}`.padEnd(16)).join('')}\n`);
  for (const name of names) process.stdout.write(`${name.padEnd(width)}  ${ms[name].map((xs) => `${at(xs, 0.5)} (${at(xs, 0.25)})`.padEnd(16)).join('')}\n`);
  builds.forEach((b, j) => {
    const sizes = codeCaches(b.dist).map((f) => fs.statSync(path.join(b.dist, f)).size);
    process.stdout.write(`build ${String.fromCharCode(65 + j)}: ${b.dist}, code cache ${sizes.join(', ') || 'none'} bytes\n`);
  });
} finally {
  for (const b of builds) fs.rmSync(b.tmp, { recursive: true, force: true });
}
