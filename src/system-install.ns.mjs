// The locked-down install, end to end, inside a private mount namespace (run by
// src/system-install.e2e.test.ts as `unshare -m --propagation private node THIS TARBALL SCRATCH UID`).
//
// /etc, /var/lib and /opt are overlaid with upper layers on a tmpfs at SCRATCH, so install
// --system writes only there; /usr/bin/logger is replaced by a recorder for the system-log check.
// Then, as the unused user id UID (setpriv, no useradd), every tamper route is tried and the
// wired hooks are fired again; a sudo-style grant is made and expires; uninstall --system runs.
// Prints one JSON object: { steps: [{ name, ok, detail }] }. Never throws past the end: each step
// records its outcome, the test asserts them.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const [tarball, scratch, uidText] = process.argv.slice(2);
const UID = Number(uidText);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SETUP = path.join(ROOT, 'scripts', 'setup.sh');
const SYSTEM_FILES = {
  cursor: '/etc/cursor/hooks.json',
  'claude-code': '/etc/claude-code/managed-settings.json',
  'gemini-cli': '/etc/gemini-cli/settings.json',
  'factory-droid': '/etc/factory/settings.json',
  'qwen-code': '/etc/qwen-code/settings.json',
};
const WATCHED = ['/opt/buckler', '/etc/buckler', '/var/lib/buckler', ...Object.values(SYSTEM_FILES).map((f) => path.dirname(f))];
const steps = [];
const step = (name, ok, detail = '') => steps.push({ name, ok: Boolean(ok), detail: String(detail).slice(0, 2000) });

function sh(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: 'utf8', timeout: 180_000, ...opts });
}

/** Every path under the watched places with a digest of each file: "as before" compares these. */
function snapshot() {
  const out = {};
  const walk = (p) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (st === undefined) return;
    if (st.isDirectory()) {
      out[p] = 'dir';
      for (const n of fs.readdirSync(p).sort()) walk(path.join(p, n));
    } else out[p] = st.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'other';
  };
  for (const w of WATCHED) walk(w);
  return out;
}

// ── the namespace's file systems ──────────────────────────────────────────────────────────
for (let d = path.dirname(scratch); d !== '/'; d = path.dirname(d)) {
  if ((fs.statSync(d).mode & 0o001) === 0) throw new Error(`${d} cannot be entered by other users: the person could not reach their home`);
}
execFileSync('mount', ['-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', scratch]);
for (const d of ['/etc', '/var/lib', '/opt']) {
  const n = d.replaceAll('/', '_');
  fs.mkdirSync(`${scratch}/${n}-u`);
  fs.mkdirSync(`${scratch}/${n}-w`);
  execFileSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${d},upperdir=${scratch}/${n}-u,workdir=${scratch}/${n}-w`, d]);
}
const syslog = `${scratch}/syslog.txt`;
fs.writeFileSync(syslog, '', { mode: 0o666 });
fs.chmodSync(syslog, 0o666);
fs.writeFileSync(`${scratch}/logger`, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${syslog}\n`, { mode: 0o755 });
let loggerFaked = false;
for (const l of ['/usr/bin/logger', '/bin/logger']) {
  if (fs.existsSync(l) && !loggerFaked) {
    execFileSync('mount', ['--bind', `${scratch}/logger`, l]);
    loggerFaked = true;
  }
}

// Root's commands get a scratch home too: nothing may land in the real /root.
const rootHome = `${scratch}/root`;
fs.mkdirSync(rootHome, { mode: 0o700 });

const before = snapshot();

// ── install ───────────────────────────────────────────────────────────────────────────────
const install = sh('bash', [SETUP, 'install', '--system', '--from', tarball], { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: rootHome } });
step('install --system', install.status === 0, install.stdout + install.stderr);
const protects = /protects: ([^;]*);/.exec(install.stdout)?.[1] ?? '';
step('install names what it protects', protects.split(' ').sort().join(' ') === Object.keys(SYSTEM_FILES).sort().join(' '), protects);
const v8 = fs.existsSync('/opt/buckler/current/dist') ? fs.readdirSync('/opt/buckler/current/dist').filter((f) => f.endsWith('.v8cache')) : [];
step('code cache made at install time', v8.length === 1, v8.join(','));
const cacheFiles = fs.existsSync('/opt/buckler/cache') ? fs.readdirSync('/opt/buckler/cache') : [];
step('packs compiled at install time', cacheFiles.some((f) => f.endsWith('.json')), cacheFiles.join(','));
const refusedAsUser = sh('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', 'bash', SETUP, 'install', '--system'], { env: { PATH: '/usr/bin:/bin', HOME: '/' } });
step('install --system refused for a non-root user', refusedAsUser.status !== 0 && /must run as root/.test(refusedAsUser.stderr), refusedAsUser.stderr);

// ── the person ────────────────────────────────────────────────────────────────────────────
const home = `${scratch}/home`;
const project = `${home}/project`;
fs.mkdirSync(`${project}/.git`, { recursive: true });
fs.mkdirSync(`${home}/.config/buckler`, { recursive: true });
fs.writeFileSync(`${home}/.config/buckler/config.toml`, '[core]\ntier = "baseline"\n');
execFileSync('chown', ['-R', `${UID}:${UID}`, home]);
const personEnv = { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C' };

function asPerson(command, input, extraEnv = {}) {
  return sh('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', '/bin/sh', '-c', command], { env: { ...personEnv, ...extraEnv }, cwd: project, input });
}

/** The command wired for the pre-tool event in a harness's system settings file. */
function wiredCommand(file) {
  const cfg = JSON.parse(fs.readFileSync(file, 'utf8'));
  const events = ['PreToolUse', 'BeforeTool', 'beforeShellExecution'];
  for (const e of events) {
    for (const g of cfg.hooks?.[e] ?? []) {
      const c = g.command ?? g.hooks?.[0]?.command;
      if (typeof c === 'string' && c.includes('/opt/buckler/')) return c;
    }
  }
  throw new Error(`no Buckler hook in ${file}`);
}

function payload(harness, command) {
  const base = { session_id: 's', transcript_path: '/dev/null', cwd: project };
  switch (harness) {
    case 'cursor':
      return { conversation_id: 'c', generation_id: `g${Math.random()}`, model: 'm', cursor_version: '2.6.14', workspace_roots: [project], hook_event_name: 'beforeShellExecution', command, cwd: project, sandbox: false };
    case 'claude-code':
      return { ...base, permission_mode: 'bypassPermissions', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' };
    case 'factory-droid':
      return { ...base, permission_mode: 'auto-high', hook_event_name: 'PreToolUse', tool_name: 'Execute', tool_input: { command } };
    case 'gemini-cli':
      return { ...base, hook_event_name: 'BeforeTool', timestamp: '2026-01-01T00:00:00Z', tool_name: 'run_shell_command', tool_input: { command } };
    case 'qwen-code':
      return { ...base, hook_event_name: 'PreToolUse', permission_mode: 'yolo', tool_name: 'run_shell_command', tool_input: { command }, tool_use_id: 't' };
  }
  throw new Error(harness);
}

/** allow | deny | ask | error:<why>, from the harness's reply. */
function decision(harness, r) {
  if (r.status === 2) return 'deny';
  if (r.status !== 0) return `error:${r.status}:${r.stderr}`;
  const out = r.stdout.trim() === '' ? {} : JSON.parse(r.stdout);
  const d = out.permission ?? out.hookSpecificOutput?.permissionDecision ?? out.decision ?? 'allow';
  return d === 'block' ? 'deny' : d;
}

function fire(harness, command, extraEnv = {}) {
  const wired = wiredCommand(SYSTEM_FILES[harness]);
  const r = asPerson(wired, JSON.stringify(payload(harness, command)), extraEnv);
  return decision(harness, r);
}

function checkAll(label, extraEnv = {}) {
  for (const h of Object.keys(SYSTEM_FILES)) {
    let deny, look;
    try {
      deny = fire(h, 'git push --force origin main', extraEnv);
      look = fire(h, 'git push origin main', extraEnv);
    } catch (e) {
      deny = look = `error:${e.message}`;
    }
    step(`${label}: ${h} denies git push --force`, deny === 'deny', deny);
    step(`${label}: ${h} lets the look-alike git push through`, look === 'allow', look);
  }
}

checkAll('after install');

// ── tamper, as the person ─────────────────────────────────────────────────────────────────
const buckler = fs.realpathSync('/opt/buckler/current');
const targets = [
  `${buckler}/dist/main.cjs`,
  `${buckler}/dist/buckler.cjs`,
  `${buckler}/dist/${v8[0] ?? 'x.v8cache'}`,
  `${buckler}/packs/agent-git.yaml`,
  ...cacheFiles.map((f) => `/opt/buckler/cache/${f}`),
  '/opt/buckler/bin/buckler',
  '/etc/buckler/config.toml',
  '/etc/buckler/rules.d/allow-all.yaml',
  '/etc/buckler/bundles/evil.bundle',
  ...Object.values(SYSTEM_FILES),
  `/var/lib/buckler/${UID}/allow-once.json`,
  `/var/lib/buckler/${UID}/trust.json`,
];
const forged = JSON.stringify({ version: 1, entries: [{ id: 'forged', argv: ['git', 'push', '--force', 'origin', 'main'], project, created: Date.now(), expires: Date.now() + 3600_000, uses: 100, used: 0, calls: [] }] });
for (const t of targets) {
  const r1 = sh('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', 'python3', '-c', 'import sys; open(sys.argv[1], "w").write(sys.argv[2])', t, forged], { env: personEnv });
  const r2 = sh('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', process.execPath, '-e', 'require("fs").writeFileSync(process.argv[1], process.argv[2])', t, forged], { env: personEnv });
  const r3 = sh('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', 'sh', '-c', 'rm -f "$1" && ln -s /dev/null "$1"', 'sh', t], { env: personEnv });
  step(`tamper refused by the OS: ${t}`, r1.status !== 0 && r2.status !== 0 && r3.status !== 0, `${r1.stderr.split('\n').slice(-2).join(' ')} | ${r2.status} | ${r3.status}`);
}
// What the person can write: their own config, rules, start-up files, harness settings and a
// store of the ordinary install. Each must leave the decisions alone.
const personWrites = [
  [`${home}/.config/buckler/config.toml`, '[core]\ntier = "baseline"\n[packs.agent-git]\nenabled = false\n[packs.agent-tamper]\nenabled = false\n'],
  [`${home}/.config/buckler/rules.d/allow.yaml`, 'pack: person-allow\nrules:\n  - id: let-push\n    trigger: [pre_shell_exec, pre_shell_tool]\n    match:\n      shell_segments:\n        - program: git\n          subcommand: push\n    action: allow\n    priority: 1000\n'],
  [`${home}/.local/state/buckler/allow-once.json`, forged],
  [`${home}/.bashrc`, 'export BUCKLER_BYPASS=1 RETHUNK_ALLOW_SHELL=1\n'],
  [`${home}/.profile`, 'export BUCKLER_CONFIG_HOME=/tmp/evil XDG_CONFIG_HOME=/tmp/evil\n'],
  [`${home}/.claude/settings.json`, '{"disableAllHooks": true, "hooks": {}}'],
  [`${home}/.gemini/settings.json`, '{"hooksConfig": {"enabled": false}, "hooks": {}}'],
  [`${home}/.qwen/settings.json`, '{"hooks": {}}'],
  [`${home}/.factory/settings.json`, '{"hooks": {}}'],
  [`${home}/.cursor/hooks.json`, '{"version": 1, "hooks": {}}'],
  [`${project}/.buckler/rules.d/allow.yaml`, 'pack: project-allow\nrules:\n  - id: let-push\n    trigger: [pre_shell_exec, pre_shell_tool]\n    match:\n      shell_segments:\n        - program: git\n          subcommand: push\n    action: allow\n    priority: 1000\n'],
  [`${project}/.claude/settings.local.json`, '{"disableAllHooks": true}'],
];
for (const [file, text] of personWrites) {
  const r = sh('setpriv', [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', 'python3', '-c', 'import os, sys; os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True); open(sys.argv[1], "w").write(sys.argv[2])', file, text], { env: personEnv });
  step(`person writes ${file.replace(home, '~')}`, r.status === 0, r.stderr);
}
checkAll('after tamper');
checkAll('with bypass and location variables', {
  BUCKLER_BYPASS: '1',
  RETHUNK_ALLOW_SHELL: '1',
  BUCKLER_CONFIG_HOME: `${home}/evil`,
  BUCKLER_STATE_HOME: `${home}/.local/state/buckler`,
  XDG_CONFIG_HOME: `${home}/evil`,
  BUCKLER_DRIVER: 'cursor',
});
// The system config can let the bypass and the location variables count (off by default).
const configOrig = fs.readFileSync('/etc/buckler/config.toml', 'utf8');
// install wrote both keys as false (setup.sh bk_system_config_template).
const withSystem = (key, value) => configOrig.replace(new RegExp(`^${key} = false$`, 'm'), `${key} = ${value}`);
fs.mkdirSync(`${home}/alt/buckler/rules.d`, { recursive: true });
fs.writeFileSync(`${home}/alt/buckler/rules.d/no-status.yaml`, 'pack: person-alt\nrules:\n  - id: no-status\n    trigger: [pre_shell_exec, pre_shell_tool]\n    match:\n      shell_segments:\n        - program: git\n          subcommand: status\n    action: deny\n    user_message: not here\n    agent_message: not here\n');
execFileSync('chown', ['-R', `${UID}:${UID}`, `${home}/alt`]);
const altEnv = { XDG_CONFIG_HOME: `${home}/alt` };
step('install writes allow_bypass and allow_location_variables off', /^allow_bypass = false$/m.test(configOrig) && /^allow_location_variables = false$/m.test(configOrig), configOrig);
step('location variables ignored by default: the rules they point at do not load', fire('claude-code', 'git status', altEnv) === 'allow');
fs.writeFileSync('/etc/buckler/config.toml', withSystem('allow_bypass', 'true'));
const bypassed = fire('claude-code', 'git push --force origin main', { BUCKLER_BYPASS: '1' });
const notBypassed = fire('claude-code', 'git push --force origin main');
step('[system] allow_bypass = true: the bypass counts', bypassed === 'allow' && notBypassed === 'deny', `${bypassed} ${notBypassed}`);
fs.writeFileSync('/etc/buckler/config.toml', withSystem('allow_bypass', '"yes"'));
const badBypass = fire('claude-code', 'git push --force origin main', { BUCKLER_BYPASS: '1' });
step('[system] allow_bypass = "yes" (a bad value) allows nothing', badBypass === 'deny', badBypass);
fs.writeFileSync('/etc/buckler/config.toml', withSystem('allow_location_variables', 'true'));
const moved = fire('claude-code', 'git status', altEnv);
const movedBypass = fire('claude-code', 'git push --force origin main', { BUCKLER_BYPASS: '1' });
step('[system] allow_location_variables = true: XDG_CONFIG_HOME moves the person\'s rules, not the bypass', moved === 'deny' && movedBypass === 'deny', `${moved} ${movedBypass}`);
fs.writeFileSync('/etc/buckler/config.toml', configOrig);
const tight = fire('claude-code', 'git push origin main');
step('the look-alike still passes with the person\'s tighten-only rules and config loaded', tight === 'allow', tight);
const logged = fs.readFileSync(syslog, 'utf8');
step('denies go to the system log', !loggerFaked || /decision=deny .*git push --force origin main/.test(logged), logged.split('\n').slice(-3).join(' | '));

// ── a sudo-style grant, bounded by time ───────────────────────────────────────────────────
// Long enough for a few hooks on a loaded machine (each compiles: the system config changed).
const GRANT_S = 20;
const configBefore = fs.readFileSync('/etc/buckler/config.toml', 'utf8');
fs.writeFileSync('/etc/buckler/config.toml', configBefore.replace(/grant_seconds = \d+/, `grant_seconds = ${GRANT_S}`));
const launcher = '/opt/buckler/bin/buckler';
const noSudo = sh(launcher, ['allow', '--project', project, 'git', 'push', '--force', 'origin', 'main'], { env: { PATH: '/usr/bin:/bin', HOME: rootHome }, cwd: project });
step('allow as root without SUDO_UID is refused', noSudo.status !== 0 && /SUDO_UID/.test(noSudo.stderr), noSudo.stderr);
const byPerson = asPerson(`${launcher} allow --project ${project} git push --force origin main`, '');
step('allow by the person is refused', byPerson.status !== 0 && /administrator/.test(byPerson.stderr), byPerson.stderr);
const grant = sh(launcher, ['allow', '--project', project, 'git', 'push', '--force', 'origin', 'main'], { env: { PATH: '/usr/bin:/bin', HOME: rootHome, SUDO_UID: String(UID), SUDO_GID: String(UID) }, cwd: project });
const granted = Date.now();
step('sudo allow grants for SUDO_UID, time-bound, and says so', grant.status === 0 && /bounded by time only/.test(grant.stdout) && new RegExp(`for ${GRANT_S} s`).test(grant.stdout), grant.stdout + grant.stderr);
const st = fs.statSync(`/var/lib/buckler/${UID}/allow-once.json`, { throwIfNoEntry: false });
step('the grant store is root-owned and not writable by the person', st !== undefined && st.uid === 0 && (st.mode & 0o022) === 0, st ? `${st.uid} ${(st.mode & 0o777).toString(8)}` : 'absent');
const during = fire('claude-code', 'git push --force origin main');
const duringAgain = fire('claude-code', 'git push --force origin main');
const other = fire('claude-code', 'git push --force origin other');
step('the granted command passes while the grant lasts (every time)', during === 'allow' && duringAgain === 'allow', `${during} ${duringAgain}, ${Date.now() - granted} ms after the grant of ${GRANT_S} s`);
step('another command is still denied during the grant', other === 'deny', other);
// Switching allow off in the system config stops a live grant too.
fs.writeFileSync('/etc/buckler/config.toml', configBefore.replace(/grant_seconds = \d+/, `grant_seconds = ${GRANT_S}`).replace(/allow = true/, 'allow = false'));
const grantOff = fire('claude-code', 'git push --force origin main');
const offAt = Date.now() - granted;
fs.writeFileSync('/etc/buckler/config.toml', configBefore.replace(/grant_seconds = \d+/, `grant_seconds = ${GRANT_S}`));
step('[system] allow = false: a live grant is not used', grantOff === 'deny' && offAt < GRANT_S * 1000, `${grantOff}, ${offAt} ms after the grant of ${GRANT_S} s`);
const wait = granted + GRANT_S * 1000 + 500 - Date.now();
if (wait > 0) execFileSync('sleep', [String(wait / 1000)]);
const after = fire('claude-code', 'git push --force origin main');
step('the grant expires', after === 'deny', after);
const tooLong = sh(launcher, ['allow', '--for', '11m', 'git', 'status'], { env: { PATH: '/usr/bin:/bin', HOME: rootHome, SUDO_UID: String(UID) }, cwd: project });
step('a grant longer than 10 minutes is refused', tooLong.status === 2, tooLong.stderr);
fs.writeFileSync('/etc/buckler/config.toml', configBefore.replace(/allow = true/, 'allow = false'));
const off = sh(launcher, ['allow', 'git', 'status'], { env: { PATH: '/usr/bin:/bin', HOME: rootHome, SUDO_UID: String(UID) }, cwd: project });
step('the system config switches allow off', off.status === 1 && /allow off/.test(off.stderr), off.stderr);
fs.writeFileSync('/etc/buckler/config.toml', configBefore);

// ── sudo-style trust of project rules ────────────────────────────────────────────────────
const rootEnv = { PATH: '/usr/bin:/bin', HOME: rootHome };
const trustNoSudo = sh(launcher, ['trust', '--project', project], { env: rootEnv, cwd: project });
step('trust as root without SUDO_UID is refused', trustNoSudo.status !== 0 && /SUDO_UID/.test(trustNoSudo.stderr), trustNoSudo.stderr);
const trustByPerson = asPerson(`${launcher} trust --project ${project}`, '');
step('trust by the person is refused', trustByPerson.status !== 0 && /administrator/.test(trustByPerson.stderr), trustByPerson.stderr);
const untrusted = fire('claude-code', 'git push --force origin main');
step('untrusted project allow rules do not loosen', untrusted === 'deny', untrusted);
const trust = sh(launcher, ['trust', '--project', project], { env: { ...rootEnv, SUDO_UID: String(UID) }, cwd: project });
const tst = fs.statSync(`/var/lib/buckler/${UID}/trust.json`, { throwIfNoEntry: false });
step('sudo trust records for SUDO_UID in a root-owned store the person can read', trust.status === 0 && tst !== undefined && tst.uid === 0 && (tst.mode & 0o777) === 0o644, `${trust.stdout}${trust.stderr} ${tst ? (tst.mode & 0o777).toString(8) : 'absent'}`);
const trusted = fire('claude-code', 'git push --force origin main');
step('rules the administrator trusted count like the system\'s own', trusted === 'allow', trusted);
fs.writeFileSync('/etc/buckler/config.toml', configBefore.replace(/trust = true/, 'trust = false'));
const trustOff = fire('claude-code', 'git push --force origin main');
fs.writeFileSync('/etc/buckler/config.toml', configBefore);
step('[system] trust = false: a project trusted before only tightens', trustOff === 'deny', trustOff);
const revoke = sh(launcher, ['trust', '--revoke', '--project', project], { env: { ...rootEnv, SUDO_UID: String(UID) }, cwd: project });
const revoked = fire('claude-code', 'git push --force origin main');
step('after sudo trust --revoke, denied again', revoke.status === 0 && revoked === 'deny', `${revoke.stderr} ${revoked}`);

// ── replay and the dropped-rules check load the policy as the hook does ─────────────────────
// The person's own rules.d: a rule that tightens (loads, tighten-only) and one that is broken.
const personRules = `${home}/.config/buckler/rules.d`;
fs.writeFileSync(`${personRules}/no-log.yaml`, 'pack: person-log\nrules:\n  - id: no-log\n    trigger: [pre_shell_exec, pre_shell_tool]\n    match:\n      shell_segments:\n        - program: git\n          subcommand: log\n    action: deny\n    user_message: not here\n    agent_message: not here\n');
fs.writeFileSync(`${personRules}/broken.yaml`, 'pack: person-broken\nrules:\n  - id: bad\n    trigger: pre_shell_exec\n    match: { shell_segments: [{ program: curl }] }\n    action: block\n');
execFileSync('chown', ['-R', `${UID}:${UID}`, personRules]);
const logDenied = fire('claude-code', 'git log --oneline');
step('the person\'s own tightening rule denies in the hook', logDenied === 'deny', logDenied);
const replay = asPerson(`${launcher} replay --json`, '');
const replayChanges = replay.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
const auditText = fs.readFileSync(`${home}/.local/state/buckler/audit.jsonl`, 'utf8');
step('replay (as the person) loads the layered policy: the hook\'s deny of git log stays a deny', replay.status === 0 && auditText.includes('git log --oneline') && !replayChanges.some((c) => c.command === 'git log --oneline'), `${replay.status} ${replay.stdout.slice(0, 500)} ${replay.stderr.slice(0, 500)}`);
const status = asPerson(`${launcher} hooks status`, '');
step('hooks status (as the person) names the person\'s dropped rule', /rules not loaded/.test(status.stdout) && /broken\.yaml/.test(status.stdout), status.stdout + status.stderr);
fs.rmSync(`${personRules}/no-log.yaml`);
fs.rmSync(`${personRules}/broken.yaml`);

// ── after the administrator edits /etc/buckler: recompile ────────────────────────────────
const cacheDir = '/opt/buckler/cache';
const cacheTimes = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).map((f) => fs.statSync(path.join(cacheDir, f)).mtimeMs) : []);
const oldCache = cacheTimes();
step('the compiled-pack cache made at install time is still there', oldCache.length > 0, fs.existsSync(cacheDir) ? 'empty' : 'absent');
const recompile = sh('bash', [SETUP, 'update', '--system', '--recompile'], { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: rootHome } });
const newCache = cacheTimes();
step('update --system --recompile remakes the root-owned cache', recompile.status === 0 && newCache.length > 0 && Math.min(...newCache) > Math.max(0, ...oldCache), recompile.stdout + recompile.stderr);
const afterRecompile = fire('claude-code', 'git push --force origin main');
step('after recompile: still denied', afterRecompile === 'deny', afterRecompile);

// ── doctor, as the person ─────────────────────────────────────────────────────────────────
const doctor = asPerson(`${launcher} doctor`, '');
step('doctor names the locked-down mode and the unprotected harnesses', /locked-down install/.test(doctor.stdout + doctor.stderr) && /not protected[^\n]*copilot-cli/.test(doctor.stdout + doctor.stderr), doctor.stdout + doctor.stderr);

// ── uninstall ─────────────────────────────────────────────────────────────────────────────
const uninstall = sh('bash', [SETUP, 'uninstall', '--system'], { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: rootHome } });
step('uninstall --system', uninstall.status === 0, uninstall.stdout + uninstall.stderr);
const left = snapshot();
const diff = [...new Set([...Object.keys(before), ...Object.keys(left)])].filter((k) => before[k] !== left[k]);
step('uninstall leaves the namespace as before', diff.length === 0, diff.join(', '));

process.stdout.write(`${JSON.stringify({ steps })}\n`);
