#!/usr/bin/env node
// One whole-process scenario from a root-owned locked-down install (issue 22): a Claude Code deny
// (`git push --force`) through /opt/buckler, whose compiled packs and V8 code cache were made at
// install time, against the same event through this checkout's dist/ in an ordinary install
// (warm cache in a scratch HOME), and `node -e 0`; each run as an unused uid. Interleaved,
// medians in ms.
//
// Needs root, `unshare` and overlay mounts; it re-runs itself in a private mount namespace, so
// nothing on the machine changes (the same layout as src/system-install.e2e.test.ts):
//
//   sudo node bench/system-install.mjs            (BENCH_RUNS rounds, default 30)
//
// Prints, per scenario, the median and 25th percentile of the whole process, and Buckler's own
// time (median less `node -e 0`'s), comparable with bench/compare.mjs's figures.
import { spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const runs = Number(process.env.BENCH_RUNS ?? 30);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

if (process.argv[2] !== '--inside') {
  if (process.getuid?.() !== 0) {
    console.error('bench/system-install.mjs: needs root (it installs into a private mount namespace)');
    process.exit(2);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-bench-system-'));
  try {
    execFileSync('node', ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
    const pack = JSON.parse(execFileSync('npm', ['pack', '--offline', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root, encoding: 'utf8' }));
    const scratch = path.join(tmp, 'ns');
    fs.mkdirSync(scratch);
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', process.execPath, fileURLToPath(import.meta.url), '--inside', path.join(tmp, pack[0].filename), scratch], { stdio: 'inherit' });
    process.exitCode = r.status ?? 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
} else {
  const [, , , tarball, scratch] = process.argv;
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', scratch]);
  for (const d of ['/etc', '/var/lib', '/opt']) {
    const n = d.replaceAll('/', '_');
    fs.mkdirSync(`${scratch}/${n}-u`);
    fs.mkdirSync(`${scratch}/${n}-w`);
    execFileSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${d},upperdir=${scratch}/${n}-u,workdir=${scratch}/${n}-w`, d]);
  }
  // No system log in the measurement: logger replaced by `true` (the spawn itself is still measured).
  for (const l of ['/usr/bin/logger', '/bin/logger']) if (fs.existsSync(l)) execFileSync('mount', ['--bind', '/bin/true', l]);
  // Root's commands get a scratch home too: nothing may land in the real /root.
  const rootHome = `${scratch}/root`;
  fs.mkdirSync(rootHome, { mode: 0o700 });
  execFileSync('bash', [path.join(root, 'scripts', 'setup.sh'), 'install', '--system', '--from', tarball], { stdio: ['ignore', 'ignore', 'inherit'], env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: rootHome } });
  const home = `${scratch}/home`;
  const project = `${home}/project`;
  fs.mkdirSync(`${project}/.git`, { recursive: true });
  // As a person (an unused uid), who cannot write /opt/buckler: as every hook of the mode runs.
  const uid = 47_500;
  execFileSync('chown', ['-R', `${uid}:${uid}`, home]);
  const env = { PATH: '/usr/bin:/bin', HOME: home };
  const event = JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd: project, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push --force origin main' }, tool_use_id: 't' });
  const scenarios = {
    'node -e 0': [process.execPath, ['-e', '0'], ''],
    'claude-code deny, ordinary install (dist/, warm)': [process.execPath, [path.join(root, 'dist', 'buckler.cjs'), '--driver', 'claude-code'], event],
    'claude-code deny, locked-down install (/opt/buckler)': ['/usr/bin/node', ['/opt/buckler/current/dist/buckler.cjs', '--driver', 'claude-code'], event],
  };
  const times = Object.fromEntries(Object.keys(scenarios).map((k) => [k, []]));
  for (let i = 0; i < runs + 3; i++) {
    for (const [name, [cmd, args, input]] of Object.entries(scenarios)) {
      const t = process.hrtime.bigint();
      const r = spawnSync(cmd, args, { input, env, encoding: 'utf8', cwd: project, uid, gid: uid });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (name !== 'node -e 0' && !r.stdout.includes('"deny"')) throw new Error(`${name} did not deny: ${r.stdout} ${r.stderr}`);
      if (i >= 3) times[name].push(ms);
    }
  }
  // As bench/compare.mjs prints them: median and 25th percentile, and Buckler's own time (the
  // whole process less `node -e 0`'s median, the figure compare.mjs's span probe approximates).
  const p25 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 4)];
  const base = median(times['node -e 0']);
  console.log(`${runs} interleaved runs per scenario, as uid ${uid}; whole process, ms`);
  for (const [name, xs] of Object.entries(times)) {
    const own = name === 'node -e 0' ? '' : `  Buckler's own ≈ ${(median(xs) - base).toFixed(2)} ms`;
    console.log(`${name.padEnd(56)} median ${median(xs).toFixed(2)}  p25 ${p25(xs).toFixed(2)}${own}`);
  }
  execFileSync('bash', [path.join(root, 'scripts', 'setup.sh'), 'uninstall', '--system'], { stdio: 'ignore', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: rootHome } });
}
