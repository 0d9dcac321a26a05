/**
 * Test-only: runs generated command lines through real bash in a sandbox and compares what ran
 * with what Buckler decided (the differential fuzz; generator in differential-gen.testing.ts).
 *
 * The sandbox is a temporary directory with a `bin/` put first on PATH:
 *  - `git` and `gh` are fakes that write their argv (and git's GIT_CONFIG_* pairs) to a log file
 *    and do nothing else; `/usr/lib/git-core/git-<sub>` fakes log as `git <sub> …`;
 *  - `sudo`, `doas` and the stand-ins for wrappers that need a daemon, a remote host, another OS
 *    or the network (`ssh`, `docker`, `podman`, `kubectl`, `nsenter`, `caffeinate`, `parallel`,
 *    `unbuffer`, `npx`) are small sh scripts that skip their options and exec (or `sh -c`) their
 *    inner command: STAND_INS below says how each one reads its command line.
 * Everything else is the real program (`env`, `nice`, `timeout`, `xargs`, `find`, `watch`,
 * `flock`, `script`, `strace`, `setsid`, …).
 *
 * Where user namespaces work (`unshare -rnm`), each batch runs with no network, and real paths
 * are covered too: /usr/bin/git and every installed stand-in are bind-mounted fakes and
 * /usr/lib/git-core is a tmpfs holding only the fakes, so `env -i git …`, `command -p git` and
 * `/usr/lib/git-core/git-push` also reach a fake; every mount but the sandbox directory is
 * remounted read-only (the batch stops before any line if one stays writable), and each line runs
 * in its own PID namespace without CAP_SYS_ADMIN, so it can neither write outside the sandbox,
 * remount, nor leave anything running. Without namespaces the generator leaves out the spellings
 * that reach a program by absolute path or a reset PATH (GenOptions.ns = false), and as root the
 * lines are not run at all (`bashRefusal`).
 *
 * What reaches bash is built only from the targets (pack examples that `safeToRun` accepts: faked
 * git/gh and harmless builtins, no redirection, nothing opaque) and the generator's fixed words;
 * a wrapper that re-reads its words as shell text wraps only inert words (differential-gen).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Decision } from '../core/contract.ts';
import { evaluate, type EvaluateOptions } from '../core/evaluate.ts';
export { evaluate } from '../core/evaluate.ts';
import type { CompiledPolicy } from '../core/policy.ts';
import { loadPolicyReport } from '../packs/runtime.ts';
import { resolvePaths } from '../paths.ts';
import { shq, type Case, type Tier } from './differential-gen.testing.ts';
import { gitAliasReader } from './git-config.ts';
import { scriptReader } from './script-reader.ts';

export function bashAvailable(): boolean {
  return spawnSync('bash', ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

/** User, network, mount and PID namespaces as an unprivileged user (Linux only). */
export function namespacesAvailable(): boolean {
  if (process.platform !== 'linux') return false;
  const r = spawnSync('unshare', ['-rnm', 'sh', '-c', 'mount -t tmpfs none /mnt 2>/dev/null || mount -t tmpfs none /tmp; mount -o remount,bind,ro / && unshare -pf --kill-child setpriv --bounding-set -sys_admin true'], { stdio: 'ignore', timeout: 10_000 });
  return r.status === 0;
}

/**
 * Why real bash must not run the generated lines here, or null when it may. As root without the
 * read-only namespace (a developer's root shell, a root CI container without user namespaces)
 * nothing but PATH stands between a generator mistake and the real system: refused.
 */
export function bashRefusal(ns: boolean): string | null {
  if (!bashAvailable()) return 'bash is not installed';
  if (!ns && process.getuid?.() === 0) return 'running as root without user namespaces (the read-only sandbox): real bash is not run';
  return null;
}

// ---- fakes -------------------------------------------------------------------------------------

const logger = (name: string, logDir: string): string => `#!/bin/sh
# Fake ${name}: records its argv and does nothing else.
f=${shq(logDir)}/${name}.$$
while [ -e "$f" ]; do f="$f"x; done
if [ $# -gt 0 ]; then printf '%s\\0' "$@"; fi > "$f.argv"
n=\${GIT_CONFIG_COUNT:-0}
case $n in ''|*[!0-9]*) n=0;; esac
i=0
while [ "$i" -lt "$n" ] && [ "$i" -lt 16 ]; do
  eval "printf '%s\\0%s\\0' \\"\\\${GIT_CONFIG_KEY_$i-}\\" \\"\\\${GIT_CONFIG_VALUE_$i-}\\""
  i=$((i+1))
done > "$f.cfg"
exit 0
`;

/** How each stand-in reads its command line (sh `case` over the options, then exec). */
export const STAND_INS: Record<string, { about: string; script: string }> = {
  sudo: {
    about: 'sudo [options] [NAME=VALUE…] CMD…: skips options (-u/-g/-C/-D/-h/-p/-r/-t/-U/-T take a value), exports the assignments, execs CMD',
    script: `while [ $# -gt 0 ]; do case $1 in
  --) shift; break;;
  -[ugCDhprtUT]) shift 2;;
  --user|--group|--chdir|--prompt|--host|--close-from|--role|--type|--other-user|--command-timeout) shift 2;;
  -*) shift;;
  *) break;;
esac; done
while [ $# -gt 0 ]; do case $1 in [A-Za-z_]*=*) export "$1"; shift;; *) break;; esac; done
exec "$@"`,
  },
  doas: {
    about: 'doas [-n] [-s] [-u USER] [-C FILE] CMD…: execs CMD',
    script: `while [ $# -gt 0 ]; do case $1 in --) shift; break;; -[uC]) shift 2;; -*) shift;; *) break;; esac; done
exec "$@"`,
  },
  ssh: {
    about: 'ssh [options] HOST [options] CMD…: reads options before and again after HOST (as OpenSSH does; `--` ends them), joins CMD… with spaces and runs it with sh -c, as the remote login shell would',
    script: `host=
while [ $# -gt 0 ]; do case $1 in
  --) shift; [ -n "$host" ] && break; [ $# -gt 0 ] || break; host=$1; shift;;
  -[BbcDEeFIiJLlmOopQRSWw]) shift 2;;
  -*) shift;;
  *) [ -n "$host" ] && break; host=$1; shift;;
esac; done
[ $# -gt 0 ] || exit 0
exec sh -c "$*"`,
  },
  docker: {
    about: 'docker exec [options] CONTAINER CMD…: skips options (-e/-u/-w/--env/--user/--workdir/--env-file/--detach-keys take a value), execs CMD',
    script: `[ "$1" = exec ] || exit 0
shift
while [ $# -gt 0 ]; do case $1 in
  -e|-u|-w|--env|--user|--workdir|--env-file|--detach-keys) shift 2;;
  --) shift; break;;
  -*) shift;;
  *) break;;
esac; done
shift
exec "$@"`,
  },
  kubectl: {
    about: 'kubectl … exec POD … -- CMD…: execs what follows the first --',
    script: `while [ $# -gt 0 ]; do [ "$1" = -- ] && { shift; exec "$@"; }; shift; done
exit 0`,
  },
  nsenter: {
    about: 'nsenter [options] CMD…: skips options (-t/-S/-G/--target/--setuid/--setgid take a value), execs CMD',
    script: `while [ $# -gt 0 ]; do case $1 in
  --) shift; break;;
  -[tSG]|--target|--setuid|--setgid) shift 2;;
  -*) shift;;
  *) break;;
esac; done
exec "$@"`,
  },
  caffeinate: {
    about: 'caffeinate [-dimsu] [-t N] [-w PID] CMD…: execs CMD (macOS)',
    script: `while [ $# -gt 0 ]; do case $1 in -[tw]) shift 2;; -*) shift;; *) break;; esac; done
exec "$@"`,
  },
  unbuffer: {
    about: 'unbuffer [-p] CMD…: execs CMD (needs expect)',
    script: `[ "$1" = -p ] && shift
exec "$@"`,
  },
  parallel: {
    about: 'parallel [-j N|-k] CMD… ::: ARG…: runs "CMD… ARG" with sh -c once per ARG (just ARG when there is no CMD)',
    script: `while [ $# -gt 0 ]; do case $1 in -j) shift 2;; -*) shift;; *) break;; esac; done
cmd=
while [ $# -gt 0 ] && [ "$1" != ::: ]; do cmd="$cmd\${cmd:+ }$1"; shift; done
[ $# -gt 0 ] && shift
for a in "$@"; do sh -c "$cmd\${cmd:+ }$a"; done`,
  },
  npx: {
    about: 'npx [--yes] -c TEXT: runs TEXT with sh -c (the real one may reach the registry)',
    script: `while [ $# -gt 0 ]; do case $1 in -c|--call) exec sh -c "$2";; esac; shift; done
exit 0`,
  },
};
STAND_INS.podman = { about: 'podman exec …: as docker', script: STAND_INS.docker!.script };

/** Subcommands given a `/usr/lib/git-core/git-<sub>` fake. */
const GIT_CORE = ['push', 'commit', 'remote', 'reset', 'merge', 'rebase', 'commit-tree', 'config', 'status'];

export interface Sandbox {
  root: string;
  ns: boolean;
}

/** Writes the fakes and the batch runner under `root` (which must exist and be empty). */
export function createSandbox(root: string, ns: boolean): Sandbox {
  const refused = bashRefusal(ns);
  if (refused !== null) throw new Error(`differential sandbox: ${refused}`);
  const bin = path.join(root, 'bin');
  const core = path.join(root, 'git-core');
  const log = path.join(root, 'log');
  for (const d of [bin, core, log]) fs.mkdirSync(d, { recursive: true });
  const put = (file: string, text: string): void => fs.writeFileSync(file, text, { mode: 0o755 });
  put(path.join(bin, 'git'), logger('git', log));
  put(path.join(bin, 'gh'), logger('gh', log));
  for (const [name, s] of Object.entries(STAND_INS)) put(path.join(bin, name), `#!/bin/sh\n# Stand-in: ${s.about}\n${s.script}\n`);
  for (const sub of GIT_CORE) put(path.join(core, `git-${sub}`), `#!/bin/sh\nexec ${shq(path.join(bin, 'git'))} ${sub} "$@"\n`);
  put(path.join(root, 'worker.sh'), WORKER);
  return { root, ns };
}

/**
 * The batch runner: reads records `TIMEOUT\nLINE\0` from $1, runs each line with bash -c in a
 * fresh directory ($2/N/w), and moves what the fakes logged to $2/N/log (bash's status to $2/N/rc). With NS=1 it first puts
 * the fakes over the real programs (it runs inside `unshare -rnm`).
 */
const WORKER = `#!/bin/bash
root=$(cd "$(dirname "$0")" && pwd)
lines=$1 out=$2 ns=$3
bin=$root/bin
if [ "$ns" = 1 ]; then
  for p in git gh ${Object.keys(STAND_INS).join(' ')}; do
    for real in /usr/bin/$p /bin/$p /usr/local/bin/$p /usr/sbin/$p; do
      [ -f "$real" ] && [ ! -L "$real" ] && mount --bind "$bin/$p" "$real"
      [ -L "$real" ] && [ -e "$real" ] && mount --bind "$bin/$p" "$(readlink -f "$real")"
    done
  done
  if [ -d /usr/lib/git-core ]; then
    mount -t tmpfs none /usr/lib/git-core && cp "$root"/git-core/* /usr/lib/git-core/
  fi
  # Everything but the sandbox becomes read-only: whatever a line runs, it cannot write outside
  # it (device nodes such as /dev/null still open for writing). Any mount that stays writable
  # stops the batch before a line runs.
  mount --bind "$root" "$root" || exit 97
  while read -r _ _ _ _ mp _; do
    mp=$(printf %b "$mp")
    [ "$mp" = "$root" ] || mount -o remount,bind,ro "$mp" 2>/dev/null
  done < /proc/self/mountinfo
  # A mount point can hold a stack of mounts; only the top one (listed last) is reachable.
  declare -A top=()
  while read -r _ _ _ _ mp opts _; do top[$mp]=$opts; done < /proc/self/mountinfo
  for mp in "\${!top[@]}"; do
    [ "$(printf %b "$mp")" = "$root" ] && continue
    case ,\${top[$mp]}, in *,ro,*) ;; *) echo "worker: $mp is still writable" >&2; exit 97;; esac
  done
  # Each line: its own PID namespace, and no CAP_SYS_ADMIN (it cannot remount anything writable).
  run=(unshare -pf --kill-child setpriv --bounding-set -sys_admin)
else
  run=()
fi
mkdir -p "$root/tmp"
n=0
while IFS= read -r -d '' rec; do
  t=\${rec%%$'\\n'*}
  line=\${rec#*$'\\n'}
  d=$out/$n
  mkdir -p "$d/w"
  env -C "$d/w" -i PATH="$bin:/usr/local/bin:/usr/bin:/bin" HOME="$d/w" TMPDIR="$root/tmp" LC_ALL=C.UTF-8 TERM=dumb \\
    "\${run[@]}" timeout -s KILL "$t" bash --norc --noprofile -c "$line" </dev/null >/dev/null 2>&1
  echo $? > "$d/rc"
  mv "$root/log" "$d/log" && mkdir "$root/log"
  n=$((n+1))
done < "$lines"
`;

// ---- running -----------------------------------------------------------------------------------

export interface Invocation {
  program: 'git' | 'gh';
  argv: string[];
  /** GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n pairs the fake saw. */
  config: Array<[string, string]>;
}

export interface RunResult {
  invocations: Invocation[];
  /** bash's exit status; 137 when the per-line timeout killed it. */
  rc: number;
}

const splitNul = (s: string): string[] => (s === '' ? [] : s.slice(0, -1).split('\0'));

function readResults(out: string, count: number): RunResult[] {
  const results: RunResult[] = [];
  for (let i = 0; i < count; i++) {
    const dir = path.join(out, String(i), 'log');
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir).sort();
    } catch {
      results.push({ invocations: [], rc: -1 });
      continue;
    }
    const invocations: Invocation[] = [];
    for (const n of names.filter((x) => x.endsWith('.argv'))) {
      const stem = n.slice(0, -'.argv'.length);
      const cfgFile = path.join(dir, `${stem}.cfg`);
      const cfg = fs.existsSync(cfgFile) ? splitNul(fs.readFileSync(cfgFile, 'utf8')) : [];
      const config: Array<[string, string]> = [];
      for (let k = 0; k + 1 < cfg.length; k += 2) config.push([cfg[k]!, cfg[k + 1]!]);
      invocations.push({ program: stem.startsWith('gh.') ? 'gh' : 'git', argv: splitNul(fs.readFileSync(path.join(dir, n), 'utf8')), config });
    }
    const rc = Number.parseInt(fs.readFileSync(path.join(out, String(i), 'rc'), 'utf8'), 10);
    results.push({ invocations, rc: Number.isNaN(rc) ? -1 : rc });
  }
  return results;
}

/** Seconds a line may run: `watch` never ends by itself, so it gets less. */
export const lineTimeout = (line: string): number => (/\bwatch\b/.test(line) ? 1.5 : 8);

let batchNo = 0;

/** The worker's exit status when it could not make everything outside the sandbox read-only. */
const SANDBOX_FAILED = 97;
const SANDBOX_FAILED_MESSAGE = 'differential sandbox: a mount outside the sandbox stayed writable; no line was run';

function prepareBatch(sb: Sandbox, lines: readonly string[]): { dir: string; args: string[]; cmd: string } {
  const dir = path.join(sb.root, `batch${batchNo++}`);
  fs.mkdirSync(path.join(dir, 'out'), { recursive: true });
  const file = path.join(dir, 'lines');
  fs.writeFileSync(file, lines.map((l) => `${lineTimeout(l)}\n${l}\0`).join(''));
  const worker = [path.join(sb.root, 'worker.sh'), file, path.join(dir, 'out'), sb.ns ? '1' : '0'];
  return sb.ns ? { dir, cmd: 'unshare', args: ['-rnm', 'bash', ...worker] } : { dir, cmd: 'bash', args: worker };
}

const batchEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' });

/** Runs the lines one after another (synchronously); one result per line. */
export function runLinesSync(sb: Sandbox, lines: readonly string[]): RunResult[] {
  const b = prepareBatch(sb, lines);
  const done = spawnSync(b.cmd, b.args, { stdio: 'ignore', env: batchEnv(), timeout: 60_000 + lines.length * 10_000 });
  if (done.status === SANDBOX_FAILED) {
    fs.rmSync(b.dir, { recursive: true, force: true });
    throw new Error(SANDBOX_FAILED_MESSAGE);
  }
  const r = readResults(path.join(b.dir, 'out'), lines.length);
  fs.rmSync(b.dir, { recursive: true, force: true });
  return r;
}

/** As runLinesSync, without blocking (for two workers side by side). */
export function runLines(sb: Sandbox, lines: readonly string[]): Promise<RunResult[]> {
  const b = prepareBatch(sb, lines);
  return new Promise((resolve, reject) => {
    const child = spawn(b.cmd, b.args, { stdio: 'ignore', env: batchEnv() });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000 + lines.length * 10_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === SANDBOX_FAILED) {
        fs.rmSync(b.dir, { recursive: true, force: true });
        reject(new Error(SANDBOX_FAILED_MESSAGE));
        return;
      }
      const r = readResults(path.join(b.dir, 'out'), lines.length);
      fs.rmSync(b.dir, { recursive: true, force: true });
      resolve(r);
    });
  });
}

// ---- judging -----------------------------------------------------------------------------------

export type Decide = (line: string, tier: Tier) => Decision;

/** The packs in `packsDir` compiled for both tiers, without user rules (config directory `configHome`). */
export async function loadPolicies(packsDir: string, configHome: string): Promise<Record<Tier, CompiledPolicy>> {
  const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome, BUCKLER_STATE_HOME: configHome }, platform: process.platform, home: configHome });
  return {
    baseline: (await loadPolicyReport(paths, { tier: 'baseline', examples: false, packsDir })).policy,
    strict: (await loadPolicyReport(paths, { tier: 'strict', examples: false, packsDir })).policy,
  };
}

/**
 * What the hook hands `evaluate` besides the policy (driver.ts `readers`): the script reader and
 * the git alias reader, here for a command run in an empty directory `home/cwd` with `home` as
 * HOME (no git config but what the line itself writes). Without them a shell whose script operand
 * is known only at run time (`… | sh $X`) would not count as an unseen script, and the in-process
 * decision would be weaker than the hook's.
 */
export function hookReaders(home: string): EvaluateOptions {
  const cwd = path.join(home, 'cwd');
  fs.mkdirSync(cwd, { recursive: true });
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
  return { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, env) };
}

/**
 * Buckler in process: the packs in `packsDir` compiled for both tiers (no user rules: the
 * config directory is `configHome`, normally an empty temporary directory), decided with the
 * same `evaluate` and readers the hook uses (`hookReaders`), trigger pre_shell_exec. Decisions
 * are memoised per line.
 */
export async function policyDecider(packsDir: string, configHome: string): Promise<Decide> {
  const policies = await loadPolicies(packsDir, configHome);
  const readers = hookReaders(configHome);
  const memo = new Map<string, Decision>();
  return (line, tier) => {
    const key = `${tier}\0${line}`;
    let d = memo.get(key);
    if (d === undefined) {
      d = evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command: line } }, policies[tier], readers).decision;
      if (memo.size > 200_000) memo.clear();
      memo.set(key, d);
    }
    return d;
  };
}

/** `git config [--global|--local|--system] alias.K V`, `git config set alias.K V`: K → V. */
function aliasesOf(invocations: readonly Invocation[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const inv of invocations) {
    if (inv.program !== 'git') continue;
    for (const [k, v] of inv.config) if (/^alias\./i.test(k)) out.set(k.slice(6), v);
    const a = inv.argv.filter((w) => !/^--(global|local|system|add|replace-all)$/.test(w));
    const i = a.indexOf('config');
    if (i < 0) continue;
    const rest = a[i + 1] === 'set' ? a.slice(i + 2) : a.slice(i + 1);
    if (rest.length >= 2 && /^alias\./i.test(rest[0]!)) out.set(rest[0]!.slice(6), rest[1]!);
  }
  return out;
}

/**
 * What a fake saw, as a plain command line: `git -c alias.K=V … ARGV…` with the aliases defined
 * earlier on the same line (`git config alias.K V`, GIT_CONFIG_* pairs) made inline, so Buckler's
 * own reading of a plain command decides whether the action is a guarded one.
 */
export function plainLine(inv: Invocation, aliases: ReadonlyMap<string, string>): string {
  const inline = inv.program === 'git' ? [...aliases].map(([k, v]) => `-c ${shq(`alias.${k}=${v}`)}`) : [];
  return [inv.program, ...inline, ...inv.argv.map(shq)].join(' ');
}

export type Outcome =
  /** bash ran a denied action and Buckler allowed the line (or only nudged): the failure. */
  | 'miss'
  /** bash ran a denied action and Buckler asked instead of denying (informational). */
  | 'asked'
  /** bash ran a denied action and Buckler denied the line. */
  | 'caught'
  /** bash ran no denied action and Buckler denied the line (false positive, informational). */
  | 'false-positive'
  /** bash ran no denied action and Buckler did not deny. */
  | 'quiet';

export interface Judged {
  case: Case;
  outcome: Outcome;
  decision: Decision;
  /** The denied actions bash ran, as plain lines. */
  ran: string[];
  rc: number;
}

export function judge(c: Case, r: RunResult, decide: Decide): Judged {
  const aliases = aliasesOf(r.invocations);
  const ran = r.invocations.map((inv) => plainLine(inv, aliases)).filter((l) => decide(l, c.tier) === 'deny');
  const decision = decide(c.line, c.tier);
  let outcome: Outcome;
  if (ran.length > 0) outcome = decision === 'deny' ? 'caught' : decision === 'ask' ? 'asked' : 'miss';
  else outcome = decision === 'deny' ? 'false-positive' : 'quiet';
  return { case: c, outcome, decision, ran, rc: r.rc };
}

// ---- known misses ------------------------------------------------------------------------------

/**
 * A class of misses: which generated cases it covers (by the features they used, in order), who
 * closes it, and one line that shows it (run by the in-suite test, so an entry whose example no
 * longer misses fails the suite and is removed).
 */
export interface MissClass {
  name: string;
  /** The issue and class in it that closes this; null when nobody is fixing it (reported, open). */
  fixedBy: string | null;
  example: string;
  /** The example reaches a fake only inside the private mount namespace. */
  ns?: boolean;
  matches(features: readonly string[]): boolean;
}

export const has = (...fs: string[]) => (features: readonly string[]): boolean => features.some((f) => fs.includes(f));
/** `first` used before (inside) a later `then` layer. */
export const inside = (first: readonly string[], then: readonly string[]) => (features: readonly string[]): boolean => {
  const i = features.findIndex((f) => first.includes(f));
  return i >= 0 && features.slice(i + 1).some((f) => then.includes(f));
};

/**
 * Miss classes expected on today's main. A miss is put in the first class that matches; a miss in
 * no class fails the in-suite test. Classes with `fixedBy: null` are open defects nobody is
 * fixing: they are reported on every run (and make scripts/fuzz-differential.mjs exit 1).
 */
export const MISS_CLASSES: MissClass[] = [
  // Empty: the last class ("shell with run-time arguments fed a literal script on stdin",
  // `echo '…' | sh $X`) was an artefact of deciding without the hook's script reader, with which
  // such a line is an unseen script and asks (guarded words). Add a class here when a run finds
  // misses that another issue will close, with an example line and who fixes it.
];

export function expectedMiss(j: Judged): MissClass | null {
  return MISS_CLASSES.find((k) => k.matches(j.case.features)) ?? null;
}

export interface Summary {
  total: number;
  counts: Record<Outcome, number>;
  misses: Judged[];
  /** Misses in no class: the in-suite test fails on these. */
  unexpected: Judged[];
  /** Misses in a class nobody is fixing (fixedBy null): reported. */
  open: Judged[];
  falsePositives: Judged[];
  /** Misses per feature (a miss counts for every feature its case used). */
  missFeatures: Record<string, number>;
  /** Misses per class (`(none)` for misses in no class). */
  missClasses: Record<string, number>;
}

export function summarize(judged: readonly Judged[]): Summary {
  const counts: Record<Outcome, number> = { miss: 0, asked: 0, caught: 0, 'false-positive': 0, quiet: 0 };
  const missFeatures: Record<string, number> = {};
  for (const j of judged) {
    counts[j.outcome]++;
    if (j.outcome === 'miss') for (const f of new Set(j.case.features)) missFeatures[f] = (missFeatures[f] ?? 0) + 1;
  }
  const misses = judged.filter((j) => j.outcome === 'miss');
  const missClasses: Record<string, number> = {};
  for (const j of misses) {
    const k = expectedMiss(j)?.name ?? '(none)';
    missClasses[k] = (missClasses[k] ?? 0) + 1;
  }
  return {
    missClasses,
    total: judged.length,
    counts,
    misses,
    unexpected: misses.filter((j) => expectedMiss(j) === null),
    open: misses.filter((j) => expectedMiss(j)?.fixedBy === null),
    falsePositives: judged.filter((j) => j.outcome === 'false-positive'),
    missFeatures,
  };
}
