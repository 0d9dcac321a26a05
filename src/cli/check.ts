/**
 * `buckler check "<command>" [--trigger T] [--tier T] [--tool NAME] [--cwd D] [--home D] [--project D] [--json]`: a person's
 * one-liner. Shows the decision (coloured only on a terminal), the deciding rule, the messages
 * and each command's own decision; `--json` prints the full PolicyOutput instead.
 * Exit 0 allow/nudge, 1 deny/ask, 2 error.
 */
import { POLICY_IO_VERSION, TRIGGERS, type Decision, type PolicyOutput, type Trigger } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { displayCommand } from '../core/render.ts';
import { loadRuntimePolicy } from '../packs/runtime.ts';
import { rulesProject } from './project.ts';
import { checkTier } from './evaluate.ts';
import { parseCommand } from './args.ts';
import { showHelp } from './show-help.ts';
import { gitAliasReader } from './git-config.ts';
import { targetReader } from './target-reader.ts';
import { scriptReader } from './script-reader.ts';
import { recordDecision } from './audit.ts';
import { placeInput, whereOf, withPolicyEnv } from './command-input.ts';
import { policyOptions, processPaths, processUid } from './process-paths.ts';
import type { CliIO } from './io.ts';

const COLOURS: Record<Decision, string> = { allow: '32', nudge: '36', ask: '33', deny: '31' };

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('check', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('check', io);
  const { values, operands: positionals } = parsed;
  const tier = checkTier('check', values.tier as string | undefined, io);
  if (tier === null) return 2;
  const trigger = (values.trigger as string | undefined) ?? 'pre_shell_exec';
  if (!(TRIGGERS as readonly string[]).includes(trigger)) {
    io.err(`buckler check: --trigger must be one of ${TRIGGERS.join(', ')}, not '${trigger}'\n`);
    return 2;
  }
  if (positionals.length === 0) {
    io.err(`buckler check: give the command line to check, e.g. buckler check "git push --force" (see 'buckler check --help')\n`);
    return 2;
  }
  const command = positionals.join(' ');

  const where = whereOf(values);
  if (typeof where === 'string') {
    io.err(`buckler check: ${where}\n`);
    return 2;
  }
  const cwd = where.cwd ?? io.cwd;
  let input = placeInput({ policy_io_version: POLICY_IO_VERSION, trigger: trigger as Trigger, harness: 'cli', shell: { command, cwd } }, where, io);
  const project = rulesProject(input.context);
  const loaded = await loadRuntimePolicy(processPaths(io.env), { ...(tier ? { tier } : {}), ...policyOptions(io.env), ...(project === undefined ? {} : { project }) });
  for (const w of loaded.warnings) io.err(`buckler: ${w}\n`);
  input = withPolicyEnv(input, loaded.policy.env_keys, io);
  const output = evaluate(input, loaded.policy, { readScript: scriptReader(cwd), readAliases: gitAliasReader(cwd, io.env), readTarget: targetReader(cwd, io.env), paths: true });

  if (values.audit) recordDecision(io, { input, output, harness: 'cli' });
  if (values.json) io.out(`${JSON.stringify(output, null, 2)}\n`);
  else io.out(render(output, loaded.policy.tier, io.stdoutIsTTY && !io.env['NO_COLOR']));
  return output.decision === 'deny' || output.decision === 'ask' ? 1 : 0;
}

function render(out: PolicyOutput, tier: string, colour: boolean): string {
  const paint = (d: Decision, text: string): string => (colour ? `\x1b[1;${COLOURS[d]}m${text}\x1b[0m` : text);
  const dim = (text: string): string => (colour ? `\x1b[2m${text}\x1b[0m` : text);
  const lines: string[] = [];
  const head = `${paint(out.decision, out.decision.toUpperCase())}${out.rule ? `  ${out.rule}` : ''}`;
  lines.push(out.bypass ? `${head}  (operator bypass: BUCKLER_BYPASS=1)` : head);
  const indent = (label: string, text: string | null): void => {
    if (!text) return;
    const body = text.split('\n').map((l, i) => (i === 0 ? l : `${' '.repeat(11)}${l}`));
    lines.push(`  ${dim(label.padEnd(7))}  ${body.join('\n')}`);
  };
  indent('person', out.user_message);
  indent('agent', out.agent_message);
  indent('context', out.additional_context);
  if (out.error) indent('error', `${out.error.code}: ${out.error.message}`);
  if (out.commands.length > 0) {
    lines.push('', dim('commands:'));
    const width = Math.max(...out.commands.map((c) => c.decision.length));
    for (const c of out.commands) {
      const via = c.via && c.via.length > 0 ? dim(`  via ${c.via.join(' › ')}`) : '';
      const opaque = c.opaque ? dim('  (program known only at run time)') : '';
      const rule = c.rule ? dim(`  ${c.rule}`) : '';
      lines.push(`  ${paint(c.decision, c.decision.padEnd(width))}  ${displayCommand(c.argv)}${rule}${via}${opaque}`);
      for (const p of c.paths ?? []) {
        const how = `${p.access}${p.recursive === true ? ' (recursive)' : ''}`;
        lines.push(dim(`  ${' '.repeat(width)}    ${how} ${p.path ?? p.written}  [${p.pseudo === true ? 'not a file' : p.scope}${p.holds_project === true ? ', holds a project' : ''}]`));
      }
    }
  }
  lines.push(dim(`tier: ${tier}`), '');
  return lines.join('\n');
}
