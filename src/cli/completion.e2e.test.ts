/**
 * `buckler completion bash|zsh|fish`, through the built command and each real shell: every
 * command, subcommand and option of the command table completes, and each option's closed list
 * of values. A shell that is not installed is skipped, saying so (CI installs all three).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE, COMMON_OPTIONS, HOOK, TOP_OPTIONS, type CommandSpec, type OptionSpec } from './command-table.ts';
import { buckler, e2eDir } from './e2e.testing.ts';
import { choicesOf } from './table-text.ts';

const table = COMMAND_TABLE as readonly CommandSpec[];

/** A completion question: the words after `buckler`, the last the one being completed, and every candidate it must offer. */
interface Query {
  words: string[];
  want: string[];
}

function queries(): Query[] {
  const long = (os: readonly OptionSpec[]): string[] => os.map((o) => o.name);
  const out: Query[] = [{ words: [''], want: table.map((c) => c.name) }, { words: ['--'], want: long([...HOOK.options, ...TOP_OPTIONS]) }];
  for (const o of HOOK.options as readonly OptionSpec[]) if (o.choices) out.push({ words: [o.name, ''], want: choicesOf(o.choices) });
  for (const c of table) {
    out.push({ words: [c.name, '--'], want: long([...c.options, ...COMMON_OPTIONS]) });
    const shorts = [...c.options, ...COMMON_OPTIONS].flatMap((o) => (o.short ? [o.short] : []));
    if (shorts.length > 0) out.push({ words: [c.name, '-'], want: shorts });
    for (const o of c.options) if (o.choices) out.push({ words: [c.name, o.name, ''], want: choicesOf(o.choices) });
    if (c.subcommands) {
      out.push({ words: [c.name, ''], want: c.subcommands.map((s) => s.name) });
      for (const s of c.subcommands) {
        out.push({ words: [c.name, s.name, '--'], want: long([...c.options, ...(s.options ?? []), ...COMMON_OPTIONS]) });
        for (const o of c.options) if (o.choices) out.push({ words: [c.name, s.name, o.name, ''], want: choicesOf(o.choices) });
      }
    }
  }
  return out;
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** One shell program that asks every question, each answer after a `=== N` line. */
const DRIVERS: Record<string, (script: string, qs: Query[]) => string> = {
  bash: (script, qs) =>
    [
      `source ${q(script)}`,
      ...qs.map((x, i) => `echo '=== ${i}'; COMP_WORDS=(buckler ${x.words.map(q).join(' ')}); COMP_CWORD=${x.words.length}; _buckler; printf '%s\\n' "\${COMPREPLY[@]}"`),
    ].join('\n'),
  // The zsh glue hands `words` to the same candidate function; compdef must have taken it.
  zsh: (script, qs) =>
    [
      'autoload -Uz compinit && compinit -u -D',
      `source ${q(script)}`,
      `[[ \${_comps[buckler]} == _buckler ]] || echo 'compdef did not register _buckler'`,
      ...qs.map((x, i) => `echo '=== ${i}'; _buckler_candidates ${x.words.map(q).join(' ')}`),
    ].join('\n'),
  fish: (script, qs) =>
    [`source ${q(script)}`, ...qs.map((x, i) => `echo '=== ${i}'; complete -C ${q(`buckler ${x.words.join(' ')}`)} | string replace -r '\\t.*' ''`)].join('\n'),
};

function answers(stdout: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  let at = -1;
  for (const line of stdout.split('\n')) {
    const m = /^=== (\d+)$/.exec(line);
    if (m) out.set((at = Number(m[1])), []);
    else if (at >= 0 && line !== '') out.get(at)!.push(line);
  }
  return out;
}

describe.each(Object.keys(DRIVERS))('buckler completion %s', (shell) => {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
  if (!found) console.log(`skipped: ${shell} is not installed (apt-get install ${shell}; CI installs it)`);

  it.skipIf(!found)('completes every command, subcommand, option and option value of the table', () => {
    const r = buckler(['completion', shell]);
    expect(r.status).toBe(0);
    const dir = e2eDir(`completion-${shell}`);
    const script = path.join(dir, `buckler.${shell}`);
    fs.writeFileSync(script, r.stdout);
    const qs = queries();
    const ran = spawnSync(shell, ['-c', DRIVERS[shell]!(script, qs)], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'dumb' }, cwd: dir, timeout: 60_000 });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).not.toContain('compdef did not register');
    const got = answers(ran.stdout);
    const missing = qs.flatMap((x, i) => x.want.filter((w) => !(got.get(i) ?? []).includes(w)).map((w) => `buckler ${x.words.join(' ')}<TAB> lacks ${w}`));
    expect(missing).toEqual([]);
    // A look-alike: an option of another command is not offered.
    const i = qs.findIndex((x) => x.words.join(' ') === 'paths --');
    expect(got.get(i)).not.toContain('--harness');
  });
});

describe('buckler completion', () => {
  it('refuses an unknown shell and a missing one, exit 2, one line', () => {
    for (const args of [['completion', 'tcsh'], ['completion']]) {
      const r = buckler(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^buckler completion: .*\(see 'buckler completion --help'\)\n$/);
    }
  });
});
