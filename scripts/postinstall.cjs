#!/usr/bin/env node
// Runs after `npm install -g buckler-<version>.tgz` (or as a dependency): makes the V8 code cache
// beside the hook bundle (dist/.main-<digest>.v8cache, src/cli/loader.ts) while the installer can
// still write there. A global prefix is usually root-owned, so the hooks a person's harness runs
// later cannot write it themselves and would compile the bundle on every call without it.
//
// How: in a scratch HOME (nothing of the installer's own configuration is read or written), one
// `check` compiles the packs into that HOME's cache (a hook that compiles packs keeps no code
// cache), then an allow and a deny go through the hook of each harness whose shell tool covers a
// different part of the hook path. Each writes the parts it used into the cache.
//
// Never fails the install: a read-only directory, a missing bundle (an `npm ci` in a checkout runs
// this before the build) or any error leaves the hooks to run without the cache.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const entry = path.join(dist, 'buckler.cjs');

function writable(dir) {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// Only an installed copy (under node_modules): a checkout keeps its cache from its own hooks.
if (!root.split(path.sep).includes('node_modules') || !fs.existsSync(entry) || !writable(dist)) process.exit(0);

let home;
try {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-postinstall-'));
  const env = { PATH: process.env.PATH || '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' };
  const run = (args, input) => spawnSync(process.execPath, [entry, ...args], { cwd: home, env, input, stdio: ['pipe', 'ignore', 'ignore'], timeout: 30_000 });
  run(['check', 'git status']);
  const claude = (command) => JSON.stringify({ session_id: 's', transcript_path: '/dev/null', cwd: home, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });
  const cursor = (command) => JSON.stringify({ conversation_id: 'c', generation_id: 'g', model: 'm', workspace_roots: [home], hook_event_name: 'beforeShellExecution', command, cwd: home, sandbox: false });
  for (const command of ['git status', 'git push --force origin main']) {
    run(['--driver', 'claude-code'], claude(command));
    run(['--driver', 'cursor'], cursor(command));
  }
} catch {
  /* no cache: hooks compile the bundle each time, as before */
} finally {
  if (home !== undefined) fs.rmSync(home, { recursive: true, force: true });
}
