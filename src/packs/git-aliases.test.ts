/**
 * git aliases against the default packs (issue #10, "Git aliases"): an alias defined on the
 * line (`git config alias.x …`, `-c`, `--config-env`, `GIT_CONFIG_*`) or in the configuration
 * (`PolicyInput.program_aliases`) is judged as what it runs, and writing an alias is judged as
 * running its value. Each class next to look-alikes that must stay allowed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AliasReader } from '../core/aliases.ts';
import type { Decision, PolicyInput, ProgramAliases } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import type { CompiledPolicy } from '../core/policy.ts';
import { resolvePaths } from '../paths.ts';
import { loadPolicyReport } from './runtime.ts';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-aliases-'));
afterAll(() => fs.rmSync(configHome, { recursive: true, force: true }));
const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: configHome });
const policy: CompiledPolicy = (await loadPolicyReport(paths, { tier: 'baseline', examples: false })).policy;

const FORCE = 'agent-git/no-force-push';
const COMMIT = 'agent-git/no-commit';
const OPAQUE = 'agent-git/opaque-git';

function decide(command: string, aliases?: ProgramAliases) {
  const input: PolicyInput = { policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command } };
  if (aliases) input.program_aliases = aliases;
  return evaluate(input, policy);
}

/** [command, decision, deciding rule (when it matters)] */
type Row = [string, Decision, string?];

function table(name: string, rows: Row[], aliases?: ProgramAliases): void {
  describe(name, () => {
    it.each(rows)('%s', (command, want, rule) => {
      const out = decide(command, aliases);
      expect(out.decision, JSON.stringify(out.commands)).toBe(want);
      if (rule !== undefined) expect(out.rule).toBe(rule);
    });
  });
}

table('aliases defined earlier (or anywhere) on the line', [
  ["git config alias.x 'push -f'; git x", 'deny', FORCE],
  ['git config alias.x push; git x -f', 'deny', FORCE],
  ['git config alias.x push && git x --force origin main', 'deny', FORCE],
  ['git config --global alias.x push; git x -f', 'deny', FORCE],
  ['git config --local --add alias.x push; git x -f', 'deny', FORCE],
  ['git config set alias.x push; git x -f', 'deny', FORCE],
  ['git config --file .git/config alias.x push; git x -f', 'deny', FORCE],
  ['git config Alias.X push; git x -f', 'deny', FORCE],
  ['git config alias.x push; git X -f', 'deny', FORCE],
  ['for i in 1 2; do git x -f; git config alias.x push; done', 'deny', FORCE],
  ['git config alias.x push; git config alias.x status; git x -f', 'deny', FORCE],
  ['git config alias.y x; git config alias.x push; git y -f', 'deny', FORCE],
  ['git config alias.cm commit; git cm -m wip', 'deny', COMMIT],
  ["git config alias.x '!git push -f'; git x", 'deny', FORCE],
  ["git config alias.x '!sh -c \"git push -f\"'", 'deny', FORCE],
  ["git config alias.x '-c user.name=a push'; git x -f", 'deny', FORCE],
  ["bash -c 'git config alias.x push; git x -f'", 'deny', FORCE],
  ['git config alias.x "$V"; git x', 'ask', OPAQUE],
  ['git config "alias.$N" push; git x -f', 'deny', FORCE],
  ["git config evil.x 'push -f'; git config --rename-section evil alias; git x", 'ask', OPAQUE],
  ["git config evil.x 'push -f'; git config rename-section evil alias; git x", 'ask', OPAQUE],
  ['git config --rename-section old "$NEW"; git x', 'ask', OPAQUE],
  // look-alikes
  ['git config alias.st status; git st', 'allow'],
  ['git config alias.st status; git st --short', 'allow'],
  ['git config --get alias.x', 'allow'],
  ['git config get alias.x', 'allow'],
  ['git config alias.x', 'allow'],
  ['git config --unset alias.x', 'allow'],
  ['git config --list', 'allow'],
  ['git config --rename-section old new; git x', 'allow'],
  ['git config --rename-section alias old; git st', 'allow'],
  ['git config user.name "push -f"', 'allow'],
  ['git config user.email "$EMAIL"', 'allow'],
  ['git config alias.lg "log --oneline"; git lg -5', 'allow'],
  // An alias never shadows a git command (git status stays status), but the write is judged.
  ['git config alias.status "push -f"; git status', 'deny', FORCE],
  ['git config alias.status log; git status', 'allow'],
  ["echo 'git config alias.x push -f' > notes.txt", 'allow'],
  ['git lfs pull', 'allow'],
]);

table('writing an alias is judged as running it', [
  ["git config alias.p 'push --force'", 'deny', FORCE],
  ['git config --global alias.p "push --force"', 'deny', FORCE],
  ['git config --global --add alias.p "push --force"', 'deny', FORCE],
  ['git config --replace-all alias.p "push --force" old', 'deny', FORCE],
  ['git config set --global alias.p "push --force"', 'deny', FORCE],
  ['git config --file=x.cfg alias.p "push --force"', 'deny', FORCE],
  ['git -C /r config alias.p "push --force"', 'deny', FORCE],
  ['git config alias.p.command "push --force"', 'deny', FORCE],
  ["git config alias.c 'commit -am wip'", 'deny', COMMIT],
  ["git config alias.c '!f() { git commit -m \"$1\"; }; f'", 'deny', COMMIT],
  ['git config alias.p "$CMD"', 'ask', OPAQUE],
  ['git config --rename-section evil alias', 'ask', OPAQUE],
  ['git config alias.p push', 'allow'],
  ['git config alias.p "push origin main"', 'allow'],
]);

table('-c and --config-env on the command', [
  ["git -c alias.x='push -f' x", 'deny', FORCE],
  ["git -c alias.x='!git push -f' x", 'deny', FORCE],
  ["git -c 'alias.x=!git push -f' x origin", 'deny', FORCE],
  ["V='push -f'; git --config-env=alias.x=V x", 'deny', FORCE],
  ["export V='push -f'; git --config-env alias.x=V x", 'deny', FORCE],
  ['git --config-env=alias.x=SOMEVAR x', 'ask', OPAQUE],
  ['git -c alias.x="$V" x', 'ask', OPAQUE],
  ['git -c "alias.$N=push -f" x', 'ask', OPAQUE],
  ['git -c "$KV" x', 'ask', OPAQUE],
  ['git -c "$KV" status', 'allow'],
  ['git -c user.name="$NAME" commit-graph write', 'allow'],
  // the command line wins over the configuration (git's order)
  ["git -c alias.x=status x", 'allow'],
  ["git -c alias.x=status x -s", 'allow'],
  ["V=status; git --config-env=alias.x=V x", 'allow'],
]);

table('through the environment on the line', [
  ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='push -f' git x", 'deny', FORCE],
  ["env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='push -f' git x", 'deny', FORCE],
  ["export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='push -f'; git x", 'deny', FORCE],
  ["export GIT_CONFIG_COUNT=1; export GIT_CONFIG_KEY_0=alias.x; export GIT_CONFIG_VALUE_0=push; git x -f", 'deny', FORCE],
  ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!git push -f' git x", 'deny', FORCE],
  ["GIT_CONFIG_PARAMETERS=\"'alias.x'='push -f'\" git x", 'deny', FORCE],
  ["GIT_CONFIG_PARAMETERS=\"'alias.x=push -f'\" git x", 'deny', FORCE],
  ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0="$V" git x', 'ask', OPAQUE],
  ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="$K" GIT_CONFIG_VALUE_0=push git x -f', 'deny', FORCE],
  ['export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0=status; read GIT_CONFIG_VALUE_0; git x', 'ask', OPAQUE],
  // look-alikes
  ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git commit-graph write', 'allow'],
  ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0='status -s' git st", 'allow'],
  ['GIT_CONFIG_KEY_0=alias.x git status', 'allow'],
]);

table(
  'aliases in the repository and user configuration',
  [
    ['git pf', 'deny', FORCE],
    ['git pf origin main', 'deny', FORCE],
    ['git p -f', 'deny', FORCE],
    ['git P -f', 'deny', FORCE],
    ['git sh', 'deny', FORCE],
    ['git chain', 'deny', FORCE],
    ['git loop', 'allow'],
    ['git -C /elsewhere pf', 'deny', FORCE],
    ['cd sub && git pf', 'deny', FORCE],
    ["bash -c 'git pf'", 'deny', FORCE],
    ['git ci -m x', 'deny', COMMIT],
    // both values of a name are judged: the repository's and the user's
    ['git twice', 'deny', FORCE],
    // look-alikes
    ['git st', 'allow'],
    ['git p origin main', 'allow'],
    ['git lg', 'allow'],
    ['git status', 'allow'],
    ['git unknown-thing', 'allow'],
    ['git -c alias.pf=status pf', 'allow'],
  ],
  {
    git: {
      pf: ['push --force'],
      p: ['push'],
      sh: ['!git push --force'],
      chain: ['p --force'],
      loop: ['loop2'],
      loop2: ['loop'],
      ci: ['commit'],
      st: ['status'],
      lg: ['log --oneline'],
      twice: ['push --force', 'status'],
      status: ['push --force'],
    },
  },
);

describe('bounds', () => {
  it('an alias chain longer than followed is unknown (ask); a shorter one is followed', () => {
    const chain: Record<string, string[]> = {};
    for (let i = 0; i < 50; i++) chain[`a${i}`] = [`a${i + 1}`];
    chain['a50'] = ['push --force'];
    expect(decide('git a0', { git: chain }).decision).toBe('ask');
    expect(decide('git a45', { git: chain }).decision).toBe('deny');
  });

  it('many candidates for one name give an unknown run (ask), not a blow-up', () => {
    const values = Array.from({ length: 40 }, (_, i) => `log -${i}`);
    expect(decide('git x', { git: { x: values } }).decision).toBe('ask');
  });
});

describe('configuration elsewhere: git -C, --git-dir, cd, and variables the line sets', () => {
  // A stand-in for the CLI's reader: aliases by directory and by overridden variable.
  const calls: string[] = [];
  const reader: AliasReader = (program, where) => {
    calls.push(`${program} ${JSON.stringify(where ?? null)}`);
    if (program !== 'git') return null;
    if (where?.dir === '/other' || where?.dir === '/a/other') return { x: ['push -f'] };
    if (where?.dir === 'sub') return { y: ['push -f'] };
    if (where?.env?.['GIT_DIR'] === '/e/.git') return { z: ['push -f'] };
    if (where?.env?.['HOME'] === '/h') return { h: ['push -f'] };
    if (where?.env?.['GIT_CONFIG_GLOBAL'] === '/tmp/g.cfg') return { g: ['commit'] };
    if (where?.include === '/inc.cfg') return { y: ['push -f'] };
    return { st: ['status'] };
  };
  const run = (command: string) =>
    evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command } }, policy, { readAliases: reader }).decision;

  it.each([
    ['git -C /other x', 'deny'],
    ['git -C /a -C other x', 'deny'],
    ['cd /other && git x', 'deny'],
    ['cd sub; git y -f', 'deny'],
    ['GIT_DIR=/e/.git git z', 'deny'],
    ['git --git-dir=/e/.git z', 'deny'],
    ['git --git-dir /e/.git z', 'deny'],
    ['export GIT_DIR=/e/.git; git z', 'deny'],
    ['HOME=/h git h', 'deny'],
    ['GIT_CONFIG_GLOBAL=/tmp/g.cfg git g -m x', 'deny'],
    ['git -c include.path=/inc.cfg y', 'deny'],
    ['git -c includeIf.onbranch:main.path=/inc.cfg y', 'deny'],
    ['F=/inc.cfg; git --config-env=include.path=F y', 'deny'],
    ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=include.path GIT_CONFIG_VALUE_0=/inc.cfg git y', 'deny'],
    ['git config include.path /inc.cfg; git y', 'deny'],
    ['git config --global includeIf.gitdir:~/.path /inc.cfg && git y', 'deny'],
    ['git -c include.path="$F" y', 'ask'],
    ['git config include.path "$F"; git y', 'ask'],
    ['cd "$D" && git x', 'ask'],
    ['git -C "$D" x', 'ask'],
    ['GIT_DIR=$(mktemp -d) git x', 'ask'],
    // look-alikes
    ['git x', 'allow'],
    ['git st', 'allow'],
    ['git -C /other status', 'allow'],
    ['cd /other && git status', 'allow'],
    ['cd "$D" && git status', 'allow'],
    ['GIT_DIR=/e/.git git log', 'allow'],
    ['git -c include.path=/inc.cfg status', 'allow'],
    // Not an alias, but a setting git acts on later for the person: agent-tamper/git-runs-later asks.
    ['git config include.path /inc.cfg', 'ask'],
    ['git config include.path "$F"; git status', 'ask'],
  ] as [string, Decision][])('%s → %s', (command, want) => {
    expect(run(command)).toBe(want);
  });

  it('reads nothing for a line whose git words are all git commands', () => {
    calls.length = 0;
    run('git status && git -C /other log --oneline && cd x && git push origin main');
    expect(calls).toEqual([]);
    run('git st');
    expect(calls).toEqual(['git null']);
  });
});
