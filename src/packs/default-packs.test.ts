/**
 * The default packs against docs/packs.md ("Default packs", the behaviour contract): every class,
 * many spellings per class, both tiers, the must-not-deny list, after-action nudges, bypass and
 * fail-closed parsing. The real pack files, loaded as a user would load them (isolated config).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Decision, PolicyInput, Trigger } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import type { CompiledPolicy, Tier } from '../core/policy.ts';
import { builtinPacksDir, resolvePaths } from '../paths.ts';
import { loadPolicyReport } from './runtime.ts';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-packs-'));
afterAll(() => fs.rmSync(configHome, { recursive: true, force: true }));
// This file is agent-git's and agent-gh's contract: the other builtin packs (each with its own
// tests, e.g. protection-packs.test.ts) are switched off, as a person can in config.toml.
const others = fs
  .readdirSync(builtinPacksDir())
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => f.replace(/\.ya?ml$/, ''))
  .filter((id) => id !== 'agent-git' && id !== 'agent-gh');
fs.writeFileSync(path.join(configHome, 'config.toml'), `[packs]\n${others.map((id) => `${id} = { enabled = false }\n`).join('')}`);

const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: configHome });
const policies: Record<Tier, CompiledPolicy> = {
  baseline: (await loadPolicyReport(paths, { tier: 'baseline', examples: false })).policy,
  strict: (await loadPolicyReport(paths, { tier: 'strict', examples: false })).policy,
};

function decide(command: string, tier: Tier = 'baseline', trigger: Trigger = 'pre_shell_exec', env?: Record<string, string>) {
  const input: PolicyInput = { policy_io_version: '1', trigger, shell: { command } };
  if (env) input.env = env;
  return evaluate(input, policies[tier]);
}

/** [command, baseline decision, strict decision (default: same), deciding rule in baseline] */
type Row = [string, Decision, Decision?, string?];

function table(name: string, rows: Row[]): void {
  describe(name, () => {
    it.each(rows)('%s', (command, baseline, strict, rule) => {
      const b = decide(command, 'baseline');
      expect(b.decision, `baseline: ${JSON.stringify(b.commands)}`).toBe(baseline);
      if (rule !== undefined) expect(b.rule).toBe(rule);
      expect(decide(command, 'strict').decision, 'strict').toBe(strict ?? baseline);
      expect(decide(command, 'baseline', 'pre_shell_tool').decision, 'pre_shell_tool').toBe(baseline);
      if (b.decision === 'deny') {
        expect(b.user_message).toBeTruthy();
        expect(b.agent_message).toBeTruthy();
      }
      if (b.decision === 'nudge') expect(b.additional_context).toBeTruthy();
    });
  });
}

const COMMIT = 'agent-git/no-commit';
table('agent-git: git commit in any form → deny', [
  ['git commit -m x', 'deny', 'deny', COMMIT],
  ['git commit --amend', 'deny', 'deny', COMMIT],
  ['git commit --amend --no-edit', 'deny', 'deny', COMMIT],
  ['git commit -a -m wip', 'deny', 'deny', COMMIT],
  ['git commit -am wip', 'deny', 'deny', COMMIT],
  ['echo msg | git commit -F -', 'deny', 'deny', COMMIT],
  ['git commit --allow-empty -m x', 'deny', 'deny', COMMIT],
  ['git -C /repo commit -m x', 'deny', 'deny', COMMIT],
  ['git -c user.name=bot -c user.email=b@x commit -m x', 'deny', 'deny', COMMIT],
  ['git --git-dir=/r/.git commit -m x', 'deny', 'deny', COMMIT],
  ['git --git-dir /r/.git --work-tree=/r commit', 'deny', 'deny', COMMIT],
  ['git --work-tree /r commit', 'deny', 'deny', COMMIT],
  ['git --no-pager commit', 'deny', 'deny', COMMIT],
  ['git -C /a -c x=y --no-pager -p --namespace n commit -q', 'deny', 'deny', COMMIT],
  ['git --exec-path=/usr/lib/git-core commit', 'deny', 'deny', COMMIT],
  ['/usr/bin/git commit -m x', 'deny', 'deny', COMMIT],
  ['./git commit -m x', 'deny', 'deny', COMMIT],
  ['GIT commit -m x', 'deny', 'deny', COMMIT],
  ['git.exe commit -m x', 'deny', 'deny', COMMIT],
  ['"git" commit -m x', 'deny', 'deny', COMMIT],
  ["'git' 'commit' -m x", 'deny', 'deny', COMMIT],
  ["git co''mmit -m x", 'deny', 'deny', COMMIT],
  ['git "com"mit -m x', 'deny', 'deny', COMMIT],
  ['git c\\ommit -m x', 'deny', 'deny', COMMIT],
  ['g\\it commit -m x', 'deny', 'deny', COMMIT],
  ["$'git' commit", 'deny', 'deny', COMMIT],
  ["$'\\x67it' commit", 'deny', 'deny', COMMIT],
  ["git $'\\x63ommit' -m x", 'deny', 'deny', COMMIT],
  ['git \\\ncommit -m x', 'deny', 'deny', COMMIT],
  ['git add . && git commit -m x', 'deny', 'deny', COMMIT],
  ['git status; git commit -m x', 'deny', 'deny', COMMIT],
  ['git status || git commit -m x', 'deny', 'deny', COMMIT],
  ['git status\ngit commit -m x', 'deny', 'deny', COMMIT],
  ['# deploy\ngit commit -m x', 'deny', 'deny', COMMIT],
  ['git commit -m x &', 'deny', 'deny', COMMIT],
  ['git commit -m x 2>&1 | tee log', 'deny', 'deny', COMMIT],
  ['! git commit -m x', 'deny', 'deny', COMMIT],
  ['FOO=1 git commit -m x', 'deny', 'deny', COMMIT],
  ['echo $(git commit -m x)', 'deny', 'deny', COMMIT],
  ['echo "$(git commit -m x)"', 'deny', 'deny', COMMIT],
  ['echo `git commit -m x`', 'deny', 'deny', COMMIT],
  ['x=$(git commit -m x)', 'deny', 'deny', COMMIT],
  ['export A=$(git commit -m x)', 'deny', 'deny', COMMIT],
  ['diff <(git commit -m x) y', 'deny', 'deny', COMMIT],
  ['cat > out.txt <<EOF\n$(git commit -m x)\nEOF', 'deny', 'deny', COMMIT],
  ['(cd x && git commit -m x)', 'deny', 'deny', COMMIT],
  ['{ git commit -m x; }', 'deny', 'deny', COMMIT],
  ['if true; then git commit -m x; fi', 'deny', 'deny', COMMIT],
  ['for i in 1 2; do git commit -m $i; done', 'deny', 'deny', COMMIT],
  ['while false; do git commit -m x; done', 'deny', 'deny', COMMIT],
  ['case $x in a) git commit -m x;; esac', 'deny', 'deny', COMMIT],
  ['f() { git commit -m x; }; f', 'deny', 'deny', COMMIT],
  ['[[ -n "$(git commit -m x)" ]]', 'deny', 'deny', COMMIT],
  ['git -c alias.ci=commit ci -m x', 'deny', 'deny', COMMIT],
  ["git -c 'alias.ci=commit -a' ci -m x", 'deny', 'deny', COMMIT],
  ['sudo git commit -m x', 'deny', 'deny', COMMIT],
  ['sudo -u bob git commit -m x', 'deny', 'deny', COMMIT],
  ['env git commit -m x', 'deny', 'deny', COMMIT],
  ['env -i A=1 git commit -m x', 'deny', 'deny', COMMIT],
  ['command git commit -m x', 'deny', 'deny', COMMIT],
  ['exec git commit -m x', 'deny', 'deny', COMMIT],
  ['time git commit -m x', 'deny', 'deny', COMMIT],
  ['nice -n 5 git commit -m x', 'deny', 'deny', COMMIT],
  ['nohup git commit -m x', 'deny', 'deny', COMMIT],
  ['timeout 30 git commit -m x', 'deny', 'deny', COMMIT],
  ['xargs git commit -m x < /dev/null', 'deny', 'deny', COMMIT],
  ['find . -maxdepth 0 -exec git commit -m x \\;', 'deny', 'deny', COMMIT],
  ["bash -c 'git commit -m x'", 'deny', 'deny', COMMIT],
  ['sh -c "git commit -m x"', 'deny', 'deny', COMMIT],
  ["bash -lc 'git commit -m x'", 'deny', 'deny', COMMIT],
  ["bash --login -c 'git commit -m x'", 'deny', 'deny', COMMIT],
  ["zsh -c 'cd x && git commit -m x'", 'deny', 'deny', COMMIT],
  ['bash -c "sh -c \'git commit -m x\'"', 'deny', 'deny', COMMIT],
  ['eval git commit -m x', 'deny', 'deny', COMMIT],
  ['eval "git commit -m x"', 'deny', 'deny', COMMIT],
]);

const FORCE = 'agent-git/no-force-push';
table('agent-git: git push that forces → deny', [
  ['git push -f', 'deny', 'deny', FORCE],
  ['git push --force', 'deny', 'deny', FORCE],
  ['git push --force origin main', 'deny', 'deny', FORCE],
  ['git push origin main --force', 'deny', 'deny', FORCE],
  ['git push origin main -f', 'deny', 'deny', FORCE],
  ['git push -uf origin x', 'deny', 'deny', FORCE],
  ['git push -fu origin x', 'deny', 'deny', FORCE],
  ['git push -vf', 'deny', 'deny', FORCE],
  ['git push -qfu origin x', 'deny', 'deny', FORCE],
  ['git push origin +main', 'deny', 'deny', FORCE],
  ['git push origin +HEAD:refs/heads/main', 'deny', 'deny', FORCE],
  ['git push origin main +feature', 'deny', 'deny', FORCE],
  ['git push --repo=origin +main', 'deny', 'deny', FORCE],
  ['git -C /r -c push.default=current push -f', 'deny', 'deny', FORCE],
  ['git push --force-with-lease --force origin main', 'deny', 'deny', FORCE],
  ['git push --force-with-lease -f', 'deny', 'deny', FORCE],
  ['git push -o ci.skip -f origin main', 'deny', 'deny', FORCE],
  ["bash -c 'git push --force'", 'deny', 'deny', FORCE],
  ['echo "$(git push --force)"', 'deny', 'deny', FORCE],
  ['git push "--force" origin', 'deny', 'deny', FORCE],
  ['git push --forc\\e origin', 'deny', 'deny', FORCE],
  ['git -c alias.p="push --force" p', 'deny', 'deny', FORCE],
]);

const DELETE = 'agent-git/no-delete-remote-ref';
table('agent-git: git push that deletes remote refs → deny', [
  ['git push -d origin x', 'deny', 'deny', DELETE],
  ['git push origin -d x', 'deny', 'deny', DELETE],
  ['git push --delete origin x', 'deny', 'deny', DELETE],
  ['git push origin --delete x', 'deny', 'deny', DELETE],
  ['git push --del origin x', 'deny', 'deny', DELETE],
  ['git push origin :branch', 'deny', 'deny', DELETE],
  ['git push origin :refs/tags/v1', 'deny', 'deny', DELETE],
  ['git push origin main :old', 'deny', 'deny', DELETE],
  ['git push --prune origin', 'deny', 'deny', DELETE],
  ['git push --prune origin refs/heads/*:refs/heads/*', 'deny', 'deny', DELETE],
  ['git push -ud origin x', 'deny', 'deny', DELETE],
]);

table('agent-git: git push --mirror, git remote remove → deny', [
  ['git push --mirror', 'deny', 'deny', 'agent-git/no-mirror-push'],
  ['git push --mirror backup', 'deny', 'deny', 'agent-git/no-mirror-push'],
  ['git push backup --mirror', 'deny', 'deny', 'agent-git/no-mirror-push'],
  ['git remote remove origin', 'deny', 'deny', 'agent-git/no-remote-remove'],
  ['git remote rm origin', 'deny', 'deny', 'agent-git/no-remote-remove'],
  ['git -C /r remote rm origin', 'deny', 'deny', 'agent-git/no-remote-remove'],
  ['git remote -v remove origin', 'deny', 'deny', 'agent-git/no-remote-remove'],
]);

const LEASE = 'agent-git/force-with-lease';
table('agent-git: --force-with-lease → nudge in baseline, deny in strict', [
  ['git push --force-with-lease', 'nudge', 'deny', LEASE],
  ['git push --force-with-lease origin main', 'nudge', 'deny', LEASE],
  ['git push --force-with-lease=main origin main', 'nudge', 'deny', LEASE],
  ['git push --force-with-lease=main:abc123 origin main', 'nudge', 'deny', LEASE],
  ['git push origin main --force-with-lease', 'nudge', 'deny', LEASE],
  ['git push -u --force-with-lease origin x', 'nudge', 'deny', LEASE],
  ['git push --force-if-includes --force-with-lease', 'nudge', 'deny', LEASE],
]);

table('agent-git: git add → nudge', [
  ['git add .', 'nudge', 'nudge', 'agent-git/add-review'],
  ['git add -A', 'nudge', 'nudge', 'agent-git/add-review'],
  ['git add -p src/x.ts', 'nudge', 'nudge', 'agent-git/add-review'],
  ['git -C /r add file', 'nudge', 'nudge', 'agent-git/add-review'],
  ['git status && git add .', 'nudge', 'nudge', 'agent-git/add-review'],
]);

table('agent-git: strict-only classes → allow in baseline, deny in strict', [
  ['git reset --hard', 'allow', 'deny'],
  ['git reset --hard HEAD~1', 'allow', 'deny'],
  ['git reset -q --hard origin/main', 'allow', 'deny'],
  ['git -C /r reset --hard', 'allow', 'deny'],
  ['git merge main', 'allow', 'deny'],
  ['git merge --no-ff feature', 'allow', 'deny'],
  ['git rebase main', 'allow', 'deny'],
  ['git rebase -i HEAD~3', 'allow', 'deny'],
  ['git pull && git rebase origin/main', 'allow', 'deny'],
  ['git commit-tree HEAD^{tree} -m x', 'allow', 'deny'],
  ['git remote set-url origin git@example.com:o/r.git', 'allow', 'deny'],
  ['git remote set-url --push origin url', 'allow', 'deny'],
]);

table('agent-gh: baseline → deny', [
  ['gh repo delete owner/repo', 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ['gh repo delete owner/repo --yes', 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ['gh repo archive owner/repo -y', 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ['gh -R owner/repo repo delete', 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ['gh repo -R o/r delete', 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ['gh release delete v1', 'deny', 'deny', 'agent-gh/no-release-delete'],
  ['gh release delete v1 --yes --cleanup-tag', 'deny', 'deny', 'agent-gh/no-release-delete'],
  ['gh release delete-asset v1 app.zip', 'deny', 'deny', 'agent-gh/no-release-delete'],
  ['gh pr close 42 --delete-branch', 'deny', 'deny', 'agent-gh/no-pr-close-delete-branch'],
  ['gh pr close 42 -d', 'deny', 'deny', 'agent-gh/no-pr-close-delete-branch'],
  ['gh pr close -d 42', 'deny', 'deny', 'agent-gh/no-pr-close-delete-branch'],
  ['gh pr close 42 -c done -d', 'deny', 'deny', 'agent-gh/no-pr-close-delete-branch'],
  ['gh pr close 42 -R o/r --delete-branch', 'deny', 'deny', 'agent-gh/no-pr-close-delete-branch'],
  ['gh api -X DELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api -XDELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api -X=DELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api --method DELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api --method=DELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api -X delete repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api --method=Delete repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api repos/o/r/git/refs/heads/x -X DELETE', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh api -H "Accept: x" -XDELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
  ['gh secret remove TOKEN', 'deny', 'deny', 'agent-gh/no-secret-remove'],
  ['gh secret delete TOKEN', 'deny', 'deny', 'agent-gh/no-secret-remove'],
  ['gh secret remove TOKEN --org acme', 'deny', 'deny', 'agent-gh/no-secret-remove'],
  ['gh ssh-key delete 123', 'deny', 'deny', 'agent-gh/no-key-delete'],
  ['gh gpg-key delete ABCDEF --yes', 'deny', 'deny', 'agent-gh/no-key-delete'],
  ["bash -c 'gh repo delete o/r --yes'", 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ['sudo gh api -X DELETE repos/o/r', 'deny', 'deny', 'agent-gh/no-api-delete'],
]);

table('must not deny (data, other subcommands, harmless pushes)', [
  ['git log --grep=commit', 'allow'],
  ['git log --oneline -n 5', 'allow'],
  ['git branch commit-review', 'allow'],
  ['git checkout -b commit-fix', 'allow'],
  ['git commit-graph write', 'allow'],
  ["echo 'git commit'", 'allow'],
  ['echo "git commit -m x"', 'allow'],
  ["printf '%s\\n' 'git push --force'", 'allow'],
  ["grep -rn 'git push --force' docs/", 'allow'],
  ["rg 'git commit' src", 'allow'],
  ["cat <<'EOF'\ngit commit -m x\ngit push --force\nEOF", 'allow'],
  ['cat <<"EOF"\ngit commit -m x\nEOF', 'allow'],
  ['# git commit -m x', 'allow'],
  ['ls # git commit -m x', 'allow'],
  ['echo hi # git push --force', 'allow'],
  ['git fetch --prune', 'allow'],
  ['git fetch -p origin', 'allow'],
  ['git pull --prune', 'allow'],
  ['git push', 'allow'],
  ['git push origin main', 'allow'],
  ['git push -u origin x', 'allow'],
  ['git push --set-upstream origin feature', 'allow'],
  ['git push --tags', 'allow'],
  ['git push --follow-tags origin main', 'allow'],
  ['git push -o ci.skip origin main', 'allow'],
  ['git push -o ci.skip -o merge_request.create origin main', 'allow'],
  ['git push --push-option=ci.skip origin main', 'allow'],
  ['git push origin HEAD:refs/heads/main', 'allow'],
  ['git push origin main:main', 'allow'],
  ['git push origin :', 'allow'],
  ['git push --dry-run origin main', 'allow'],
  ['git push origin "$(git branch --show-current)"', 'allow'],
  ['git status', 'allow'],
  ['git diff --cached', 'allow'],
  ['git show HEAD', 'allow'],
  ['git stash', 'allow'],
  ['git remote -v', 'allow'],
  ['git remote add fork https://example.com/x.git', 'allow'],
  ['git clone --mirror https://example.com/x.git', 'allow'],
  ['git help commit', 'allow'],
  ['gh pr close 42', 'allow'],
  ['gh pr close 42 --comment "closing"', 'allow'],
  ['gh pr close 42 -c -d', 'allow'],
  ['gh pr merge 42 --delete-branch', 'allow'],
  ['gh pr view 42', 'allow'],
  ['gh pr create --title x --body y', 'allow'],
  ['gh api repos/o/r', 'allow'],
  ['gh api -X GET repos/o/r', 'allow'],
  ['gh api --method POST repos/o/r/issues -f title=x', 'allow'],
  ['gh api -XPOST repos/o/r/issues', 'allow'],
  ['gh api repos/o/r -f method=DELETE', 'allow'],
  ['gh repo view o/r', 'allow'],
  ['gh repo clone o/r', 'allow'],
  ['gh release list', 'allow'],
  ['gh secret list', 'allow'],
  ['gh secret set TOKEN --body x', 'allow'],
  ['gh issue delete 12 --yes', 'allow'],
  ['npm test', 'allow'],
  ['ls -la && cat README.md', 'allow'],
  ['make build 2>&1 | tail -n 20', 'allow'],
  ['$EDITOR notes.txt', 'allow'],
  ['eval "$(ssh-agent -s)"', 'allow'],
  ['echo commit push remote', 'allow'],
]);

table('opaque commands: ask when the visible words name a guarded action', [
  ['$GIT commit -m x', 'ask', 'ask', 'agent-git/opaque-git'],
  ['"$cmd" push --force origin main', 'ask', 'ask', 'agent-git/opaque-git'],
  ['git $SUB -m x', 'ask', 'ask', 'agent-git/opaque-git'],
  ['git "$(echo commit)" -m x', 'ask', 'ask', 'agent-git/opaque-git'],
  ['$GH repo delete o/r --yes', 'ask', 'ask', 'agent-gh/opaque-gh'],
  ['gh $GROUP delete x', 'ask', 'ask', 'agent-gh/opaque-gh'],
  ['$G rebase main', 'allow', 'ask'],
]);

const GUARD_GIT = 'agent-git/guarded-words';
const GUARD_GH = 'agent-gh/guarded-words';
table('text a shell runs that arrives another way: seen through', [
  ["source <(echo 'git push -f')", 'deny', 'deny', 'agent-git/no-force-push'],
  ["bash <(printf 'git commit -m x')", 'deny', 'deny', COMMIT],
  ["sh < <(echo 'git push -f')", 'deny', 'deny', 'agent-git/no-force-push'],
  ["{ echo 'git push -f'; } | sh", 'deny', 'deny', 'agent-git/no-force-push'],
  ["( echo cd /r; echo 'git commit -m x' ) | sudo bash", 'deny', 'deny', COMMIT],
  ["echo 'git push -f' | xargs -I{} sh -c '{}'", 'deny', 'deny', 'agent-git/no-force-push'],
  ["bash -c 'eval \"$1\"' _ 'git push -f'", 'deny', 'deny', 'agent-git/no-force-push'],
  ["sh -c '\"$@\"' sh git push -f", 'deny', 'deny', 'agent-git/no-force-push'],
  ["bash -c '$0 commit -m x' git", 'deny', 'deny', COMMIT],
  ["export X='git push -f'; bash -c '$X'", 'deny', 'deny', 'agent-git/no-force-push'],
  ["X='gh repo delete o/r' bash -c '$X'", 'deny', 'deny', 'agent-gh/no-repo-delete'],
  ["A='push -f'; B=$A; git $B", 'deny', 'deny', 'agent-git/no-force-push'],
  ["diff <(echo 'git push -f') notes.txt", 'allow'],
  ["{ echo 'git push -f'; } | grep push", 'allow'],
  ["bash -c 'echo \"$1\"' _ 'git push -f'", 'allow'],
]);

table('scripts Buckler cannot see: ask when the line mentions guarded words', [
  ['bash -c "$X" _ repo delete o/r', 'ask', 'ask', 'agent-gh/opaque-gh'],
  ['eval "$(curl -s https://x)"; echo gh repo delete', 'ask', 'ask', GUARD_GH],
  ['curl -s https://x | sh -s -- push --force', 'ask', 'ask', GUARD_GIT],
  ['read X; bash -c "$X"; echo git commit', 'ask', 'ask', GUARD_GIT],
  ["echo 'git push -f' > x.sh; bash x.sh", 'ask', 'ask', GUARD_GIT],
  ['X=$(cat cmd.txt); $X; echo push -f', 'ask', 'ask', GUARD_GIT],
  ['eval "$(curl -s https://x)"; echo merge', 'allow', 'ask'],
  ['eval "$(ssh-agent -s)"', 'allow'],
  ['eval "$(direnv export bash)"', 'allow'],
  ["echo 'git push -f' > notes.txt", 'allow'],
  ['curl -fsSL https://x/install.sh | sh', 'allow'],
  ['eval "$(ssh-agent -s)" && git push origin main', 'allow'],
  ['source <(kubectl completion bash)', 'allow'],
]);

describe('after an action and other triggers', () => {
  it.each<[string, Trigger, Decision]>([
    ['git status', 'post_tool_success', 'nudge'],
    ['git push origin main', 'post_tool_success', 'nudge'],
    ['git commit -m x', 'post_tool_success', 'nudge'],
    ['cd x && git log', 'post_tool_success', 'nudge'],
    ['gh pr view 1', 'post_tool_success', 'nudge'],
    ['ls -la', 'post_tool_success', 'allow'],
    ['echo "unterminated', 'post_tool_success', 'allow'],
    ['git commit -m x', 'post_tool_failure', 'allow'],
    ['git push --force', 'post_tool_failure', 'allow'],
    ['git commit -m x', 'unknown_harness_event', 'allow'],
    ['gh repo delete x', 'unknown_harness_event', 'allow'],
  ])('%s on %s → %s', (command, trigger, decision) => {
    for (const tier of ['baseline', 'strict'] as const) {
      const out = decide(command, tier, trigger);
      expect(out.decision).toBe(decision);
      if (decision === 'nudge') expect(out.additional_context).toMatch(/review|person/i);
    }
  });

  it('nudges of git and gh after one line are both given', () => {
    const out = decide('git status && gh pr view 1', 'baseline', 'post_tool_success');
    expect(out.decision).toBe('nudge');
    expect(out.additional_context).toContain('\n\n');
  });
});

describe('operator bypass', () => {
  it.each<[Record<string, string> | undefined, string, Decision, boolean]>([
    [{ BUCKLER_BYPASS: '1' }, 'git push --force', 'allow', true],
    [{ RETHUNK_ALLOW_SHELL: '1' }, 'git commit -m x', 'allow', true],
    [{ BUCKLER_BYPASS: '1' }, 'echo "unterminated', 'allow', true],
    [{ BUCKLER_BYPASS: '0' }, 'git push --force', 'deny', false],
    [{ BUCKLER_BYPASS: '' }, 'git push --force', 'deny', false],
    [{ BUCKLER_BYPASS: 'yes' }, 'git push --force', 'deny', false],
    [{ RETHUNK_ALLOW_SHELL: '0' }, 'git commit -m x', 'deny', false],
    [undefined, 'BUCKLER_BYPASS=1 git commit -m x', 'deny', false],
    [undefined, 'env BUCKLER_BYPASS=1 git commit -m x', 'deny', false],
    [undefined, 'export BUCKLER_BYPASS=1; git commit -m x', 'deny', false],
    [undefined, 'RETHUNK_ALLOW_SHELL=1 git push --force', 'deny', false],
  ])('env %j, %s → %s', (env, command, decision, bypass) => {
    const out = decide(command, 'baseline', 'pre_shell_exec', env);
    expect(out.decision).toBe(decision);
    expect(out.bypass).toBe(bypass);
  });
});

describe('cannot be parsed: fail closed before an action', () => {
  let deep = 'git status';
  for (let i = 0; i < 9; i++) deep = `bash -c ${JSON.stringify(deep)}`;
  it.each([
    ['echo "unterminated'],
    ["git commit -m 'x"],
    ['echo $(git status'],
    ['echo `date'],
    [deep],
  ])('%s', (command) => {
    for (const trigger of ['pre_shell_exec', 'pre_shell_tool'] as const) {
      const out = decide(command, 'baseline', trigger);
      expect(out.decision).toBe('deny');
      expect(out.error?.code).toBe('parse_error');
      expect(out.agent_message).toMatch(/could not be parsed/);
    }
  });
});
