/**
 * What the build and agent-tamper make of the command table, through the built bundles:
 * the hook bundle carries no command the hook never runs, and an agent may run exactly the
 * Buckler commands the table says only read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE, type CommandSpec } from './command-table.ts';
import { checkJson, e2eDir, pick } from './e2e.testing.ts';

const table = COMMAND_TABLE as readonly CommandSpec[];
const dir = e2eDir('command-table-');

/** Text only each command's own module holds (its output), never the hook path. */
const ONLY_IN = {
  stats: 'Most often denied or asked',
  replay: 'would change',
  allow: '(revoke: buckler allow --revoke',
  trust: 'trust revoked; its project rules can only tighten again',
  log: 'no decisions match',
  pack: 'is not a bundle name',
  completion: '_buckler_candidates',
  help: "Run 'buckler COMMAND --help'",
  // The table itself (help texts): main.ts reads only its types.
  'command-table': 'Signed pack bundles: a team',
};

describe('the hook bundle', () => {
  it('requires each command module from its own bundle, and holds none of their code', () => {
    const main = fs.readFileSync(path.join('dist', 'main.cjs'), 'utf8');
    for (const c of table) {
      if (c.module === null) continue;
      expect(fs.existsSync(path.join('dist', `cli-${c.module}.cjs`)), c.module).toBe(true);
      expect(main, c.module).toContain(`require("./cli-${c.module}.cjs")`);
    }
    for (const [module, text] of Object.entries(ONLY_IN)) {
      expect(main.includes(text), `${module} in dist/main.cjs`).toBe(false);
      // The look-alike: the text is in its own bundle (so the check above can fail).
      if (module !== 'command-table') expect(fs.readFileSync(path.join('dist', `cli-${module}.cjs`), 'utf8'), module).toContain(text);
    }
  });
});

/** One command line an agent runs: the words, and the decision agent-tamper gives it. */
const AGENT_RUNS: Array<[string, 'allow' | 'deny']> = [];
for (const c of table) {
  if (c.effect !== undefined) {
    const modes = c.options.filter((o) => o.selects === 'reads-only');
    AGENT_RUNS.push([`buckler ${c.name}${c.name === 'check' || c.name === 'explain' ? ' ls' : ''}`, c.effect === 'reads-only' ? 'allow' : 'deny']);
    for (const o of modes) AGENT_RUNS.push([`buckler ${c.name} ${o.name}`, 'allow']);
    // An option that changes state makes a reading command (or mode) one that changes state.
    for (const o of c.options) if (o.effect === 'changes-state' && o.value === undefined) AGENT_RUNS.push([`buckler ${c.name} ${modes[0]?.name ?? ''} ${o.name} ls`.replace(/ +/g, ' '), 'deny']);
  }
  for (const s of c.subcommands ?? []) AGENT_RUNS.push([`buckler ${c.name} ${s.name}`, s.effect === 'reads-only' ? 'allow' : 'deny']);
}

describe('agent-tamper lets an agent run what the command table says only reads', () => {
  it.each(AGENT_RUNS)('%s: %s', (line, want) => {
    const got = pick(checkJson(line, dir));
    if (want === 'deny') expect(got).toEqual({ decision: 'deny', rule: 'agent-tamper/no-buckler-state-commands' });
    else expect(got.rule).not.toBe('agent-tamper/no-buckler-state-commands');
  });
});
