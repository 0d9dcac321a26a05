/**
 * End to end, through the built bundle: what programs run is seen through (every wrapper,
 * shell-text runner and interpreter of the program data), next to benign look-alikes that stay
 * allowed; and a pack that teaches Buckler a wrapper and a runner of shell text in YAML.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkJson, e2eDir, homeEnv } from './e2e.testing.ts';

const home = e2eDir('buckler-programs-');
beforeAll(() => fs.mkdirSync(path.join(home, 'config', 'rules.d'), { recursive: true }));

function check(command: string, configHome = path.join(home, 'config')): { decision: string; rule: string | null; code: number | null } {
  const r = checkJson(command, home, { env: homeEnv(home, { BUCKLER_CONFIG_HOME: configHome }) });
  return { decision: r.decision, rule: r.rule, code: r.status };
}

/** [command that hides a denied action, its benign look-alike]. */
const seenThrough: Array<[string, string]> = [
  ['sudo git push -f', 'sudo git push'],
  ['sudo -u root -E -- git push --force', 'sudo -l git push --force'],
  ['env -i A=1 git push -f', 'env -i A=1 git status'],
  ['env - git push -f', 'env - git status'],
  ['env -S "git push -f"', 'env -S "git status"'],
  ['nice -5 git push -f', 'nice -5 git status'],
  ['nice --10 git push -f', 'nice --10 git status'],
  ['timeout -s KILL 5 git push -f', 'timeout 5 git status'],
  ['xargs git push -f', 'xargs git status'],
  ["find . -exec git push -f \\;", "find . -name 'git push -f'"],
  ["parallel 'git push -f {}' ::: origin", "parallel 'echo {}' ::: 'git push -f'"],
  ["parallel ::: 'git push -f'", "parallel echo ::: 'git push -f'"],
  ['strace -f -o /tmp/t git push -f', 'strace -f -o /tmp/t git status'],
  ['ltrace -o /tmp/t git push -f', 'ltrace git status'],
  ['nsenter -t 1 -m -u git push -f', 'nsenter -t 1 -m git status'],
  ['unbuffer git push -f', 'unbuffer git status'],
  ['caffeinate -i git push -f', 'caffeinate -i git status'],
  ['flock /tmp/l git push -f', 'flock /tmp/l git status'],
  ["flock /tmp/l -c 'git push -f'", "flock /tmp/l -c 'git status'"],
  ['chrt -f 10 git push -f', 'chrt -p 10 123'],
  ['ionice -c 3 git push -f', 'ionice -c 3 git status'],
  ['stdbuf -oL git push -f', 'stdbuf -oL git status'],
  ['setsid -f git push -f', 'setsid -f git status'],
  ['watch -n 1 git push -f', "watch -n 1 'git status'"],
  ["script -qc 'git push -f' /dev/null", 'script -q /dev/null'],
  ["sg wheel -c 'git push -f'", "sg wheel -c 'git status'"],
  ["npx -c 'git push -f'", "npx -c 'git status'"],
  ["npm exec -c 'git push -f'", "npm exec -c 'git status'"],
  ['ssh host git push -f', "ssh host 'echo git push -f'"],
  ['ssh host -- git push -f', 'ssh host -- git status'],
  ['ssh host -o BatchMode=yes git push -f', 'ssh host -o BatchMode=yes git log'],
  ['docker exec box git push -f', "docker exec box echo 'git push -f'"],
  ['podman exec -it box git push -f', 'podman exec -it box git status'],
  ['kubectl exec -it pod -- git push -f', 'kubectl exec -it pod -- git status'],
  ["bash -c 'git push -f'", "bash -c 'git status'"],
  ["sh -c 'git push -f' sh", "echo 'git push -f' > notes.txt"],
  ["su -c 'git push -f' root", "su -c 'git status' root"],
  ['git submodule foreach git push -f', 'git submodule foreach git status'],
  ["git rebase -x 'git push -f' main", "git rebase -x 'make test' main"],
  ["git rebase --exec='git push -f' main", "git rebase --exec='npm test' main"],
  ['git bisect run git push -f', 'git bisect run make test'],
  ['git-push -f', 'git-status'],
  ['/usr/lib/git-core/git-push --force', '/usr/lib/git-core/git-log'],
  ['python3 -c "import os; os.system(\'git push -f\')"', 'python3 -c "print(\'git push -f\')"'],
  ['python -c "import subprocess as sp; sp.run([\'git\', \'push\', \'-f\'])"', 'python -c "import json as sp; sp.dumps([\'git\', \'push\', \'-f\'])"'],
  ['python -c "from os import system; system(\'git push -f\')"', 'python -c "from mylib import system; system(\'git push -f\')"'],
  ['python -c "__import__(\'os\').system(\'git push -f\')"', 'python -c "__import__(\'os\').getcwd()"'],
  ['node -e "require(\'child_process\').execSync(\'git push -f\')"', 'node -e "console.log(\'git push -f\')"'],
  ['perl -e \'system("git push -f")\'', 'perl -e \'print "git push -f"\''],
  ['ruby -e \'system("git push -f")\'', 'ruby -e \'puts "git push -f"\''],
  ['eval git push -f', 'eval "$(ssh-agent -s)"'],
  ["awk 'BEGIN { system(\"git push -f\") }'", "awk '{ print $1 }' README.md"],
  ["gawk -e 'BEGIN { \"git push -f\" | getline }'", "gawk -F: '{ print $1 | \"sort\" }' /etc/passwd"],
  ['systemd-run --user --wait git push -f', 'systemd-run --user -p Nice=5 make'],
  ['systemd-run --background red --user git push -f', 'systemd-run --background red --user make'],
  ["git filter-branch --tree-filter 'git push -f' HEAD", "git filter-branch --msg-filter 'cat' HEAD"],
  ["tar -xf a.tar --to-command='git push -f'", "tar -xf a.tar --to-command='sha256sum'"],
  ["tar --checkpoint=1 --checkpoint-action=exec='git push -f' -cf x.tar .", 'tar --checkpoint=1 --checkpoint-action=dot -cf x.tar .'],
  ["tar -I 'git push -f' -cf x.tar .", "tar -I 'zstd -19' -cf x.tar.zst ."],
  ["rsync -e 'sh -c \"git push -f\"' a host:", "rsync -e 'ssh -p 2222' a host:"],
  ["man -P 'git push -f' ls", 'man -P cat ls'],
  ["man -T -P 'git push -f' ls", 'man -Tutf8 -P cat ls'],
  ["git filter-branch --prune-empty --tree-filter 'git push -f' HEAD", 'git filter-branch --prune-empty --index-filter true HEAD'],
  ["MANPAGER='sh -c \"git push -f\"' man git", "MANPAGER='less -R' man git"],
  ["echo 'git push -f' | at now + 1 minute", 'at -l'],
  ["batch <<< 'git push -f'", "echo 'make test' | batch"],
  // Settings whose value is shell text.
  ["git -c core.pager='git push -f' log", 'git -c core.pager=less log'],
  ["git -c core.sshCommand='sh -c \"git push -f\"' fetch", "git -c core.sshCommand='ssh -i key' fetch"],
  ["ssh -o ProxyCommand='git push -f' host", "ssh -o ProxyCommand='nc %h %p' host"],
  // Variables whose value the program runs (env_runs), set on the line.
  ["GIT_SSH_COMMAND='git push -f' git fetch", "GIT_SSH_COMMAND='ssh -i ~/.ssh/deploy_key' git fetch"],
  ["env GIT_SSH_COMMAND='git push -f' git pull", "env GIT_SSH_COMMAND='ssh -o BatchMode=yes' git pull"],
  ["export GIT_EDITOR='git push -f #'; git rebase -i HEAD~3", 'export GIT_EDITOR=true; git rebase --continue'],
  ["GIT_PAGER='git push -f;' git log", 'GIT_PAGER=cat git log'],
  ["GIT_EXTERNAL_DIFF='git push -f' git diff", 'GIT_EXTERNAL_DIFF=difft git diff'],
  // Functions and aliases defined on the line, called later with the guarded words.
  ['f() { git push "$@"; }; f -f', 'f() { git push "$@"; }; f origin main'],
  ["alias p='git push'\np -f", "alias p='git push'\np origin main"],
  // A run-time first operand may be `-c` itself.
  ["bash $X 'git push -f'", 'bash "$SCRIPT" notes.txt'],
  ["python3 $F \"import os; os.system('git push -f')\"", 'python3 "$F" input.txt'],
];

describe('what runs is seen through, look-alikes stay allowed (built CLI)', () => {
  it.each(seenThrough)('%s', (hidden, benign) => {
    const h = check(hidden);
    expect(h.decision, hidden).toBe('deny');
    expect(h.rule, hidden).toBe('agent-git/no-force-push');
    const b = check(benign);
    expect(b.decision, benign).toBe('allow');
    expect(b.code, benign).toBe(0);
  });
});

describe('a pack teaches a wrapper and a runner of shell text (built CLI)', () => {
  const pack = [
    'pack: local-tools',
    'version: 1',
    'description: Wrappers of this machine',
    'programs:',
    '  mywrap:                 # mywrap [-q] [-n N] COMMAND…',
    '    strict: true',
    '    options_first: true',
    '    flags: [-q]',
    '    value_options: [-n]',
    '    runs: { command: true, self: idle }',
    '  myrun:                  # myrun -e SHELL-TEXT',
    '    value_options: [-e]',
    '    runs: { shell_options: [-e] }',
    '  sudo:                   # extends the builtin sudo with a local option',
    '    flags: [-Q]',
    '  mytool:                 # runs $MYTOOL_HOOK as shell text, reads $MYTOOL_RC first',
    '    env_runs: { MYTOOL_HOOK: shell, MYTOOL_RC: script }',
    'rules:',
    '  - id: no-deploy',
    '    trigger: pre_shell_exec',
    '    action: deny',
    '    match: { shell_segments: [{ program: deploy }] }',
    '    user_message: deploying is done by CI',
    '    examples:',
    '      match: [deploy prod, mywrap -q deploy prod, "myrun -e \'deploy prod\'"]',
    '      no_match: [mywrap -q echo deploy, "myrun -e \'echo deploy\'"]',
    '',
  ].join('\n');
  let config: string;
  beforeAll(() => {
    config = path.join(home, 'pack-config');
    fs.mkdirSync(path.join(config, 'rules.d'), { recursive: true });
    fs.writeFileSync(path.join(config, 'rules.d', 'local-tools.yaml'), pack);
  });

  it.each<[string, string, string | null]>([
    ['mywrap -q git push -f', 'deny', 'agent-git/no-force-push'],
    ['mywrap -n 3 deploy prod', 'deny', 'local-tools/no-deploy'],
    ["myrun -e 'git push -f'", 'deny', 'agent-git/no-force-push'],
    ["myrun -e 'cd x && deploy prod'", 'deny', 'local-tools/no-deploy'],
    ['sudo -Q git push -f', 'deny', 'agent-git/no-force-push'],
    ["MYTOOL_HOOK='git push -f' mytool build", 'deny', 'agent-git/no-force-push'],
    ["MYTOOL_HOOK='deploy prod' mywrap -q mytool", 'deny', 'local-tools/no-deploy'],
    // A script written earlier on the line is not read (it may not be what is on disk): its guarded words ask.
    ["printf 'git push -f\\n' > rc.sh; MYTOOL_RC=rc.sh mytool", 'ask', 'agent-tamper/unreadable-script'], // a script the line wrote is not seen through: it asks, naming the file,
    ["MYTOOL_HOOK='make test' mytool build", 'allow', null],
    ['mywrap -q git status', 'allow', null],
    ["myrun -e 'git status'", 'allow', null],
    ['mywrap -q', 'allow', null],
  ])('%s → %s', (command, decision, rule) => {
    const r = check(command, config);
    expect(r.decision).toBe(decision);
    expect(r.rule).toBe(rule);
  });

  it('an option the wrapper does not know is not guessed at: the command is opaque', () => {
    const out = checkJson('mywrap -z git push -f', home, { env: homeEnv(home, { BUCKLER_CONFIG_HOME: config }) }).output;
    expect(out.commands[0]).toMatchObject({ argv: ['mywrap', '-z', 'git', 'push', '-f'], opaque: true });
  });

  it('without the pack, the wrapper is an ordinary program', () => {
    expect(check('mywrap -q git push -f').decision).toBe('allow');
  });
});
