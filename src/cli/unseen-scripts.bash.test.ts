/**
 * Differential against real bash (issue 10): every way of handing a shell text built here
 * (producers × consumers, positional parameters, variables, scripts written on the line) is run
 * by bash in a temporary directory with a fake `git` that logs its argv. Whenever bash ran the
 * force push, the default packs must deny or ask; whenever it ran only `git status`, they must
 * allow. Buckler decides first, on the untouched directory, as a hook does. Skipped without bash.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluate } from '../core/evaluate.ts';
import { loadPolicyReport } from '../packs/runtime.ts';
import { resolvePaths } from '../paths.ts';
import { scriptReader } from './script-reader.ts';

const hasBash = spawnSync('bash', ['-c', 'exit 0']).status === 0;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-bash-diff-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const bin = path.join(root, 'bin');
fs.mkdirSync(bin);
fs.writeFileSync(path.join(bin, 'git'), '#!/bin/sh\necho "$*" >> "$GIT_LOG"\n', { mode: 0o755 });
const configHome = path.join(root, 'config');
const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: root });
const policy = (await loadPolicyReport(paths, { tier: 'baseline', examples: false })).policy;

/**
 * Text that prints P (`P` is replaced by the payload; single quotes only, the payload has none).
 * `HEREDOC` is `cat <<'EOF'` with its body after the line (or inside the substitution).
 */
const PRODUCERS = ["echo 'P'", "printf 'P\\n'", "{ echo 'P'; }", "( echo 'P' )", 'HEREDOC', "echo 'P' | cat"];
/** Where the producer's output is run (`X` is replaced by the producer). */
const CONSUMERS = [
  'X | sh',
  'X | bash -s',
  'X | env sh',
  'source <(X)',
  '. <(X)',
  'bash <(X)',
  'sh < <(X)',
  "X | xargs -I{} sh -c '{}'",
  'eval "$( X )"',
  'bash -c "$( X )"',
];

function compose(consumer: string, producer: string): string {
  if (producer !== 'HEREDOC') return consumer.replace('X', producer);
  // Inside a substitution the body goes there; after a pipe it follows the line.
  if (/[<$]\( ?X/.test(consumer)) return consumer.replace('X', "cat <<'EOF'\nP\nEOF\n");
  return `${consumer.replace('X', "cat <<'EOF'")}\nP\nEOF`;
}
const OTHERS = [
  "bash -c 'eval \"$1\"' _ 'P'",
  "sh -c '\"$@\"' sh P",
  "bash -c 'eval \"$*\"' _ P",
  "bash -c '$1' _ 'P'",
  "bash -s 'P' <<< 'eval \"$1\"'",
  "export X='P'; bash -c '$X'",
  "X='P' bash -c '$X'",
  "X='P' eval '$X'",
  "X='P'; export X; sh -c 'eval \"$X\"'",
  "A='P'; B=$A; $B",
  "A='P'; B=\"$A\"; eval \"$B\"",
  "echo 'P' > x.sh; bash x.sh",
  "printf 'P' > x.sh && sh ./x.sh",
  "echo 'P' > x.sh; chmod +x x.sh; ./x.sh",
  "echo 'P' > x.sh; source x.sh",
  "echo 'P' > x.sh; cat x.sh | sh",
  "echo 'P' > x.sh; bash < x.sh",
];

const templates = [...CONSUMERS.flatMap((c) => PRODUCERS.map((p) => compose(c, p))), ...OTHERS];
const PAYLOADS = [
  { text: 'git push -f', ran: (log: string) => /(^|\n)push -f(\n|$)/.test(log), want: ['deny', 'ask'] },
  { text: 'git status', ran: (log: string) => /(^|\n)status(\n|$)/.test(log), want: ['allow'] },
];

/**
 * A script the same line wrote and then runs (`echo P > x.sh; bash x.sh`) is not read from disk
 * (what runs may not be what is there now): it asks, whatever it holds (agent-tamper/
 * unreadable-script; docs/packs.md, "Scripts Buckler cannot see").
 */
const WRITTEN_THEN_RUN = /> x\.sh\b/;
const wanted = (payload: (typeof PAYLOADS)[number], command: string): readonly string[] =>
  payload.text === 'git status' && WRITTEN_THEN_RUN.test(command) ? ['ask'] : payload.want;

let dirs = 0;
function runBash(command: string): { log: string; cwd: string; decision: string } {
  const cwd = path.join(root, `w${dirs++}`);
  fs.mkdirSync(cwd);
  // The hook decides before the command runs, on the directory as it is then.
  const decision = evaluate({ policy_io_version: '1', trigger: 'pre_shell_exec', shell: { command, cwd } }, policy, {
    readScript: scriptReader(cwd),
  }).decision;
  const log = path.join(cwd, 'git.log');
  spawnSync('bash', ['-c', command], {
    cwd,
    env: { PATH: `${bin}:${process.env['PATH'] ?? ''}`, HOME: cwd, GIT_LOG: log },
    stdio: ['ignore', 'ignore', 'ignore'],
    timeout: 10_000,
  });
  return { log: fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '', cwd, decision };
}

describe.skipIf(!hasBash)('differential against bash: text a shell runs that arrives another way', () => {
  for (const payload of PAYLOADS) {
    it(`${templates.length} forms running \`${payload.text}\`: bash runs it, Buckler says ${payload.want.join(' or ')}`, () => {
      const wrong: string[] = [];
      let ran = 0;
      for (const t of templates) {
        const command = t.replaceAll('P', payload.text);
        const r = runBash(command);
        if (!payload.ran(r.log)) continue;
        ran++;
        if (!wanted(payload, command).includes(r.decision)) wrong.push(`${r.decision}: ${command}`);
      }
      expect(wrong).toEqual([]);
      // Every form is one bash really runs (a form that stopped running would prove nothing).
      expect(ran).toBe(templates.length);
    });
  }
});
