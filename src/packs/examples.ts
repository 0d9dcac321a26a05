/**
 * Rule examples: every `examples.match` entry must be matched by its rule, every
 * `examples.no_match` entry must not. A rule is tried on its own (a policy of that one rule), so
 * an example checks what the rule matches, not how it fares against other rules.
 */
import { POLICY_IO_VERSION, type PolicyInput, type Trigger } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { POLICY_FORMAT, type CompiledPolicy } from '../core/policy.ts';
import type { Grammars } from '../grammars/types.ts';
import { exampleLocations } from './example-locations.ts';
import { EXAMPLE_HOME, EXAMPLE_PROJECT, type LoadedRule, type RuleExample } from './schema.ts';

export interface ExampleFailure {
  kind: 'match' | 'no_match';
  example: RuleExample;
  message: string;
}

function exampleInput(ex: RuleExample, loaded: LoadedRule): PolicyInput {
  const rule = loaded.rule;
  const input: PolicyInput = {
    policy_io_version: POLICY_IO_VERSION,
    trigger: (ex.trigger ?? rule.triggers[0]) as Trigger,
    harness: 'examples',
  };
  if (ex.command !== undefined) input.shell = { command: ex.command };
  // A plain command example keeps the rule's own tool and env conditions true.
  const tool = ex.tool_name ?? rule.tool_name ?? (ex.paths !== undefined ? 'Tool' : null);
  if (tool !== null) input.tool = ex.paths !== undefined ? { name: tool, paths: ex.paths } : { name: tool };
  if (input.tool !== undefined && ex.tool_input !== undefined) input.tool.input = ex.tool_input;
  input.context = exampleContext(ex);
  const env = ex.env ?? rule.env;
  if (env !== null) input.env = { ...env };
  return input;
}

/** Where an example stands: a fixed fake home and project (cwd the project) with its named locations, or what it says. */
export function exampleContext(ex: Pick<RuleExample, 'cwd' | 'home' | 'project' | 'tmpdir'>): NonNullable<PolicyInput['context']> {
  const home = ex.home ?? EXAMPLE_HOME;
  const project = ex.project ?? (ex.home !== undefined ? `${home}/project` : EXAMPLE_PROJECT);
  const tmpdir = ex.tmpdir;
  const ctx: NonNullable<PolicyInput['context']> = {
    cwd: ex.cwd ?? project,
    home,
    project_roots: [project],
    temp_dirs: tmpdir === undefined ? ['/tmp', '/var/tmp'] : ['/tmp', '/var/tmp', tmpdir],
  };
  if (tmpdir !== undefined) ctx.tmpdir = tmpdir;
  // Named locations (Buckler's directories, the harnesses' files) for the fake home only: an
  // example that moves home names no location.
  if (home === EXAMPLE_HOME) ctx.locations = Object.fromEntries(Object.entries(exampleLocations()).map(([k, v]) => [k, [...v]]));
  return ctx;
}

const describe = (ex: RuleExample): string => (ex.command !== undefined ? JSON.stringify(ex.command) : JSON.stringify(ex));

export function runExamples(loaded: LoadedRule, grammars: Grammars): ExampleFailure[] {
  const policy: CompiledPolicy = {
    policy_format: POLICY_FORMAT,
    tier: loaded.rule.tier,
    packs: [],
    rules: [loaded.rule],
    grammars: { ...grammars },
    env_keys: [],
  };
  const failures: ExampleFailure[] = [];
  for (const kind of ['match', 'no_match'] as const) {
    for (const ex of loaded.examples[kind]) {
      const out = evaluate(exampleInput(ex, loaded), policy);
      if (out.error) {
        failures.push({ kind, example: ex, message: `example ${describe(ex)} could not be analysed: ${out.error.message}` });
        continue;
      }
      const matched = out.rule === loaded.rule.id || out.commands.some((c) => c.rule === loaded.rule.id);
      if (kind === 'match' && !matched) failures.push({ kind, example: ex, message: `example ${describe(ex)} should match but does not` });
      if (kind === 'no_match' && matched) failures.push({ kind, example: ex, message: `example ${describe(ex)} should not match but does` });
    }
  }
  return failures;
}
