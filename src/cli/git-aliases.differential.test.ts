/**
 * Differential: real bash runs each line in a temporary repository with real git and
 * GIT_TRACE, which logs every git command git really ran after alias expansion
 * (`trace: built-in: git …`). Every one of them must be among the commands Buckler judged for
 * the line (with the CLI's config reader, as the hook uses it). The aliases only run harmless
 * commands (`version`, `log`, `status`), so nothing here needs a remote.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate } from '../core/evaluate.ts';
import type { CompiledPolicy } from '../core/policy.ts';
import { loadPolicyReport } from '../packs/runtime.ts';
import { resolvePaths } from '../paths.ts';
import { gitAliasReader } from './git-config.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-alias-diff-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const home = path.join(root, 'home');
const repo = path.join(root, 'repo');
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
const hasTools = spawnSync('git', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

const sh = (cwd: string, line: string, extra: Record<string, string> = {}) =>
  spawnSync('bash', ['-c', line], { cwd, env: { ...env, ...extra }, encoding: 'utf8' });

const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: path.join(root, 'cfg') }, platform: process.platform, home: path.join(root, 'cfg') });
const policy: CompiledPolicy = (await loadPolicyReport(paths, { tier: 'baseline', examples: false })).policy;

if (hasTools) {
  for (const d of [home, path.join(home, 'h2'), path.join(repo, 'src')]) fs.mkdirSync(d, { recursive: true });
  const setup = [
    'git init -q . && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init',
    "git config alias.v 'version --build-options'",
    "git config alias.q '\"log\" '\\''-1'\\'' --oneline'",
    "git config alias.opt '-c core.pager=cat log -1 --oneline'",
    "git config alias.a b && git config alias.b 'status --short'",
    "git config alias.bang '!git log -1 --oneline; git status --short'",
    'git init -q sub && git -C sub config alias.s status',
    `printf '[alias]\\n\\tinc = log -1 --oneline\\n' > ${root}/inc.cfg`,
    `printf '[alias]\\n\\th = log -1 --oneline\\n' > ${home}/h2/.gitconfig`,
    "git config --global alias.g 'status --short'",
  ];
  for (const step of setup) {
    const r = sh(repo, step);
    if (r.status !== 0) throw new Error(`${step}: ${r.stderr}`);
  }
}

/** Words of a trace line: git quotes a word with `'…'` (and `'\\''` for a quote) when it must. */
function traceWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else if (c === "'") {
      const j = text.indexOf("'", i + 1);
      cur += text.slice(i + 1, j);
      i = j;
      inWord = true;
    } else if (c === '\\') {
      cur += text[++i] ?? '';
      inWord = true;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/** The `git …` argv of every `trace: built-in:` line. */
function traced(file: string): string[][] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => /trace: built-in: git (.*)$/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(traceWords);
}

const LINES = [
  'git v',
  'git q',
  'git opt',
  'git a',
  'git bang',
  'git g',
  'git -c alias.x=version x',
  "git -c 'alias.x=log -1 --oneline' x",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='status --short' git x",
  "export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=version; git x",
  "GIT_CONFIG_PARAMETERS=\"'alias.x'='log -1 --oneline'\" git x",
  "export V='status --short'; git --config-env=alias.x=V x",
  "git config alias.w 'log -1 --oneline' && git w",
  'git -C sub s',
  'cd sub && git s',
  'GIT_DIR=sub/.git git s',
  `git -c include.path=${'$PWD'}/../inc.cfg inc`,
  `HOME=${'$HOME'}/h2 git h`,
  "bash -c 'git v'",
];

describe.skipIf(!hasTools)('every git command git runs through an alias is judged', () => {
  it.each(LINES)('%s', (line) => {
    const trace = path.join(root, `trace-${Math.random().toString(36).slice(2)}.log`);
    const r = sh(repo, line, { GIT_TRACE: trace });
    expect(r.status, r.stderr).toBe(0);
    const ran = traced(trace);
    expect(ran.length).toBeGreaterThan(0);
    // Buckler sees the line as the hook would: `$PWD`/`$HOME` written out (the agent's line is literal).
    const command = line.replaceAll('$PWD', repo).replaceAll('$HOME', home);
    const out = evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command, cwd: repo } }, policy, {
      readAliases: gitAliasReader(repo, env),
    });
    const judged = out.commands.filter((c) => c.argv[0] === 'git').map((c) => c.argv);
    for (const words of ran) {
      const seen = judged.some((argv) => argv.length >= words.length && words.every((w, i) => argv[argv.length - words.length + i] === w));
      expect(seen, `git ran \`git ${words.join(' ')}\`; judged: ${JSON.stringify(judged)}`).toBe(true);
    }
  });
});
