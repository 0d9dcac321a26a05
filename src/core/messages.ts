/**
 * The line's messages: from every command whose decision is the line's decision, rendered for
 * that command, duplicates dropped, joined by a blank line in command order. A deny or an ask
 * always says something: without a message from its rule, a generic one is used.
 */
import type { Decision, PolicyInput, PolicyOutput } from './contract.ts';
import type { CommandFacts } from './facts.ts';
import { pathMatches, type Winner } from './match.ts';
import type { CompiledRule } from './policy.ts';
import { displayCommand, renderTemplate, shorten, type TemplateContext } from './render.ts';

/** One judged command (facts null: the input had no command). */
export interface Judged {
  facts: CommandFacts | null;
  winner: Winner | null;
}

type Messages = Pick<PolicyOutput, 'user_message' | 'agent_message' | 'additional_context'>;
const KEYS = ['user_message', 'agent_message', 'additional_context'] as const;

const FALLBACK: Partial<Record<Decision, { user: string; agent: string }>> = {
  deny: {
    user: 'Buckler blocked `{command}` (rule {rule}).',
    agent: 'Blocked by the policy rule {rule}: `{command}` is not allowed here. Do not retry it in another form; tell the person what you wanted to do.',
  },
  ask: {
    user: 'Buckler asks before running `{command}` (rule {rule}).',
    agent: '`{command}` needs the confirmation of a person (rule {rule}).',
  },
};

/** `{target_check}` when a command's target could not be checked (docs/packs.md, "Production targets"). */
const UNCHECKED = ' Its target (context, namespace, workspace, profile, project or host) could not be checked: it is known only when the command runs, or could not be read here, so whether it is production is not known.';

export function lineMessages(judged: readonly Judged[], decisive: number, decision: Decision, input: PolicyInput): Messages {
  const texts: Record<(typeof KEYS)[number], string[]> = { user_message: [], agent_message: [], additional_context: [] };
  for (const j of judged) {
    const rule = j.winner?.rule;
    if (!rule || rule.action !== decision) continue;
    const ctx = templateContext(j.facts, input, rule.pack, rule.id, rule);
    for (const key of KEYS) {
      const t = renderTemplate(rule[key], ctx);
      if (t !== null && t !== '' && !texts[key].includes(t)) texts[key].push(t);
    }
  }
  const out: Messages = { user_message: null, agent_message: null, additional_context: null };
  for (const key of KEYS) out[key] = texts[key].length > 0 ? texts[key].join('\n\n') : null;
  const fallback = FALLBACK[decision];
  const decider = judged[decisive];
  if (fallback && decider?.winner) {
    const ctx = templateContext(decider.facts, input, decider.winner.rule.pack, decider.winner.rule.id, decider.winner.rule);
    out.user_message ??= renderTemplate(fallback.user, ctx);
    out.agent_message ??= renderTemplate(fallback.agent, ctx);
  }
  return out;
}

function templateContext(facts: CommandFacts | null, input: PolicyInput, pack: string, rule: string, compiled?: CompiledRule): TemplateContext {
  if (!facts) {
    return { command: shorten(input.shell?.command ?? input.tool?.name ?? ''), program: '', subcommand: '', pack, rule };
  }
  const path = compiled === undefined ? '' : matchedPath(facts, compiled);
  if (facts.tool) {
    // A file-tool call: the tool and its paths (`Write /etc/hosts`).
    const shown = shorten([facts.cmd.argv[0] ?? '', ...facts.paths.map((p) => p.written)].join(' '));
    return { command: shown, program: facts.cmd.argv[0] ?? '', subcommand: '', pack, rule, path };
  }
  let command = facts.cmd.argv.length > 0 ? displayCommand(facts.cmd.argv, facts.cmd.dynamic) : '';
  // Redirections are part of what the command does (`echo x > /etc/hosts`).
  for (const r of facts.cmd.redirs ?? []) command = shorten(`${command}${command === '' ? '' : ' '}${r.access === 'read' ? '<' : '>'} ${r.value}`);
  return {
    command,
    program: facts.read.program,
    subcommand: facts.read.subcommand.join(' '),
    pack,
    rule,
    path,
    // Read only when a template names it (a rule about production targets).
    get target(): string {
      return facts.targets.production ?? '';
    },
    get target_check(): string {
      return facts.targets.unchecked ? UNCHECKED : '';
    },
  };
}

/** The first path of the command that one of the rule's `paths` conditions matched. */
function matchedPath(facts: CommandFacts, rule: CompiledRule): string {
  if (rule.shell_segments === null) return '';
  for (const m of rule.shell_segments) {
    if (m.paths === undefined) continue;
    const p = facts.paths.find((x) => pathMatches(m.paths!, x, facts.home, facts.locations));
    if (p !== undefined) return p.path ?? p.written;
  }
  return '';
}
