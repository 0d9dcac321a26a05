/**
 * The neutral contract between adapters and the core: `PolicyInput` in, `PolicyOutput` out.
 * JSON field names are snake_case because this is a wire format (see docs/contracts/policy-io.md);
 * bump POLICY_IO_VERSION only as that page's procedure says.
 */

export const POLICY_IO_VERSION = '1';
export type PolicyIoVersion = typeof POLICY_IO_VERSION;

export const TRIGGERS = [
  'pre_shell_exec',
  'pre_shell_tool',
  'post_tool_success',
  'post_tool_failure',
  'unknown_harness_event',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

export const DECISIONS = ['allow', 'deny', 'ask', 'nudge'] as const;
export type Decision = (typeof DECISIONS)[number];

/** Higher is more severe: deny > ask > nudge > allow. */
export const SEVERITY: Readonly<Record<Decision, number>> = { allow: 0, nudge: 1, ask: 2, deny: 3 };

/** `pre_*` triggers happen before an action and may block it; the others never block. */
export function isPreTrigger(trigger: Trigger): boolean {
  return trigger === 'pre_shell_exec' || trigger === 'pre_shell_tool';
}

export interface ShellInfo {
  /** The command line exactly as the agent wrote it. */
  command: string;
  cwd?: string;
}

/** How an action touches a path (docs/packs.md, "Paths"). */
export const ACCESS_KINDS = ['read', 'write', 'delete', 'metadata'] as const;
export type Access = (typeof ACCESS_KINDS)[number];

/** A path a tool call touches, as the tool names it (absolute, or relative to `context.cwd`). */
export interface ToolPath {
  path: string;
  access: Access;
}

/** An MCP tool call: which server, which of its tools, with what arguments. */
export interface McpCall {
  server: string;
  tool: string;
  arguments?: unknown;
}

export interface ToolInfo {
  /** The harness's own tool name (`Shell`, `Bash`, `Write`, `mcp__server__tool`, …). */
  name: string;
  /** The tool's arguments as the harness gave them. */
  input?: unknown;
  /**
   * The paths the call touches and how, read by the adapter from the tool's arguments (file
   * tools: read, write, edit, search, list; patch tools: the patch's file headers).
   */
  paths?: ToolPath[];
  /** Set for an MCP tool call (the adapter splits the harness's tool name). */
  mcp?: McpCall;
}

/**
 * Where the action happens, as the driver knows it: what the pure core needs to resolve paths
 * lexically and may not look up itself.
 */
export interface ActionContext {
  /** The directory the action runs in (a shell command's starting directory). */
  cwd?: string;
  /** The home directory of the person the harness runs as. */
  home?: string;
  /**
   * Project roots: the harness's workspace roots, else the git top-level above `cwd`, else
   * `cwd`. The core never treats `/`, the home directory or an ancestor of it as a project.
   */
  project_roots?: string[];
  /** Temp directories (`/tmp`, `/var/tmp`, `$TMPDIR`). */
  temp_dirs?: string[];
  /** `$TMPDIR` as the hook process saw it; absent when unset. */
  tmpdir?: string;
  /**
   * Named locations the driver knows and packs cannot: each name maps to path patterns
   * (absolute, `~/…`, or a relative pattern matched anywhere, in the syntax of a rule's `glob`).
   * Rules select them with `paths: { location: [name] }`. Buckler's CLI fills `buckler_config`,
   * `buckler_state`, `buckler_data`, `harness_settings`, `harness_credentials`, `harness_trust`
   * (docs/packs.md, "Named locations").
   */
  locations?: Record<string, string[]>;
}

export interface SessionInfo {
  conversation_id?: string;
  generation_id?: string;
  model?: string;
  workspace_roots?: string[];
}

export interface PolicyInput {
  policy_io_version: PolicyIoVersion;
  trigger: Trigger;
  /** Adapter that produced this input (`cursor`, `claude-code`, `cli`, …). */
  harness?: string;
  /** The harness's native event name, for traces and audit. */
  event?: string;
  shell?: ShellInfo;
  tool?: ToolInfo;
  session?: SessionInfo;
  /**
   * Operator environment, as the hook process saw it. Adapters and drivers pass only the
   * variables the policy refers to (see `CompiledPolicy.env_keys`) and the bypass variables.
   */
  env?: Record<string, string>;
  /** Where the action happens (paths are resolved against it). */
  context?: ActionContext;
  /**
   * Aliases the programs' own configuration defines where the command runs, by program then
   * alias name (`{"git": {"p": ["push --force"]}}`): every value of each name, lowest
   * precedence first. Drivers read git's from the repository's and the user's config files.
   * The name `*` (ANY_ALIAS) says the configuration could not be read in full: any word may be
   * an alias whose value is unknown.
   */
  program_aliases?: ProgramAliases;
}

/** In PolicyInput.program_aliases: the configuration could not be read in full. */
export const ANY_ALIAS = '*';

/** Program → alias name → its configured values (see PolicyInput.program_aliases). */
export type ProgramAliases = Record<string, Record<string, string[]>>;

/** One simple command of the line and the decision it got on its own. */
export interface CommandDecision {
  argv: string[];
  decision: Decision;
  /** `pack/rule` that decided this command; null when no rule matched (allow). */
  rule: string | null;
  /** Wrappers it was found through, outermost first (`sudo`, `bash -c`, `eval`, …). */
  via?: string[];
  /** True when the program could not be known statically (`$CMD commit`). */
  opaque?: boolean;
  /** A file-tool call judged by its paths (argv: the tool's name). */
  tool?: boolean;
  /** The paths it touches, when asked for (`check --json`, `buckler evaluate`). */
  paths?: CommandPath[];
}

/** One path a command touches, resolved (docs/packs.md, "Paths"). */
export interface CommandPath {
  /** As written in the command or the tool call. */
  written: string;
  /** Absolute and normalised; null when known only at run time. */
  path: string | null;
  access: Access;
  scope: 'project' | 'temp' | 'home' | 'system' | 'runtime';
  recursive?: boolean;
  holds_project?: boolean;
  project_root?: boolean;
  glob?: boolean;
  pseudo?: boolean;
}

export interface PolicyOutput {
  policy_io_version: PolicyIoVersion;
  decision: Decision;
  /** For the person (deny, ask). */
  user_message: string | null;
  /** For the agent: what was blocked, why, and what to do instead. */
  agent_message: string | null;
  /** Steering text added to the agent's context (nudge). */
  additional_context: string | null;
  /** `pack/rule` that decided the line; null when nothing matched. */
  rule: string | null;
  /** True when the operator bypass turned a `pre_*` decision into allow. */
  bypass: boolean;
  /** Per-command decisions, in the order the commands appear. */
  commands: CommandDecision[];
  /** Set when the input could not be analysed (fail closed before an action). */
  error?: { code: string; message: string };
}

/** An allow with nothing to say and no commands: what every PolicyOutput starts from. */
export function allowOutput(): PolicyOutput {
  return {
    policy_io_version: POLICY_IO_VERSION,
    decision: 'allow',
    user_message: null,
    agent_message: null,
    additional_context: null,
    rule: null,
    bypass: false,
    commands: [],
  };
}

export type PolicyErrorCode =
  | 'bad_json'
  | 'bad_input'
  | 'unsupported_version'
  | 'unknown_trigger'
  | 'bad_payload'
  /** An event the adapter does not know, carrying a tool call and no result (default-packs.md). */
  | 'unknown_event';

/** A malformed or unsupported input. Callers turn it into a fail-closed answer. */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';
  constructor(
    readonly code: PolicyErrorCode,
    message: string,
    /** What the adapter had read when it refused (`unknown_event`): the audit record names the event. */
    readonly input?: PolicyInput,
  ) {
    super(message);
  }
}
