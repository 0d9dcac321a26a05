/**
 * `evaluate(input, policy)`: the pure decision function. Each simple command of the line is
 * judged on its own (highest priority, then deny > ask > nudge > allow); the line gets the most
 * severe of those decisions. Before an action (`pre_*`), a line that cannot be parsed is denied;
 * after an action nothing is blocked.
 */
import { analyzeCommandLine, analyzeLine } from '../shell/index.ts';
import { ShellParseError, type ScriptRead, type ShellCommand } from '../shell/types.ts';
import {
  SEVERITY,
  allowOutput,
  isPreTrigger,
  type CommandDecision,
  type CommandPath,
  type Decision,
  type PolicyInput,
  type PolicyOutput,
} from './contract.ts';
import { mayTouchAliases } from '../grammars/aliases.ts';
import { LineAliases, type AliasReader } from './aliases.ts';
import { commandFacts, toolFacts, type CommandFacts } from './facts.ts';
import { makesLinks, pathEnv, type PathEnv, type PathFact, type PathResolver } from './paths.ts';
import { programData } from '../grammars/reader.ts';
import { guardedMatch, guardedRule, lineWords } from './guarded.ts';
import { better, contextMatches, segmentMatches, triggerIndex, type TriggerIndex, type Winner } from './match.ts';
import { BYPASS_VARS, type CompiledPolicy } from './policy.ts';
import { lineMessages, type Judged } from './messages.ts';
import { parseErrorOutput } from './parse-error.ts';
import { DEFAULT_PRODUCTION, type TargetContext, type TargetReader } from './targets.ts';

/** Aliases (`git x` with `alias.x`, also shell aliases `!…`) are followed this many levels deep. */
const MAX_ALIAS_DEPTH = 3;

export interface EvaluateOptions {
  /**
   * Reads a local script a command runs (`bash ./deploy.sh`), path as written, relative to the
   * command's working directory; null when missing, not a regular file or too large. Injected
   * by the caller (the core touches no files); without it, script files are not analysed.
   */
  readScript?: (path: string) => ScriptRead;
  /** List each command's paths (access, scope) in `commands` (`check --json`, `evaluate`). */
  paths?: boolean;
  /**
   * Reads a program's configured aliases (git's config files where the command runs) when
   * `input.program_aliases` has none for it. Called at most once per program, and only when
   * a command uses a word that may be an alias. Injected by the caller, like readScript.
   */
  readAliases?: AliasReader;
  /**
   * Called once, after the line is decided, with every judged command and the index of the
   * deciding one (explain.ts builds its trace from them). Not called for a bypass or a line that
   * cannot be parsed. Absent on the hook path: deciding costs nothing more.
   */
  onDecided?: (judged: readonly Judged[], decisive: number) => void;
  /**
   * Where a path also leads on disk (a symbolic link's target, a protected file sharing its
   * inode): each path is judged at its name and there, the stricter decision wins. Injected by
   * the driver, bounded there; without it, paths are judged by name (and links made on the line).
   */
  resolvePath?: PathResolver;
  /**
   * Reads a target a program keeps where the command runs (program data `ambient_roles`: the
   * kubeconfig's current context, terraform's workspace). Called only when a rule's `target`
   * condition looks at a command of such a program. Injected by the caller, bounded there;
   * without it, such a target is not determinable.
   */
  readTarget?: TargetReader;
}

export function isBypass(env: Readonly<Record<string, string>> | undefined): boolean {
  return env !== undefined && BYPASS_VARS.some((k) => env[k] === '1');
}

export function evaluate(input: PolicyInput, policy: CompiledPolicy, options: EvaluateOptions = {}): PolicyOutput {
  const pre = isPreTrigger(input.trigger);
  if (pre && isBypass(input.env)) return { ...allowOutput(), bypass: true };

  // One work counter for the line and every git alias analysed after it: the bound is on the total.
  const work = { used: 0 };
  const shellOptions: ShellOptions = options.readScript
    ? { readScript: options.readScript, programs: policy.grammars, work }
    : { programs: policy.grammars, work };
  const line = readLine(input, shellOptions, pre);
  if ('decision' in line) return line;

  const ix = triggerIndex(policy, input.trigger);
  const j = new Judging(policy, input, options, shellOptions, ix, contextWinners(ix, input), line);
  j.toolCall();
  try {
    j.collect(line.commands, 0);
  } catch (e) {
    if (!(e instanceof ShellParseError)) throw e;
    if (pre) return parseErrorOutput(e);
    line.error = { code: 'parse_error', message: e.message };
  }
  const judged = j.judged;
  if (judged.length === 0) judged.push({ facts: null, winner: severer(j.context.best, j.context.tight) });
  if (pre && input.shell && policy.guarded_words !== undefined && policy.guarded_words.length > 0) {
    guardUnseen(judged, policy.guarded_words, input, input.shell.command);
  }
  return lineOutput(judged, line.error, input, options);
}

type ShellOptions = Parameters<typeof analyzeLine>[1];

/** The line's analysis: its commands, the variables it sets, and why it could not be parsed. */
interface LineRead {
  commands: ShellCommand[];
  assignments: ReturnType<typeof analyzeLine>['assignments'];
  error?: PolicyOutput['error'];
}

/** The line read, or the reply to a line that cannot be parsed before an action. */
function readLine(input: PolicyInput, shellOptions: ShellOptions, pre: boolean): LineRead | PolicyOutput {
  const read: LineRead = { commands: [], assignments: null };
  if (!input.shell) return read;
  try {
    const line = analyzeLine(input.shell.command, shellOptions);
    read.commands = line.commands.filter(reported);
    read.assignments = line.assignments;
  } catch (e) {
    if (!(e instanceof ShellParseError)) throw e;
    if (pre) return parseErrorOutput(e);
    read.error = { code: 'parse_error', message: e.message };
  }
  return read;
}

/**
 * Rules that do not look at the command decide the same for every command: their best, found
 * once (the tighten-only ones apart: they never compete with the others on priority).
 */
function contextWinners(ix: TriggerIndex, input: PolicyInput): Context {
  const context: Context = { best: null, tight: null };
  for (const c of ix.noSegments) {
    if (!contextMatches(c.rule, input.tool?.name, input.env)) continue;
    if (c.rule.tighten) {
      if (better(c, context.tight)) context.tight = c;
    } else if (better(c, context.best)) context.best = c;
  }
  return context;
}

/** Each command of the line (and of the aliases it uses) with the rule that wins it. */
class Judging {
  readonly judged: Judged[] = [];
  /** What paths are resolved against: made when a rule first looks at a path. */
  private pathContext: PathEnv | undefined;
  /** Made on first use: most lines have no git command that may use or write an alias. */
  private aliases: LineAliases | undefined;
  private expanded: Set<string> | undefined;
  private readonly env = (): PathEnv => (this.pathContext ??= pathEnv(this.input.context, this.input.shell?.cwd, this.options.resolvePath ?? null));

  constructor(
    private readonly policy: CompiledPolicy,
    private readonly input: PolicyInput,
    private readonly options: EvaluateOptions,
    private readonly shellOptions: ShellOptions,
    private readonly ix: TriggerIndex,
    readonly context: Context,
    private readonly line: LineRead,
  ) {}

  /** The names the line assigns (CommandFacts.lineSets), listed once. */
  private get lineSets(): readonly string[] {
    const a = this.line.assignments;
    return (this.sets ??= a === null ? [] : [...a.keys()]);
  }
  private sets: readonly string[] | undefined;

  /** What target roles read (core/targets.ts); used only when a rule's `target` condition asks. */
  private get targets(): TargetContext {
    return (this.targetContext ??= {
      env: this.input.env,
      lineSets: this.line.assignments,
      production: this.policy.production ?? DEFAULT_PRODUCTION,
      readTarget: this.options.readTarget,
    });
  }
  private targetContext: TargetContext | undefined;

  private push(facts: CommandFacts): void {
    this.judged.push({ facts, winner: judge(facts, this.ix, this.context, this.input.tool?.name, this.input.env) });
  }

  /** A file-tool call with paths is judged like a command that touches them. */
  toolCall(): void {
    const tp = this.input.tool?.paths;
    const name = this.input.tool?.name;
    if (tp !== undefined && tp.length > 0 && name !== undefined) this.push(toolFacts(name, tp, this.policy.grammars, this.env, this.input.tool?.input));
  }

  collect(cmds: readonly ShellCommand[], depth: number): void {
    const grammars = this.policy.grammars;
    for (const cmd of cmds) {
      const facts = commandFacts(cmd, grammars, this.env, this.lineSets, this.targets);
      this.push(facts);
      // A link made here counts for the rest of the line (`ln -s ~ h && rm -rf h/`): its paths are read now.
      if (!facts.opaque && cmd.argv.length > 1) {
        const data = programData(facts.program, grammars);
        if (data !== undefined && makesLinks(data.grammar)) void facts.paths;
      }
      if (!facts.mayAlias || depth >= MAX_ALIAS_DEPTH || !mayTouchAliases(cmd.argv, cmd.dynamic, grammars[facts.program]!)) continue;
      this.followAliases(cmd, facts.program, depth);
    }
  }

  /**
   * A git alias in use (`git x`) or written (`git config alias.x …`): judge what it runs, once
   * per line (`git x; git x` judges the expansion once).
   */
  private followAliases(cmd: ShellCommand, program: string, depth: number): void {
    const { input, line } = this;
    this.aliases ??= new LineAliases(this.policy.grammars, input, this.options.readAliases, line.commands, line.assignments);
    this.expanded ??= new Set();
    for (const e of this.aliases.expansions(cmd, program)) {
      const via = [...cmd.via, e.label];
      const key = `${depth}\u0001${via.join('\u0001')}\u0000${e.kind === 'argv' ? `${e.argv.join('\u0000')}\u0001${e.dynamic.join(',')}` : e.text}`;
      if (this.expanded.has(key)) continue;
      this.expanded.add(key);
      if (e.kind === 'argv') this.collect([{ argv: e.argv, dynamic: e.dynamic, opaque: false, via }], depth + 1);
      else {
        const cmds = analyzeCommandLine(e.text, this.shellOptions).filter(reported);
        this.collect(
          cmds.map((c) => ({ ...c, via: [...via, ...c.via] })),
          depth + 1,
        );
      }
    }
  }
}

/** The line's decision: the most severe of its commands', and the messages of the deciding one. */
function lineOutput(judged: Judged[], error: PolicyOutput['error'], input: PolicyInput, options: EvaluateOptions): PolicyOutput {
  const out = allowOutput();
  if (error) out.error = error;
  let decisive = -1;
  judged.forEach((j, i) => {
    const d = j.winner?.rule.action ?? 'allow';
    if (decisive < 0 || SEVERITY[d] > SEVERITY[out.decision]) {
      out.decision = d;
      decisive = i;
    }
    if (j.facts) out.commands.push(commandDecision(j.facts, d, j.winner, options.paths === true));
  });
  out.rule = judged[decisive]?.winner?.rule.id ?? null;
  Object.assign(out, lineMessages(judged, decisive, out.decision, input));
  if (options.onDecided) options.onDecided(judged, decisive);
  return out;
}

/**
 * A script a shell runs that analysis cannot see: the line is at least `ask` when it mentions
 * words a pack guards (guarded.ts). The words are gathered only when such a script is present.
 */
function guardUnseen(judged: Judged[], guarded: NonNullable<CompiledPolicy['guarded_words']>, input: PolicyInput, text: string): void {
  let words: Set<string> | null = null;
  let match: ReturnType<typeof guardedMatch> = null;
  for (const j of judged) {
    const unseen = j.facts?.cmd.unseen;
    if (unseen === undefined || SEVERITY[j.winner?.rule.action ?? 'allow'] >= SEVERITY.ask) continue;
    if (words === null) {
      words = lineWords(text, judged.flatMap((x) => (x.facts ? [x.facts] : [])));
      match = guardedMatch(guarded, words);
    }
    if (match === null) return;
    j.winner = { rule: guardedRule(match, unseen, input), order: -1 };
  }
}

/** The best ordinary rule and the best tighten-only rule among those that look at no command. */
interface Context {
  best: Winner | null;
  tight: Winner | null;
}

/**
 * The tighten-only winner takes over only when its action is more severe: its priority never
 * outranks an ordinary rule's decision (an untrusted `nudge` of priority 1000 cannot undo a deny).
 */
function severer(best: Winner | null, tight: Winner | null): Winner | null {
  if (tight === null) return best;
  return SEVERITY[tight.rule.action] > SEVERITY[best?.rule.action ?? 'allow'] ? tight : best;
}

function judge(
  facts: CommandFacts,
  ix: TriggerIndex,
  context: Context,
  toolName: string | undefined,
  env: Readonly<Record<string, string>> | undefined,
): Winner | null {
  let best = context.best;
  let tight = context.tight;
  const consider = (cands: TriggerIndex['anyProgram'] | undefined): void => {
    if (!cands) return;
    for (const c of cands) {
      if (c.rule.tighten) {
        if (better(c, tight) && segmentMatches(c.matcher, facts) && contextMatches(c.rule, toolName, env)) tight = c;
      } else if (better(c, best) && segmentMatches(c.matcher, facts) && contextMatches(c.rule, toolName, env)) best = c;
    }
  };
  if (!facts.opaque) consider(ix.byProgram.get(facts.program));
  consider(ix.anyProgram);
  // A bundle's rule never lets through what a guard pack denies (only looked for when one won).
  if (best?.rule.bundle === true && best.rule.action !== 'deny') best = guardDeny(facts, ix, toolName, env) ?? best;
  return severer(best, tight);
}

/** The best guard-pack deny (CompiledRule.guard) that matches the command, whatever the priorities. */
function guardDeny(facts: CommandFacts, ix: TriggerIndex, toolName: string | undefined, env: Readonly<Record<string, string>> | undefined): Winner | null {
  let found: Winner | null = null;
  for (const cands of [facts.opaque ? undefined : ix.byProgram.get(facts.program), ix.anyProgram]) {
    for (const c of cands ?? []) {
      if (c.rule.guard === true && better(c, found) && segmentMatches(c.matcher, facts) && contextMatches(c.rule, toolName, env)) found = c;
    }
  }
  return found;
}

/** A command worth judging: it has words, or redirections (`> f` alone writes f). */
const reported = (c: ShellCommand): boolean => c.argv.length > 0 || c.redirs !== undefined;

function commandDecision(facts: CommandFacts, decision: Decision, winner: Winner | null, paths: boolean): CommandDecision {
  const cmd = facts.cmd;
  const d: CommandDecision = { argv: cmd.argv, decision, rule: winner?.rule.id ?? null };
  if (cmd.via.length > 0) d.via = cmd.via;
  if (cmd.opaque) d.opaque = true;
  if (facts.tool) d.tool = true;
  if (paths && facts.paths.length > 0) d.paths = facts.paths.map(pathOutput);
  return d;
}

/**
 * The paths `evaluate(…, { paths: true })` lists (every command's `paths`, in order) for the
 * commands an evaluation judged (its `onDecided` list): a caller that kept that list gets them
 * without deciding the line again (the hook's audit of a deny, src/cli/hook/audit.ts).
 */
export function judgedPaths(judged: readonly Judged[]): CommandPath[] {
  const out: CommandPath[] = [];
  for (const j of judged) if (j.facts) for (const p of j.facts.paths) out.push(pathOutput(p));
  return out;
}

function pathOutput(p: PathFact): CommandPath {
  const o: CommandPath = { written: p.written, path: p.path, access: p.access, scope: p.scope };
  if (p.recursive) o.recursive = true;
  if (p.holdsProject) o.holds_project = true;
  if (p.projectRoot) o.project_root = true;
  if (p.glob) o.glob = true;
  if (p.pseudo) o.pseudo = true;
  return o;
}
