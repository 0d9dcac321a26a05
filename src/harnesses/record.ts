/**
 * The shape of one harness's record: everything Buckler knows about where a harness keeps its
 * files and how it treats an ask, as data. One file per harness in this folder; `index.ts` lists
 * them. Read by src/paths.ts (the one resolver), the installers, the packs' example locations,
 * the CLI, scripts/setup.sh (through a generated block) and the generated lists in the docs.
 *
 * A leaf: imports nothing from src/.
 */

/** A scope Buckler can wire. `managed`: the administrator's settings file, which project and user settings cannot switch off. */
export type Scope = 'user' | 'project' | 'local' | 'managed';

/** The platforms a system-level file is named for. */
export type SystemPlatform = 'linux' | 'darwin' | 'win32';

/**
 * The harness's own folder (its existence means "this harness is installed for this user"):
 * `path` below the home directory, unless the harness's variable moves it. The variable's value
 * is the folder itself (`folder`), stands for the home directory (`home`: `path` is joined below
 * it), or for the folder's parent (`parent`: the last part of `path` is joined below it).
 */
export interface HarnessHome {
  readonly path: readonly string[];
  readonly variable?: {
    readonly name: string;
    readonly is: 'folder' | 'home' | 'parent';
    /** Only an absolute value counts (the XDG rule); otherwise any non-empty value, as the harness takes it. */
    readonly absoluteOnly?: boolean;
  };
}

/**
 * The file Buckler edits in one scope: below the harness's folder (`harness_home`), below the
 * project root (`project`, also for the `local` scope), or the harness's system-level settings
 * file (`system`, the `managed` scope; see `HarnessRecord.system`).
 */
export type ScopeFile = { readonly base: 'harness_home' | 'project'; readonly path: readonly string[] } | { readonly base: 'system' };

/**
 * A file an agent must not write (packs/agent-tamper.yaml) or read (packs/agent-secrets.yaml).
 * Where it lies: `home` (the home directory), `harness_home` (the harness's own folder),
 * `project` (inside any project: a path matched anywhere, `.claude/settings.json`), `managed`
 * (the file of the harness's `managed` scope), `system` (an absolute path on one platform).
 */
export type HarnessFile =
  | { readonly base: 'home' | 'harness_home' | 'project'; readonly path: string }
  | { readonly base: 'managed' }
  | { readonly base: 'system'; readonly platform: NodeJS.Platform; readonly path: string };

/**
 * The system-level (administrator's, managed) settings file a harness reads, by platform, and
 * what it means for Buckler's hooks. `variable`: an environment variable that moves the file
 * (whoever starts the harness can point it elsewhere).
 */
export interface SystemSettings {
  readonly files: Readonly<Partial<Record<SystemPlatform, string>>>;
  readonly variable?: string;
  /** Whether hooks placed there run, and whether user or project settings can switch them off. */
  readonly hooks: string;
  /** Whether `setup.sh install --system` (the locked-down install, docs/install.md) wires Buckler in this file. */
  readonly lockedDown: boolean;
}

/**
 * What Buckler's ask becomes in one of the harness's modes. `prompt`: the harness asks the
 * person; `deny`: the call is refused (Buckler answers ask with a deny, or the harness refuses
 * an ask it cannot put to anyone); `passes`: the call runs; `unverified`: not established.
 */
export interface AskInMode {
  readonly mode: string;
  readonly becomes: 'prompt' | 'deny' | 'passes' | 'unverified';
  readonly note?: string;
}

export interface HarnessRecord {
  /** kebab-case: the folder, registry key, `--driver` value and doc page share it. */
  readonly name: string;
  readonly title: string;
  /** The release the facts below were read from (package and version). */
  readonly readFrom: string;
  readonly home: HarnessHome;
  /** The scopes Buckler can wire, in order, with the file it edits in each. */
  readonly scopes: Readonly<Partial<Record<Scope, ScopeFile>>>;
  /** Files an agent must not write (settings, trust) or read (credentials). */
  readonly files: {
    /** Hook and settings files, every scope the harness reads hooks from. */
    readonly settings: readonly HarnessFile[];
    /** The harness's own credentials (tokens, OAuth files). */
    readonly credentials: readonly HarnessFile[];
    /** Trust stores: what decides whether the harness runs hooks at all. */
    readonly trust: readonly HarnessFile[];
  };
  /** Its system-level or managed settings file, or null when it reads none. */
  readonly system: SystemSettings | null;
  /** What Buckler's ask becomes in each of its modes. */
  readonly ask: readonly AskInMode[];
  /** The harness's command-line program, as an agent would start it from its shell (agent-tamper). */
  readonly cli: HarnessCli;
}

/**
 * How the harness's CLI is started, and what makes a nested run escape its guard: agent-tamper
 * denies a nested run given a bypass variable, and asks when one of these moves its settings
 * or switches its approvals off (a generated block of packs/agent-tamper.yaml).
 */
export interface HarnessCli {
  /** Program names (the base name an agent runs, also what `npx PACKAGE` runs as). */
  readonly programs: readonly string[];
  /** Variables that change where it reads its settings or hooks (beside HOME and XDG_CONFIG_HOME). */
  readonly settingsVariables: readonly string[];
  /** Options that change where it reads its settings, or skip them. */
  readonly settingsOptions: readonly string[];
  /** Options that switch its approvals off. */
  readonly approvalsOff: readonly string[];
  /** Option values that switch its approvals off (`--permission-mode bypassPermissions`). */
  readonly approvalsOffWords?: readonly string[];
}
