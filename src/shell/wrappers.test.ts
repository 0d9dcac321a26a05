/**
 * Unwrapping, table-driven: programs that run other programs, nested scripts, and the best-effort
 * cases (pipes and here-documents into shells, variables, interpreters' inline code).
 */
import { describe, expect, it } from 'vitest';
import { errorCode, show } from './show.testing.ts';

type Case = [text: string, commands: string[]];

const wrappers: Case[] = [
  // env
  ['env git push', ['[env] git push']],
  ['env -i git push', ['[env] git push']],
  ['env -i -u HOME -C /tmp A=1 B=2 git push', ['[env] git push']],
  ['env -uHOME -CDIR git push', ['[env] git push']],
  ['env --unset=HOME --chdir /x git push', ['[env] git push']],
  ['env --uns=HOME git push', ['[env] git push']],
  ['env -- git push', ['[env] git push']],
  ['env -0iv git push', ['[env] git push']],
  ['env FOO=1 env -u X git -C /r commit', ['[env > env] git -C /r commit']],
  ['FOO=1 env -u X git -C /r commit', ['[env] git -C /r commit']],
  ['env -S "git push -f"', ['[env] git push -f']],
  ["env -S'git push -f'", ['[env] git push -f']],
  ['env -S "-i A=1 git push" --force', ['[env] git push --force']],
  ['env --split-string="git push" -f', ['[env] git push -f']],
  ['env -iS "git push"', ['[env] git push']],
  ['env -S "git \\"my arg\\" x"', ['[env] git ⟨my arg⟩ x']],
  ["env -S 'git ${X}'", ['[env] git ${X}']],
  ['env -S "git ${X}"', ['?env -S ⟨git ${X}⟩']],
  ['env -S "$X"', ['?env -S $X']],
  ['env', ['env']],
  ['env -i', ['env -i']],
  ['env A=1', ['env A=1']],
  ['env --help git', ['env --help git']],
  ['env --bogus git push', ['?env --bogus git push']],
  ['env -q git push', ['?env -q git push']],
  ['env $OPTS git push', ['?$OPTS git push'].map((s) => `[env] ${s}`)],
  ['env -i PATH="$PATH" git push', ['[env] git push']],
  ['sudo HOME=$H git push', ['[sudo] git push']],
  ['env - git push', ['[env] git push']],
  ['nice --10 git push', ['[nice] git push']],
  // sudo, doas, pkexec
  ['sudo git push', ['[sudo] git push']],
  ['sudo -u x git commit', ['[sudo] git commit']],
  ['sudo -u root -g wheel -E -H git push', ['[sudo] git push']],
  ['sudo -uroot -Hn git push', ['[sudo] git push']],
  ['sudo --user=root --preserve-env git push', ['[sudo] git push']],
  ['sudo --preserve-env=PATH,HOME git push', ['[sudo] git push']],
  ['sudo -E -- git push', ['[sudo] git push']],
  ['sudo -i git push', ['[sudo] git push']],
  ['sudo -s git push', ['[sudo] git push']],
  ['sudo -D /tmp -C 3 -T 10 -p pw -r role -t type -c class -U u -R /c -h git push', ['[sudo] git push'].map(() => 'sudo -D /tmp -C 3 -T 10 -p pw -r role -t type -c class -U u -R /c -h git push')],
  ['sudo A=1 B=2 git push', ['[sudo] git push']],
  ['sudo -l git push', ['sudo -l git push']],
  ['sudo -v', ['sudo -v']],
  ['sudo -e /etc/hosts', ['sudo -e /etc/hosts']],
  ['sudo', ['sudo']],
  ['sudo sudo -u x git push', ['[sudo > sudo] git push']],
  ['sudo -Z git push', ['?sudo -Z git push']],
  ['doas git push', ['[doas] git push']],
  ['doas -u root -n git push', ['[doas] git push']],
  ['doas -C /etc/doas.conf git push', ['doas -C /etc/doas.conf git push']],
  ['pkexec --user root git push', ['[pkexec] git push']],
  // command, exec, builtin
  ['command git commit', ['[command] git commit']],
  ['command -p git commit', ['[command] git commit']],
  ['command -v git', ['command -v git']],
  ['command -V git', ['command -V git']],
  ['exec git commit', ['[exec] git commit']],
  ['exec -a name -c -l git push', ['[exec] git push']],
  ['exec >log 2>&1', ['exec']],
  ['builtin eval "git push"', ['[builtin > eval] git push']],
  ['builtin cd /x', ['[builtin] cd /x']],
  // time, nice, nohup, timeout, stdbuf, ionice, setsid, chrt, taskset, flock
  ['command time -f %e -o out git push', ['[command > time] git push']],
  ['\\time -v git push', ['[time] git push']],
  ['/usr/bin/time -p git push', ['[time] git push']],
  ['nice git push', ['[nice] git push']],
  ['nice -n 5 git push', ['[nice] git push']],
  ['nice -n5 git push', ['[nice] git push']],
  ['nice -10 git push', ['[nice] git push']],
  ['nice --adjustment=3 git push', ['[nice] git push']],
  ['nohup git push &', ['[nohup] git push']],
  ['nohup -- git push', ['[nohup] git push']],
  ['timeout 5 git push', ['[timeout] git push']],
  ['timeout -s KILL 5 git push', ['[timeout] git push']],
  ['timeout --signal=TERM -k 2 --preserve-status 1m git push', ['[timeout] git push']],
  ['timeout -sKILL -v 5s git push', ['[timeout] git push']],
  ['timeout 5', ['timeout 5']],
  ['stdbuf -oL -e0 git push', ['[stdbuf] git push']],
  ['stdbuf -i 0 --output=L git push', ['[stdbuf] git push']],
  ['ionice -c2 -n7 git push', ['[ionice] git push']],
  ['ionice -c 3 -t git push', ['[ionice] git push']],
  ['ionice -p 123', ['ionice -p 123']],
  ['setsid git push', ['[setsid] git push']],
  ['setsid -f -w git push', ['[setsid] git push']],
  ['chrt -f 10 git push', ['[chrt] git push']],
  ['chrt --rr 5 git push', ['[chrt] git push']],
  ['chrt -p 5 123', ['chrt -p 5 123']],
  ['taskset 0x3 git push', ['[taskset] git push']],
  ['taskset -c 0,1 git push', ['[taskset] git push']],
  ['taskset -p 0x3 123', ['taskset -p 0x3 123']],
  ['flock /tmp/l git push', ['[flock] git push']],
  ['flock -n -w 5 /tmp/l git push', ['[flock] git push']],
  ['flock /tmp/l -c "git push"', ['[flock -c] git push']],
  ['sudo nice -n 5 nohup timeout 10 env -i git push', ['[sudo > nice > nohup > timeout > env] git push']],
  // xargs
  ['xargs git commit', ['[xargs] git commit $XARGS_ARGS']],
  ['xargs -I{} git commit {}', ['[xargs] git commit {}']],
  ['xargs -I {} -n 1 -P 4 git push origin {}', ['[xargs] git push origin {}']],
  ['xargs -0 -r -t git push', ['[xargs] git push $XARGS_ARGS']],
  ['xargs -d "\\n" --max-args=1 git push', ['[xargs] git push $XARGS_ARGS']],
  ['xargs -a list -L1 git push', ['[xargs] git push $XARGS_ARGS']],
  ['xargs -i git push {}', ['[xargs] git push {}']],
  ['xargs', ['[xargs] echo $XARGS_ARGS']],
  ['xargs --show-limits', ['xargs --show-limits']],
  ["xargs -I % sh -c 'git push %'", ['[xargs > sh -c] ?⟨git push %⟩', '[xargs > sh -c] git push %']],
  ['echo x | xargs sh -c', ['echo x', '[xargs > sh -c] x']],
  ['cmd | xargs sh -c', ['cmd', '[xargs > sh -c] ?$XARGS_ARGS']],
  ["printf 'push -f\\n' | xargs -I{} git {}", ['printf ⟨push -f\\n⟩', '[xargs] git ⟨push -f⟩']],
  ["echo 'git push -f' | xargs -I{} sh -c '{}'", ['echo ⟨git push -f⟩', '[xargs > sh -c] git push -f']],
  ["printf 'a\\nb\\n' | xargs -I{} git {}", ['printf a\\nb\\n', '[xargs] git a', '[xargs] git b']],
  ['echo a b | xargs -n1 git', ['echo a b', '[xargs] git a b']],
  ['xargs -Q git push', ['?xargs -Q git push']],
  // find
  ['find . -exec git commit \\;', ['[find -exec] git commit', 'find . -exec git commit ;']],
  ["find . -name '*.orig' -execdir git push {} +", ['[find -execdir] git push {}', 'find . -name *.orig -execdir git push {} +']],
  ['find . -ok git push \\; -okdir git commit \\;', ['[find -ok] git push', '[find -okdir] git commit', 'find . -ok git push ; -okdir git commit ;']],
  ['find . -exec sh -c "git push" \\;', ['[find -exec > sh -c] git push', 'find . -exec sh -c ⟨git push⟩ ;']],
  ['find . -exec echo + \\;', ['[find -exec] echo +', 'find . -exec echo + ;']],
  ['find . -name x', ['find . -name x']],
  // watch
  ["watch 'git push'", ['[watch] git push']],
  ['watch -n 1 git status', ['[watch] git status']],
  ['watch -d -n1 "git log | head"', ['[watch] git log', '[watch] head']],
  ['watch -x git push', ['[watch] git push']],
  // trap, script
  ["trap 'git push' EXIT", ['[trap] git push', 'trap ⟨git push⟩ EXIT']],
  ['trap -- "rm -f x" INT TERM', ['[trap] rm -f x', 'trap -- ⟨rm -f x⟩ INT TERM']],
  ['trap - EXIT', ['trap - EXIT']],
  ['trap -p', ['trap -p']],
  ["script -qc 'git push' /dev/null", ['[script -c] git push']],
  ['script -q /dev/null -c "git push"', ['[script -c] git push']],
  ['script out.log', ['script out.log']],
  // busybox
  ['busybox sh -c "git push"', ['[busybox > sh -c] git push']],
  ['busybox git push', ['[busybox] git push']],
];

const shells: Case[] = [
  ['bash -c "git push"', ['[bash -c] git push']],
  ["sh -c 'git push -f'", ['[sh -c] git push -f']],
  ['bash -c "sh -c \'git push -f\'"', ['[bash -c > sh -c] git push -f']],
  ['bash -lc "git push"', ['[bash -c] git push']],
  ['bash -ec "git push"', ['[bash -c] git push']],
  ['bash -xc "git push"', ['[bash -c] git push']],
  ['bash -euxc "git push"', ['[bash -c] git push']],
  ['bash -c -x "git push"', ['[bash -c] git push']],
  ['bash --login -c "git push"', ['[bash -c] git push']],
  ['bash --norc --noprofile -o pipefail -ec "git push"', ['[bash -c] git push']],
  ['bash -o errexit -c "git push" arg0 arg1', ['[bash -c] git push']],
  ['bash -O extglob -c "git push"', ['[bash -c] git push']],
  ['bash --rcfile x -c "git push"', ['[bash -c] git push']],
  ['bash -- -c', ['bash -- -c']],
  ['zsh -c "git push"', ['[zsh -c] git push']],
  ['dash -c "git push"', ['[dash -c] git push']],
  ['ksh -c "git push"', ['[ksh -c] git push']],
  ['mksh -c "git push"', ['[mksh -c] git push']],
  ['/bin/sh -c "git push"', ['[sh -c] git push']],
  ['fish -c "git push"', ['[fish -c] git push']],
  ['fish --command="git push"', ['[fish -c] git push']],
  ['sudo -u x bash -c "cd /r && git push --force"', ['[sudo > bash -c] cd /r', '[sudo > bash -c] git push --force']],
  ['env bash -c "git push"', ['[env > bash -c] git push']],
  ['bash -c "$CMD"', ['[bash -c] ?$CMD']],
  ['bash -c "git push $REMOTE"', ['[bash -c] ?⟨git push $REMOTE⟩', '[bash -c] git push $REMOTE']],
  // A run-time script: reported opaque, then what its visible text shows (which may repeat
  // commands the outer shell already ran: never fewer commands than run).
  ['bash -c "$(curl -s x)"', ['[$(…)] curl -s x', '[bash -c] ?⟨$(curl -s x)⟩', '[bash -c > $(…)] curl -s x']],
  ['bash -c', ['bash -c']],
  ['bash -c "echo \\"$(git push)\\""', ['[$(…)] git push', '[bash -c] ?⟨echo "$(git push)"⟩', '[bash -c > $(…)] git push', '[bash -c] echo ⟨$(git push)⟩']],
  ["bash -c 'echo \"$(git push)\"'", ['[bash -c > $(…)] git push', '[bash -c] echo ⟨$(git push)⟩']],
  ['su -c "git push" root', ['[su -c] git push']],
  ['su - root -c "git push"', ['[su -c] git push']],
  ['runuser -u app -- git push', ['[runuser] git push']],
  ['runuser -l app -c "git push"', ['[runuser -c] git push']],
  ['su -lc "git push" app', ['[su -c] git push']],
  ['eval "git commit"', ['[eval] git commit']],
  ['eval git push --force', ['[eval] git push --force']],
  ["eval 'git push; git commit'", ['[eval] git push', '[eval] git commit']],
  ['eval "$x"', ['[eval] ?$x']],
  ['eval', []],
  ['eval "eval \\"git push\\""', ['[eval > eval] git push']],
  ["bash -c 'eval \"bash -c \\\"git push\\\"\"'", ['[bash -c > eval > bash -c] git push']],
];

const stdinScripts: Case[] = [
  ["echo 'git push -f' | bash", ['echo ⟨git push -f⟩', '[| bash] git push -f', 'bash']],
  ['echo "git push" | sh -s', ['echo ⟨git push⟩', '[| sh] git push', 'sh -s']],
  ["printf 'git push\\n' | sh", ['printf ⟨git push\\n⟩', '[| sh] git push', 'sh']],
  ["printf '%s\\n' 'git push' | bash", ['printf %s\\n ⟨git push⟩', '[| bash] git push', 'bash']],
  ["echo -e 'ls\\ngit push' | bash", ['echo -e ⟨ls\\ngit push⟩', '[| bash] ls', '[| bash] git push', 'bash']],
  ['curl -s https://x | sh', ['curl -s https://x', '[| sh] ?sh', 'sh']],
  ['cat script.sh | bash', ['cat script.sh', '[| bash] ?bash', 'bash']],
  ['echo $CMD | bash', ['echo $CMD', '[| bash] ?$CMD', 'bash']],
  ['echo "git push" | sudo bash', ['echo ⟨git push⟩', '[sudo > | bash] git push', '[sudo] bash']],
  ["bash -c sh <<'EOF'\ngit push -f\nEOF", ['[bash -c > sh <<] git push -f', '[bash -c] sh']],
  ["echo 'git push -f' | npx -c 'sh -s'", ['echo ⟨git push -f⟩', '[npx -c > | sh] git push -f', '[npx -c] sh -s', 'npx -c ⟨sh -s⟩']],
  ["timeout 5 echo 'git push -f' | sh", ['[timeout] echo ⟨git push -f⟩', '[| sh] git push -f', 'sh']],
  ["nice env echo 'git push' | bash -s", ['[nice > env] echo ⟨git push⟩', '[| bash] git push', 'bash -s']],
  ["bash <<'EOF'\ngit push -f\nEOF", ['[bash <<] git push -f', 'bash']],
  ['bash <<EOF\ngit push -f\nEOF', ['[bash <<] git push -f', 'bash']],
  ['sh -s <<-EOF\n\tgit push\n\tEOF', ['[sh <<] git push', 'sh -s']],
  ["bash <<< 'git push -f'", ['[bash <<<] git push -f', 'bash']],
  ['bash <<< "$CMD"', ['[bash <<<] ?$CMD', 'bash']],
  ['cat <<EOF | bash\ngit push\nEOF', ['cat', '[| bash] git push', 'bash']],
  ['bash < deploy.sh', ['bash']],
  ['bash', ['bash']],
  ["python3 <<'EOF'\nimport os\nos.system('git push')\nEOF", ['[python3 <<] git push', 'python3']],
  ["echo 'os.system(\"git push\")' | python", ['echo ⟨os.system("git push")⟩', '[| python] git push', 'python']],
];

const variables: Case[] = [
  ['x=git; $x commit', ['git commit']],
  ['x=git\n$x push', ['git push']],
  ['x=git; "$x" push', ['git push']],
  ['x=git; ${x} push', ['git push']],
  ['x="git push"; $x -f', ['git push -f']],
  ['x="git push"; "$x" -f', ['⟨git push⟩ -f']],
  ['x=/usr/bin/git; $x push', ['git push']],
  ['f=--force; git push $f', ['git push --force']],
  ['export G=git; $G push', ['export G=git', 'git push']],
  ['declare G=git; $G push', ['declare G=git', 'git push']],
  ['x=git; x=$(echo ls); $x push', ['[$(…)] echo ls', '?$x push']],
  ['(x=git); $x push', ['?$x push']],
  ['x=git; (echo; $x push)', ['echo', 'git push']],
  // After a body that may not run: unknown, and judged with each literal value it may have.
  ['true && x=git; $x push', ['true', '?$x push', 'git push']],
  ['if a; then x=git; fi; $x push', ['a', '?$x push', 'git push']],
  ['x=git; read x; $x push', ['read x', '?$x push']],
  ['x=git; for x in ls; do :; done; $x push', [':', '?$x push', 'ls push']],
  ['x=git cmd; $x push', ['cmd', '?$x push']],
  ['IFS=,; x=git,push; $x', ['?$x']],
  ['x=g; ${x}it push', ['git push']],
  ['x=git; echo | $x push', ['echo', 'git push']],
  ['x=git; eval "$x push"', ['[eval] git push']],
  ['x=git; bash -c "$x push"', ['[bash -c] git push']],
  // The child sees x when the environment already exported the name: the value may run.
  ["x=git; bash -c '$x push'", ['[bash -c] git push']],
  ['$x', ['?$x']],
];

const interpreters: Case[] = [
  ['python3 -c "import os; os.system(\'git push -f\')"', ['[python3 -c] git push -f', 'python3 -c ⟨import os; os.system(\'git push -f\')⟩']],
  ['python -c "import subprocess; subprocess.run([\'git\', \'push\', \'-f\'])"', ['[python -c] git push -f', 'python -c ⟨import subprocess; subprocess.run([\'git\', \'push\', \'-f\'])⟩']],
  ['python -c "import subprocess as s; subprocess.call(\'git push\', shell=True)"', ['[python -c] git push', 'python -c ⟨import subprocess as s; subprocess.call(\'git push\', shell=True)⟩']],
  ['python3.12 -c "import os;os.popen(\'git push\')"', ['[python3.12 -c] git push', 'python3.12 -c ⟨import os;os.popen(\'git push\')⟩']],
  ['python -c "import subprocess; subprocess.run(cmd)"', ['[python -c] ?subprocess.run(cmd)', 'python -c ⟨import subprocess; subprocess.run(cmd)⟩']],
  ['python -c "print(1)"', ['python -c print(1)']],
  ['python -Bc "import os; os.system(\'git push\')"', ['[python -c] git push', 'python -Bc ⟨import os; os.system(\'git push\')⟩']],
  ['node -e "require(\'child_process\').execSync(\'git push\')"', ['[node -e] git push', 'node -e ⟨require(\'child_process\').execSync(\'git push\')⟩']],
  ['node -e "const {spawnSync}=require(\'child_process\'); spawnSync(\'git\', [\'push\', \'-f\'])"', ['[node -e] git push -f', 'node -e ⟨const {spawnSync}=require(\'child_process\'); spawnSync(\'git\', [\'push\', \'-f\'])⟩']],
  ['node --eval="require(\'child_process\').exec(\'git push\')"', ['[node -e] git push', 'node ⟨--eval=require(\'child_process\').exec(\'git push\')⟩']],
  ['node -e "/x/.exec(s)"', ['node -e /x/.exec(s)']],
  ['perl -e \'system("git push")\'', ['[perl -e] git push', 'perl -e ⟨system("git push")⟩']],
  ['perl -e \'system("git", "push", "-f")\'', ['[perl -e] git push -f', 'perl -e ⟨system("git", "push", "-f")⟩']],
  ['perl -we \'`git push`\'', ['[perl -e] git push', 'perl -we ⟨`git push`⟩']],
  ['perl -e \'system "git push"\'', ['[perl -e] git push', 'perl -e ⟨system "git push"⟩']],
  ['ruby -e \'system("git push")\'', ['[ruby -e] git push', 'ruby -e ⟨system("git push")⟩']],
  ['ruby -e \'%x(git push)\'', ['[ruby -e] git push', 'ruby -e ⟨%x(git push)⟩']],
  ['php -r \'shell_exec("git push");\'', ['[php -r] git push', 'php -r ⟨shell_exec("git push");⟩']],
  ['python -c "$CODE"', ['[python -c] ?$CODE', 'python -c $CODE']],
  ['python script.py', ['python script.py']],
];

/** Words that only look like commands are data (default-packs.md "must not deny"). */
const data: Case[] = [
  ['git log --grep=commit', ['git log --grep=commit']],
  ['git branch commit-review', ['git branch commit-review']],
  ["echo 'git commit'", ['echo ⟨git commit⟩']],
  ['echo "git push --force"', ['echo ⟨git push --force⟩']],
  ["grep -rn 'git push --force' docs/", ['grep -rn ⟨git push --force⟩ docs/']],
  ["cat <<'EOF'\ngit commit -m x\ngit push --force\nEOF", ['cat']],
  ['cat <<EOF\ngit push --force\nEOF', ['cat']],
  ['cat > notes.md <<"EOF"\n$(git push --force)\n`git commit`\nEOF', ['cat']],
  ['# git push --force', []],
  ['ls # ; git push --force', ['ls']],
  ["printf 'git push -f\\n' > script.sh", ['printf ⟨git push -f\\n⟩']],
  ["git commit-graph write", ['git commit-graph write']],
  ["echo 'bash -c \"git push\"'", ['echo ⟨bash -c "git push"⟩']],
  ["sudo -l git push", ['sudo -l git push']],
  ["command -v git", ['command -v git']],
  ["x='git push --force'", []],
  ["echo \"\\$(git push)\"", ['echo ⟨$(git push)⟩']],
  ["echo '$(git push)'", ['echo ⟨$(git push)⟩']],
  ['echo \\`git push\\`', ['echo `git push`']],
  ["node -e 'console.log(\"git push\")'", ['node -e console.log("git push")'.replace('console.log("git push")', '⟨console.log("git push")⟩')]],
];

/** Spellings an agent might try after a deny (shell-analysis.md). */
const adversarial: Case[] = [
  ['git  push   --force', ['git push --force']],
  ['GIT_DIR=x git push -f', ['git push -f']],
  ["'/usr/bin/git' push -f", ['git push -f']],
  ['"/usr/bin/"git push -f', ['git push -f']],
  ["g'i't p\"u\"sh -f", ['git push -f']],
  ['git p\\ush -\\f', ['git push -f']],
  ["$'\\147\\151\\164' $'\\x70ush' -f", ['git push -f']],
  ['git\tpush\t-f', ['git push -f']],
  ['{ git push -f; }', ['git push -f']],
  ['(git push -f)', ['git push -f']],
  ['true; git push -f', ['true', 'git push -f']],
  ['true\ngit push -f', ['true', 'git push -f']],
  ['true || git push -f', ['true', 'git push -f']],
  ['false && git push -f', ['false', 'git push -f']],
  ['echo $(git push -f)', ['[$(…)] git push -f', 'echo ⟨$(git push -f)⟩']],
  ['echo `git push -f`', ['[`…`] git push -f', 'echo ⟨`git push -f`⟩']],
  ['x=$(git push -f)', ['[$(…)] git push -f']],
  ['cat <(git push -f)', ['[<(…)] git push -f', 'cat ⟨<(git push -f)⟩']],
  ['bash -c "git push -f"', ['[bash -c] git push -f']],
  ["sh -c 'bash -c \"git push -f\"'", ['[sh -c > bash -c] git push -f']],
  ['eval git push -f', ['[eval] git push -f']],
  ['eval "g""it push -f"', ['[eval] git push -f']],
  ['command git push -f', ['[command] git push -f']],
  ['exec git push -f', ['[exec] git push -f']],
  ['nohup git push -f >/dev/null 2>&1 &', ['[nohup] git push -f']],
  ['xargs -a /dev/null git push -f', ['[xargs] git push -f $XARGS_ARGS']],
  ['git {push,-f}', ['git push -f']],
  ['{git,push,-f}', ['git push -f']],
  ['x=git; $x push -f', ['git push -f']],
  ["echo 'git push -f' | sh", ['echo ⟨git push -f⟩', '[| sh] git push -f', 'sh']],
  ["sh <<< 'git push -f'", ['[sh <<<] git push -f', 'sh']],
  ['if :; then git push -f; fi', [':', 'git push -f']],
  ['f() { git push -f; }; f', ['git push -f', 'f']],
  ['[[ $(git push -f) ]]', ['[$(…)] git push -f']],
  [': $(git push -f)', ['[$(…)] git push -f', ': ⟨$(git push -f)⟩']],
  ['echo ${x:-$(git push -f)}', ['[$(…)] git push -f', 'echo ⟨${x:-$(git push -f)}⟩']],
  ['cat <<EOF\n$(git push -f)\nEOF', ['[$(…)] git push -f', 'cat']],
  ['$CMD push -f', ['?$CMD push -f']],
  ['"$(printf git)" push -f', ['[$(…)] printf git', '?⟨$(printf git)⟩ push -f']],
  ['git${IFS}push', ['?git${IFS}push']],
  ['/usr/bin/g?t push -f', ['?/usr/bin/g?t push -f']],
  ['/usr/bin/gi[t] push -f', ['?/usr/bin/gi[t] push -f']],
];

const errorsAfterUnwrap: Array<[string, string]> = [
  ['bash -c "echo \'a"', 'unterminated'],
  ['eval "if true"', 'unterminated'],
  ['sudo sh -c "git push )"', 'syntax'],
  ['watch "git push ("', 'syntax'],
  ['watch "git push \'"', 'unterminated'],
];

function table(name: string, cases: Case[]): void {
  describe(name, () => {
    it.each(cases)('%j', (text, expected) => {
      expect(show(text)).toEqual(expected);
    });
  });
}

table('wrappers', wrappers);
table('shells and eval', shells);
table('scripts on standard input', stdinScripts);
table('variables assigned on the same line', variables);
table('inline interpreter code', interpreters);
table('data that looks like a command', data);
table('adversarial spellings', adversarial);

describe('nested scripts fail closed', () => {
  it.each(errorsAfterUnwrap)('%j → %s', (text, code) => {
    expect(errorCode(text)).toBe(code);
  });
});

describe('script files through readScript', () => {
  const files: Record<string, string> = {
    './deploy.sh': '#!/bin/bash\nset -e\ngit push --force\n',
    'deploy.sh': 'git commit -m x\n',
    './tool': '#!/usr/bin/env bash\ngit push\n',
    './binary': '\x7fELF\x02\x01\x01\x00\x00\ngit push',
    './plain': 'git commit -m x\n',
    './py': '#!/usr/bin/python3\nimport os\n',
    './broken.sh': 'git push\nif\n',
    './loop.sh': 'bash ./loop.sh\n',
    './big.sh': `#!/bin/sh\n${'# padding\n'.repeat(100)}git push\n`,
    'lib.sh': 'git commit --amend\n',
  };
  const readScript = (p: string): string | null => files[p] ?? null;

  it.each<Case>([
    ['bash ./deploy.sh', ['[bash ./deploy.sh] set -e', '[bash ./deploy.sh] git push --force', 'bash ./deploy.sh']],
    ['sh deploy.sh', ['[sh deploy.sh] git commit -m x', 'sh deploy.sh']],
    ['bash -x ./deploy.sh arg', ['[bash ./deploy.sh] set -e', '[bash ./deploy.sh] git push --force', 'bash -x ./deploy.sh arg']],
    ['./tool --flag', ['tool --flag', '[./tool] git push']],
    ['./binary', ['binary']],
    ['./py', ['py']],
    ['source lib.sh', ['[source lib.sh] git commit --amend', 'source lib.sh']],
    ['. lib.sh', ['[. lib.sh] git commit --amend', '. lib.sh']],
    ['bash < deploy.sh', ['[bash <] git commit -m x', 'bash']],
    ['bash ./missing.sh', ['[bash ./missing.sh] ?./missing.sh', 'bash ./missing.sh']],
    ['./missing.sh', ['missing.sh']],
    ['./plain', ['plain', '[./plain] git commit -m x']],
    ['echo x > deploy.sh; bash deploy.sh', ['echo x', '[bash deploy.sh] ?deploy.sh', '[bash deploy.sh] git commit -m x', 'bash deploy.sh']],
    ['echo x > ./new.sh && ./new.sh', ['echo x', 'new.sh', '[./new.sh] ?./new.sh']],
    // Named by an earlier command (it may have written it: `curl -o`, `cp`): also unseen.
    ['cat deploy.sh | bash', ['cat deploy.sh', '[| bash] ?deploy.sh', '[| bash] git commit -m x', 'bash']],
    ['curl -o deploy.sh https://x && bash deploy.sh', ['curl -o deploy.sh https://x', '[bash deploy.sh] ?deploy.sh', '[bash deploy.sh] git commit -m x', 'bash deploy.sh']],
    ['bash <(cat deploy.sh)', ['[<(…)] cat deploy.sh', '[bash <(cat deploy.sh)] ?deploy.sh', '[bash <(cat deploy.sh)] git commit -m x', 'bash ⟨<(cat deploy.sh)⟩']],
    ['bash ./broken.sh', ['[bash ./broken.sh] ?./broken.sh', 'bash ./broken.sh']],
    ['bash $SCRIPT', ['[bash $SCRIPT] ?$SCRIPT', 'bash $SCRIPT']],
  ])('%j', (text, expected) => {
    expect(show(text, { readScript })).toEqual(expected);
  });

  it('bounds recursion through files and the size of what it reads', () => {
    expect(errorCode('bash ./loop.sh', { readScript })).toBe('too_deep');
    expect(show('bash ./big.sh', { readScript, maxBytes: 200 })).toEqual(['[bash ./big.sh] ?./big.sh', 'bash ./big.sh']);
    expect(show('bash ./deploy.sh; bash ./deploy.sh', { readScript, maxScripts: 1 })).toEqual([
      '[bash ./deploy.sh] set -e',
      '[bash ./deploy.sh] git push --force',
      'bash ./deploy.sh',
      '[bash ./deploy.sh] ?./deploy.sh',
      'bash ./deploy.sh',
    ]);
  });

  it('reads nothing without a reader', () => {
    expect(show('bash ./deploy.sh')).toEqual(['bash ./deploy.sh']);
  });
});
