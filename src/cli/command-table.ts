/**
 * The command table: every `buckler` command, subcommand and option, once. Read by
 * `src/cli/main.ts` (which module runs a command), `scripts/build.mjs` (which modules become
 * lazily loaded bundles, off the hook path), the argument module (`args.ts`), the help
 * (`help.ts`), shell completion (`completion.ts`) and what is generated into agent-tamper's rule
 * and the docs (`generated.ts`, `scripts/generate.mjs`).
 *
 * Each command and subcommand says what running it does to Buckler's state, the person's
 * machine or the files it is given: `reads-only` or `changes-state`. Each option says the same of
 * itself: `changes-state` when giving it makes the run change state (`check --audit`), and
 * `selects: 'reads-only'` for an option that turns a state-changing command into a read-only one
 * (`allow --list`). agent-tamper lets an agent run exactly what this table says only reads
 * (src/cli/command-table.test.ts fails on an unmarked entry).
 *
 * Pure data, no imports: main.ts reads only its types, so the hook bundle carries none of it.
 * Help texts and `choices` may hold `{harnesses}`, `{installable}`, `{default_driver}`,
 * `{triggers}`, `{decisions}`, `{default_uses}` and `{max_uses}`, filled in by table-text.ts
 * from the harness and installer registries, the contract and allow-once.ts: the harness lists
 * in help and completion come from the registries, never from here.
 */

export type Effect = 'reads-only' | 'changes-state';

export interface OptionSpec {
  /** `--project`. */
  readonly name: string;
  /** `-i`. */
  readonly short?: string;
  /** The value's placeholder (`DIR`); absent for a flag. */
  readonly value?: string;
  /** The values it takes, when they are a closed list (completed by the shells). */
  readonly choices?: readonly string[];
  /** May be given more than once; every value is kept. */
  readonly multiple?: boolean;
  readonly help: string;
  /** What giving this option does by itself. */
  readonly effect: Effect;
  /** Giving it makes a state-changing command only read (`allow --list`, `trust --status`). */
  readonly selects?: 'reads-only';
}

export interface SubcommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly effect: Effect;
  /** Options of this subcommand only (the command's own apply too). */
  readonly options?: readonly OptionSpec[];
}

export interface CommandSpec {
  readonly name: string;
  /** The file in src/cli that runs it (`run(args, io)`), without `.ts`; null: main.ts itself. */
  readonly module: string | null;
  readonly summary: string;
  /** Absent exactly when the command has subcommands, each with its own. */
  readonly effect?: Effect;
  readonly subcommands?: readonly SubcommandSpec[];
  readonly options: readonly OptionSpec[];
  /**
   * What follows the options: `none`; `some` (operands and options mixed); `words` (a command
   * line: options end at the first word that is not one of ours, and every word from there on
   * is the command's, dashes and all).
   */
  readonly operands: 'none' | 'some' | 'words';
  /** The usage lines, without `Usage: `. */
  readonly usage: readonly string[];
  /** The paragraph(s) after the usage. */
  readonly about: string;
  /** After the options: examples, exit codes. */
  readonly notes?: string;
  /** Placeholder of the operands, for completion: a file name, a command name, or nothing. */
  readonly complete?: 'files' | 'commands' | 'none';
}

const JSON_OUT: OptionSpec = { name: '--json', help: 'machine-readable output', effect: 'reads-only' };
const TIER: OptionSpec = { name: '--tier', value: 'T', choices: ['baseline', 'strict'], help: "baseline or strict (default: config.toml's [core] tier)", effect: 'reads-only' };
const TRIGGER: OptionSpec = { name: '--trigger', value: 'T', choices: ['{triggers}'], help: '{triggers}\n(default: pre_shell_exec)', effect: 'reads-only' };
const WHERE: readonly OptionSpec[] = [
  { name: '--tool', value: 'NAME', help: 'the tool name to pass (tool_name rules)', effect: 'reads-only' },
  { name: '--cwd', value: 'DIR', help: 'the directory the command runs in (default: the current one)', effect: 'reads-only' },
  { name: '--home', value: 'DIR', help: 'the home directory paths are resolved against (default: $HOME)', effect: 'reads-only' },
];
const POLICY_DIRS: readonly OptionSpec[] = [
  { name: '--packs-dir', value: 'DIR', help: 'builtin packs (default: the packs shipped with Buckler)', effect: 'reads-only' },
  { name: '--rules-dir', value: 'DIR', help: 'your packs (default: rules.d in the config directory)', effect: 'reads-only' },
  { name: '--config', value: 'FILE', help: 'config file (default: config.toml in the config directory)', effect: 'reads-only' },
];
const LOG_FILTERS: readonly OptionSpec[] = [
  { name: '--since', value: 'D', help: 'only decisions since D: an age (30m, 2h, 1d, 1w) or a date (2025-11-29,\n2025-11-29T10:00Z)', effect: 'reads-only' },
  { name: '--decision', value: 'D', help: 'only these decisions ({decisions}; comma-separated)', effect: 'reads-only' },
  { name: '--rule', value: 'R', help: 'only this rule (pack/rule), or every rule of a pack', effect: 'reads-only' },
  { name: '--project', value: 'P', help: 'only this project (its root directory; . for the current one)', effect: 'reads-only' },
  { name: '--session', value: 'S', help: 'only this harness session (conversation) id', effect: 'reads-only' },
];
const LOG_FILE: OptionSpec = { name: '--file', value: 'PATH', help: 'another audit log than the configured one', effect: 'reads-only' };
const JSON_LINES: OptionSpec = { name: '--json', help: 'the records themselves, one JSON object per line', effect: 'reads-only' };

/** The hook: what a harness runs, `buckler [--driver NAME] [--event EVENT]` (src/cli/driver.ts). */
export const HOOK = {
  module: 'driver',
  summary: 'hook mode: the harness event on stdin, the reply on stdout',
  // It records decisions and uses up allow-once entries: never the agent's to run by hand.
  effect: 'changes-state',
  options: [
    { name: '--driver', value: 'NAME', choices: ['{harnesses}'], help: 'the harness: {harnesses} (default $BUCKLER_DRIVER or {default_driver})', effect: 'changes-state' },
    { name: '--event', value: 'EVENT', help: 'for payloads that do not name their event (Copilot CLI native hooks)', effect: 'changes-state' },
  ],
} as const satisfies { module: string; summary: string; effect: Effect; options: readonly OptionSpec[] };

export const COMMAND_TABLE = [
  {
    name: 'evaluate',
    module: 'evaluate',
    summary: 'PolicyInput JSON in, PolicyOutput JSON out',
    // It writes -o FILE and, with --audit, the audit log: kept off the agent's list as a whole.
    effect: 'changes-state',
    operands: 'none',
    usage: ['buckler evaluate [-i FILE] [-o FILE] [--tier baseline|strict] [--audit]'],
    about: 'Reads one PolicyInput (JSON, see docs/contracts/policy-io.md) and writes the PolicyOutput.',
    options: [
      { name: '--input', short: '-i', value: 'FILE', help: 'read the PolicyInput from FILE (default: stdin)', effect: 'reads-only' },
      { name: '--output', short: '-o', value: 'FILE', help: 'write the PolicyOutput to FILE (default: stdout)', effect: 'changes-state' },
      { name: '--tier', value: 'TIER', choices: ['baseline', 'strict'], help: "use this tier instead of config.toml's [core] tier", effect: 'reads-only' },
      { name: '--audit', help: 'append the decision to the audit log (also: audit_log = true;\nby default denials, asks and bypasses are recorded)', effect: 'changes-state' },
    ],
    notes: 'Exit codes: 0 output written (any decision), 2 bad JSON, bad input or bad arguments.',
  },
  {
    name: 'check',
    module: 'check',
    summary: 'decide one command line, readably',
    effect: 'reads-only',
    operands: 'words',
    complete: 'commands',
    usage: ['buckler check "<command line>" [options]'],
    about: 'Decides one command line as a hook would, and explains the decision.',
    options: [
      TRIGGER,
      TIER,
      ...WHERE,
      { name: '--project', value: 'DIR', multiple: true, help: 'a project root (repeatable; default: the git top-level above\nthe directory, else the directory)', effect: 'reads-only' },
      { name: '--json', help: 'print the full PolicyOutput as JSON', effect: 'reads-only' },
      { name: '--audit', help: "append the decision to the audit log (a person's checks are\nnot recorded otherwise)", effect: 'changes-state' },
    ],
    notes: `The words after the options are the command line, quoted or not:
  buckler check git push --force origin main
  buckler check "git push --force origin main && rm -rf build"
Quote it when it holds shell operators (; && | > …), or your shell runs them itself.

Exit codes: 0 allow or nudge, 1 deny or ask, 2 error.`,
  },
  {
    name: 'explain',
    module: 'explain',
    summary: 'why a command line (or harness event) gets its decision, rule by rule',
    effect: 'reads-only',
    operands: 'words',
    complete: 'commands',
    usage: ['buckler explain [options] <command line>', 'buckler explain [options] -i FILE|- [--driver NAME]'],
    about: `Shows why a command line (or a harness event) gets its decision: each simple command as
analysed (argv, the wrappers it was found through, how its program's options were read), the
rule that decides it with each condition that held (✓), the rules that also match, the rules
that nearly matched and why (one condition short, or not in force: tier, pack switched off),
and how the line's decision follows from its commands'. --all shows every rule that could
apply, in precedence order, condition by condition.`,
    options: [
      { name: '--input', short: '-i', value: 'FILE', help: 'read a harness event (or a PolicyInput) from FILE; - for stdin', effect: 'reads-only' },
      { name: '--driver', value: 'NAME', choices: ['{harnesses}'], help: 'the harness the event comes from: {harnesses}\n(default: recognised from the event, else {default_driver})', effect: 'reads-only' },
      { ...TRIGGER, help: 'for a command line: {triggers} (default: pre_shell_exec)' },
      TIER,
      ...WHERE,
      { name: '--project', value: 'DIR', multiple: true, help: "a project root (repeatable; default: the harness's workspace\nroots, else the git top-level above the directory, else it)", effect: 'reads-only' },
      ...POLICY_DIRS,
      { name: '--all', help: 'every rule that could apply, condition by condition (the full trace)', effect: 'reads-only' },
      { name: '--json', help: 'print the explanation as JSON (docs/contracts/explain.schema.json)', effect: 'reads-only' },
    ],
    notes: 'Exit codes: 0 allow or nudge, 1 deny or ask, 2 error.',
  },
  {
    name: 'test',
    module: 'policy-test',
    summary: 'run policy test cases (YAML): exit 1 with a diff on a mismatch',
    effect: 'reads-only',
    operands: 'some',
    complete: 'files',
    usage: ['buckler test [--packs-dir DIR] [--rules-dir DIR] [--config FILE]', '             [--project DIR] [--trust-project] [--json] [--junit FILE] FILE…'],
    about: `Runs policy test cases: each case is a command line (or a harness event) and the decision,
and optionally the rule, it must get, decided as a hook decides it. For CI on a policy kept in
a repository (docs/testing-policy.md).

  cases:
    - name: force push is denied
      command: git push --force origin main
      decision: deny
      rule: agent-git/no-force-push
    - command: terraform destroy -auto-approve
      tier: strict            # optional: baseline or strict
      cwd: /home/dev/project  # optional: cwd, home, project, env, trigger, tool
      decision: ask`,
    options: [
      ...POLICY_DIRS,
      { name: '--project', value: 'DIR', help: 'cases that do not say where they stand stand in DIR, and its\n.buckler/rules.d loads (default: the current directory\'s project\nwhen it has .buckler/rules.d; else /home/dev/project)', effect: 'reads-only' },
      { name: '--trust-project', help: "take project rules as trusted for this run (a repository's CI\ntesting its own rules); without it they are untrusted, as on a\nfresh clone: they can only tighten. The trust store is neither\nread nor written.", effect: 'reads-only' },
      { name: '--json', help: 'the outcome as one JSON object: ok, total, failed, and each case with\nits file, line, name, expected and got', effect: 'reads-only' },
      { name: '--junit', value: 'FILE', help: 'also write the outcome to FILE as JUnit XML (for CI test reports)', effect: 'changes-state' },
    ],
    notes: 'Exit codes: 0 every case passed, 1 a case failed, 2 a file or an argument is wrong.',
  },
  {
    name: 'validate',
    module: 'validate',
    summary: 'check packs and user rules; exit 1 on errors',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler validate [--packs-dir DIR] [--rules-dir DIR] [--config FILE] [--project DIR] [--json]'],
    about: `Checks the builtin packs, your packs (rules.d), installed signed pack bundles, config.toml and
the current project's rules (.buckler/rules.d, docs/project-rules.md: which loaded, and which
are ignored until you trust them), and runs every rule's examples. Each problem is listed as  file:line rule pack/rule: what is wrong.
Without options it also checks the compiled-pack cache the hook uses: one that was changed
after Buckler wrote it, or is reached through a symbolic link, is an error (the hook never
uses it, and rebuilds it).`,
    options: [
      { name: '--packs-dir', value: 'DIR', help: 'builtin packs to check (default: the packs shipped with Buckler)', effect: 'reads-only' },
      { name: '--rules-dir', value: 'DIR', help: 'user packs to check (default: rules.d in the config directory)', effect: 'reads-only' },
      { name: '--config', value: 'FILE', help: 'config file to check (default: config.toml in the config directory)', effect: 'reads-only' },
      { name: '--project', value: 'DIR', help: "the project whose .buckler/rules.d to check (default: the current\ndirectory's, as a hook there would find it)", effect: 'reads-only' },
      { name: '--rules', help: 'also list every active rule with its pack and source (builtin, user,\nor the signed bundle it came from) and every refused bundle', effect: 'reads-only' },
      { name: '--json', help: 'the problems as one JSON object: ok, counts, and each problem with its\nseverity, file, line, rule and message', effect: 'reads-only' },
    ],
    notes: 'Exit codes: 0 no errors (warnings may be listed), 1 errors found, 2 bad arguments.',
  },
  {
    name: 'scan',
    module: 'scan',
    summary: 'decide what a repository would run (scripts, CI, Dockerfiles, git hooks)',
    effect: 'reads-only',
    operands: 'some',
    complete: 'files',
    usage: ['buckler scan [DIR|FILE] [--format text|sarif] [--fail-on error|warning|note]', '             [--packs ID[,ID…]] [--tier T] [--packs-dir DIR] [--rules-dir DIR] [--config FILE]'],
    about: `Reads what a repository would run, with the readers the hook uses: package.json scripts,
Makefile recipes, shell scripts (*.sh, *.bash, a sh or bash #! line), GitHub Actions run: steps
(.github/workflows/*.yml), GitLab CI before_script/script/after_script (.gitlab-ci.yml),
Dockerfile RUN lines (shell and exec form) and git hooks (.githooks/, .husky/). Each is decided
as a hook decides what an agent runs there: the same packs, rules.d, config.toml and tier, and
the repository's .buckler/rules.d, trusted or not as 'buckler trust' left it. A finding is a
line an agent would be denied (error), asked about (warning) or nudged on (note) if it ran it
here, with its rule, file, line, column and reason. .git and node_modules are not read.`,
    options: [
      { name: '--format', value: 'FORMAT', choices: ['text', 'sarif'], help: 'text (default) or sarif (SARIF 2.1.0, for code-scanning services)', effect: 'reads-only' },
      { name: '--fail-on', value: 'LEVEL', choices: ['error', 'warning', 'note'], help: 'the least finding that makes the exit code 1 (default: error, a deny)', effect: 'reads-only' },
      { name: '--packs', value: 'IDS', help: 'decide with the rules of these packs only (comma-separated ids)', effect: 'reads-only' },
      TIER,
      ...POLICY_DIRS,
    ],
    notes: `  buckler scan                          the current directory
  buckler scan --format sarif . > buckler.sarif
  buckler scan --packs agent-git,agent-fs --fail-on warning

Exit codes: 0 no finding at --fail-on's level or above, 1 one or more, 2 a usage error or a file
that cannot be read (too large, not valid JSON or YAML).`,
  },
  {
    name: 'hooks',
    module: 'hooks',
    summary: 'merge|strip|status Buckler in a harness config',
    operands: 'none',
    usage: ['buckler hooks merge|strip|status [options]'],
    about: `  merge    add Buckler's hooks to a harness config (or update them); idempotent
  strip    remove Buckler's hooks (and only them); restores the original bytes when it can
  status   show which hooks are wired, the command they run and whether it exists, and the
           rules the hooks leave out (with the project rules of --project DIR)`,
    subcommands: [
      { name: 'merge', summary: "add Buckler's hooks to a harness config (or update them)", effect: 'changes-state' },
      { name: 'strip', summary: "remove Buckler's hooks (and only them)", effect: 'changes-state' },
      { name: 'status', summary: 'show which hooks are wired and whether they run', effect: 'reads-only' },
    ],
    options: [
      { name: '--harness', value: 'NAME', choices: ['{installable}', 'all'], help: '{installable}, or all (default:\nevery harness whose home directory exists, as setup.sh does)', effect: 'reads-only' },
      { name: '--scope', value: 'SCOPE', choices: ['user', 'project', 'local', 'managed'], help: "user (default), project, local (claude-code only), or managed (claude-code:\nthe administrator's managed settings, which project settings cannot switch off)", effect: 'reads-only' },
      { name: '--project', value: 'DIR', help: 'project directory for --scope project|local, and whose .buckler/rules.d\nstatus checks (default: the current directory)', effect: 'reads-only' },
      { name: '--command', value: 'CMD', help: 'how hooks start Buckler, without --driver (default: this node and this bundle,\nby absolute path); Buckler appends --driver <harness>', effect: 'reads-only' },
      { name: '--dry-run', help: 'show the planned change and the diff; write nothing', effect: 'reads-only' },
      JSON_OUT,
    ],
    notes: `Exit codes: 0 done (status: fully wired and runnable); 1 a config could not be read, parsed or
written, or (status) is not fully wired; 2 usage error. Details: docs/hooks.md`,
  },
  {
    name: 'paths',
    module: 'paths',
    summary: 'print the files and directories Buckler uses',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler paths [--json]'],
    about: `Prints the files and directories Buckler uses. Overrides: BUCKLER_DATA_HOME,
BUCKLER_CONFIG_HOME, BUCKLER_STATE_HOME, BUCKLER_BIN_DIR; then XDG_*_HOME; see docs/paths.md.`,
    options: [JSON_OUT],
  },
  {
    name: 'log',
    module: 'log',
    summary: 'show recent decisions from the audit log',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler log [--since D] [--decision D[,D…]] [--rule R] [--project P] [--session S]', '            [--json] [-n N] [--file PATH]'],
    about: `Shows recent decisions from the audit log, newest last (denials, asks, bypasses and
allow-once uses by default; every decision with audit_log = true in config.toml).`,
    options: [...LOG_FILTERS, { name: '--limit', short: '-n', value: 'N', help: 'only the last N (default 20, or all with --since)', effect: 'reads-only' }, JSON_LINES, LOG_FILE],
    notes: 'Exit codes: 0 shown (or nothing to show), 1 the log could not be read, 2 usage.',
  },
  {
    name: 'stats',
    module: 'stats',
    summary: 'count the audit log by decision, rule, project and day',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler stats [--since D] [--decision D[,D…]] [--rule R] [--project P] [--session S]', '              [--json] [--file PATH]'],
    about: `Counts the audit log's decisions by decision, rule, project and day, and lists the commands
most often denied or asked. The options select records as 'buckler log' does.`,
    options: [...LOG_FILTERS, { name: '--json', help: 'the counts as one JSON object', effect: 'reads-only' }, LOG_FILE],
    notes: 'Exit codes: 0 shown, 1 the log could not be read, 2 usage.',
  },
  {
    name: 'replay',
    module: 'replay',
    summary: 're-decide logged commands under another policy; print what changes',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler replay [--config DIR] [--tier T] [--since D] [--decision D[,D…]] [--rule R]', '               [--project P] [--session S] [--json] [--file PATH]'],
    about: `Re-decides the shell commands in the audit log under another policy and prints each whose
decision would change (old → new). The policy: config.toml and rules.d/ from DIR (default:
yours), at tier T (default: that config's), with each record's project rules
(.buckler/rules.d of its project, trusted or not as now) loaded as a hook there would load them
now. Commands replay as recorded (redacted, cut at 4 KB); records of the operator bypass are
skipped (the decision it replaced is not recorded).`,
    options: [
      { name: '--config', value: 'DIR', help: 'the directory of the config.toml and rules.d/ to replay under', effect: 'reads-only' },
      TIER,
      ...LOG_FILTERS,
      { name: '--json', help: 'each change as one JSON object per line', effect: 'reads-only' },
      LOG_FILE,
    ],
    notes: 'Exit codes: 0 shown, 1 the log or the policy could not be read, 2 usage.',
  },
  {
    name: 'pack',
    module: 'pack',
    summary: 'signed pack bundles: keygen|sign|install|list|update|rollback|remove',
    operands: 'some',
    complete: 'files',
    usage: ['buckler pack COMMAND ...'],
    about: `Signed pack bundles: a team's packs, signed once, installed and updated on every machine.
See docs/pack-bundles.md.

For the team that publishes:
  buckler pack keygen --out FILE
      a new Ed25519 key pair: FILE (private, PEM, mode 0600) and FILE.pub (public key line)
  buckler pack sign DIR --key FILE --name NAME --version X.Y.Z [--out FILE]
      a bundle of every *.yaml / *.yml in DIR (checked first, examples run), signed with the
      private key FILE (--key may be given more than once: one signature per key);
      default output NAME-X.Y.Z.bundle

For each machine (trust the team's key first: [bundles] trusted_keys in config.toml):
  buckler pack install FILE|URL [--allow-downgrade]
  buckler pack list [--json]
  buckler pack update [NAME...] [--allow-downgrade]   re-fetch from the recorded source
  buckler pack update --rollback NAME...              same as: buckler pack rollback NAME
  buckler pack rollback NAME                          back to the version update replaced
  buckler pack remove NAME

A bundle is refused, and nothing changes, when it is signed by no trusted key, its signature
is bad, its content does not match its manifest, it needs a newer pack format, it is older
than the installed version (unless --allow-downgrade), or one of its pack ids is already
loaded from elsewhere.`,
    subcommands: [
      // Writes a signing key where it is told: the person's, never the agent's.
      { name: 'keygen', summary: 'a new Ed25519 key pair', effect: 'changes-state', options: [{ name: '--out', value: 'FILE', help: 'the private key file (FILE.pub: the public key)', effect: 'changes-state' }] },
      {
        name: 'sign',
        summary: 'a signed bundle of the packs in DIR',
        effect: 'changes-state',
        options: [
          { name: '--key', value: 'FILE', multiple: true, help: 'a private key to sign with (repeatable)', effect: 'reads-only' },
          { name: '--name', value: 'NAME', help: "the bundle's name", effect: 'reads-only' },
          { name: '--version', value: 'X.Y.Z', help: "the bundle's version", effect: 'reads-only' },
          { name: '--out', value: 'FILE', help: 'the bundle file (default NAME-X.Y.Z.bundle)', effect: 'changes-state' },
        ],
      },
      { name: 'install', summary: 'install a bundle from FILE or URL', effect: 'changes-state', options: [{ name: '--allow-downgrade', help: 'install an older version than the one installed', effect: 'changes-state' }] },
      { name: 'list', summary: 'the installed bundles', effect: 'reads-only', options: [JSON_OUT] },
      {
        name: 'update',
        summary: 're-fetch bundles from their recorded source',
        effect: 'changes-state',
        options: [
          { name: '--allow-downgrade', help: 'accept an older version than the one installed', effect: 'changes-state' },
          { name: '--rollback', help: 'same as: buckler pack rollback NAME', effect: 'changes-state' },
        ],
      },
      { name: 'rollback', summary: 'back to the version update replaced', effect: 'changes-state' },
      { name: 'remove', summary: 'remove an installed bundle', effect: 'changes-state' },
    ],
    options: [],
    notes: 'Exit codes: 0 done, 1 refused or failed, 2 bad arguments.',
  },
  {
    name: 'allow',
    module: 'allow',
    summary: 'let one blocked command through, once (--list, --revoke)',
    effect: 'changes-state',
    operands: 'words',
    complete: 'commands',
    usage: ['buckler allow [--project DIR] [--uses N] [--for DURATION] [--] WORD…', 'buckler allow --list [--json]', 'buckler allow --revoke ID|all'],
    about: `Lets exactly one simple command (these words, as Buckler's block message shows them) run in
one project although a deny or ask rule blocks it: for N tool calls (default {default_uses}) within
DURATION (default 10m, at most 24h). Run it yourself, in your own terminal: Buckler's
agent-tamper pack denies it from an agent's shell.`,
    options: [
      { name: '--project', value: 'DIR', help: 'the project the command runs in (default: the project of the current\ndirectory: its repository root)', effect: 'reads-only' },
      { name: '--uses', value: 'N', help: 'how many tool calls may use it (1..{max_uses}, default {default_uses})', effect: 'reads-only' },
      { name: '--for', value: 'D', help: 'how long it stays valid: 30s, 10m, 2h, 1d (default 10m, at most 1d)', effect: 'reads-only' },
      { name: '--list', help: 'list the entries still valid (read-only); --json for JSON lines', effect: 'reads-only', selects: 'reads-only' },
      { name: '--json', help: 'with --list: one JSON object per entry', effect: 'reads-only' },
      { name: '--revoke', value: 'ID', help: 'remove an entry (or all of them)', effect: 'changes-state' },
    ],
    notes: 'Exit codes: 0 done, 1 the store could not be read or written, 2 usage.',
  },
  {
    name: 'suggest',
    module: 'suggest',
    summary: 'rules proposed from the commands you allowed once, again and again',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler suggest [--min N] [--project DIR]', 'buckler suggest --write [--out FILE] [--min N] [--project DIR]'],
    about: `Proposes a rule for each command you let through with 'buckler allow' at least N times (the
grants you made, as 'buckler allow' records them; never what the audit log alone says): the rule
allows exactly those words, in that order and no more, in that project, and says how many times
and over what period you allowed it. None is proposed for what agent-tamper or agent-secrets
blocks, for a file-tool entry, or for a command no longer blocked. Shown only; --write writes
them as a new file in your rules.d (never over an existing file).`,
    options: [
      { name: '--min', value: 'N', help: 'how many grants make a suggestion (default 2)', effect: 'reads-only' },
      { name: '--project', value: 'DIR', help: 'only grants made for this project (its root directory)', effect: 'reads-only' },
      { name: '--write', help: 'write the rules to a new file in rules.d (suggested-<time>.yaml)', effect: 'changes-state' },
      { name: '--out', value: 'FILE', help: 'with --write: this file instead (refused when it exists)', effect: 'changes-state' },
    ],
    notes: 'Exit codes: 0 done (also when there is nothing to suggest), 1 the grant history could not be\nread or the file not written (it exists), 2 usage.',
  },
  {
    name: 'init',
    module: 'init',
    summary: 'write a commented starter config.toml (and, with --project, .buckler/rules.d)',
    effect: 'changes-state',
    operands: 'none',
    usage: ['buckler init [--project [--dir DIR]]'],
    about: `Writes a commented starter config.toml (tier, packs, audit log) in the config directory
('buckler paths' shows it). With --project, writes instead a starter .buckler/rules.d in the
project (an example rule and a policy test file for 'buckler test'). It never overwrites a file:
when one exists, it says so and writes nothing. What it writes passes 'buckler validate'.`,
    options: [
      { name: '--project', help: "the project's .buckler/rules.d instead of config.toml", effect: 'changes-state' },
      { name: '--dir', value: 'DIR', help: 'with --project: the project root (default: the current directory\'s\ngit top-level, else the directory)', effect: 'reads-only' },
    ],
    notes: 'Exit codes: 0 written, 1 a file exists (nothing written) or could not be written, 2 usage.',
  },
  {
    name: 'trust',
    module: 'trust',
    summary: "trust this repository's .buckler/rules.d (--status, --revoke, --list)",
    effect: 'changes-state',
    operands: 'none',
    usage: ['buckler trust [--project DIR]', 'buckler trust --status [--project DIR] [--json]', 'buckler trust --revoke [--project DIR]', 'buckler trust --list [--json]'],
    about: `A repository's own rules (.buckler/rules.d/*.yaml) load for hooks in that project at once, but
until you trust them they can only make decisions more severe: their deny, ask and nudge rules
apply without outranking your rules or the builtin ones, and their allow rules and programs:
entries are ignored. 'buckler trust' records the digest of the files as they are now; they then
count like your own rules. Any change to them (a file edited, added or removed) makes them
untrusted again. Run it yourself, in your own terminal, after reading the files: Buckler's
agent-tamper pack denies it from an agent's shell. Trusting and revoking are recorded in the
audit log (unless audit_log = false).`,
    options: [
      { name: '--project', value: 'DIR', help: "the project (default: the current directory's: its git top-level,\nelse the directory itself)", effect: 'reads-only' },
      { name: '--status', help: "say whether the project's rules are trusted as they are now (exit 0\nwhen trusted, 1 when not)", effect: 'reads-only', selects: 'reads-only' },
      { name: '--revoke', help: 'forget the trust: the rules can only tighten again', effect: 'changes-state' },
      { name: '--list', help: 'every trusted project, and whether its rules still match', effect: 'reads-only', selects: 'reads-only' },
      { name: '--json', help: '--status and --list as JSON', effect: 'reads-only' },
    ],
    notes: `Exit codes: 0 done (--status: trusted), 1 not done (no project rules, rules with errors, the
trust store could not be written; --status: not trusted), 2 usage.`,
  },
  {
    name: 'doctor',
    module: 'doctor',
    summary: 'check that Buckler really guards every harness here; exit 1 on a problem',
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler doctor [--project DIR] [--json]', 'buckler doctor --live [--check TOKEN]'],
    about: `Checks that Buckler really guards this machine: for every harness found, its version, whether
Buckler is wired for every event it needs, whether each wired command starts and denies (a live
self-test), and every setting that switches hooks off; then Buckler's own packs and rules.`,
    options: [
      { name: '--project', value: 'DIR', help: 'the project whose project and local settings to check (default: .)', effect: 'reads-only' },
      JSON_OUT,
      { name: '--live', help: 'print a harmless canary command (with a unique token) to ask your agent\nto run: it proves the running harness calls the hook', effect: 'reads-only' },
      { name: '--check', value: 'TOKEN', help: "with --live: what the audit log says of the canary TOKEN: which\nharness's hook saw it and what it decided", effect: 'reads-only' },
    ],
    notes: 'Exit codes: 0 no problem found (--live --check: a hook saw the canary and blocked it),\n1 a problem found (--check: no hook saw it, or one let it through), 2 bad arguments.',
  },
  {
    name: 'completion',
    module: 'completion',
    summary: 'print a shell completion script: bash, zsh or fish',
    operands: 'none',
    usage: ['buckler completion bash|zsh|fish'],
    about: `Prints the completion script for a shell, generated from Buckler's command table: every
command, subcommand and option completes. Load it from the shell's start-up file:
  bash:  eval "$(buckler completion bash)"            (~/.bashrc)
  zsh:   eval "$(buckler completion zsh)"             (~/.zshrc, after compinit)
  fish:  buckler completion fish | source             (~/.config/fish/config.fish)`,
    subcommands: [
      { name: 'bash', summary: 'the bash completion script', effect: 'reads-only' },
      { name: 'zsh', summary: 'the zsh completion script', effect: 'reads-only' },
      { name: 'fish', summary: 'the fish completion script', effect: 'reads-only' },
    ],
    options: [],
    notes: 'Exit codes: 0 printed, 2 usage.',
  },
  {
    name: 'help',
    module: 'help',
    summary: "this list, or a command's options",
    effect: 'reads-only',
    operands: 'some',
    complete: 'none',
    usage: ['buckler help [COMMAND]'],
    about: "Prints the list of commands, or COMMAND's usage and options (the same as 'buckler COMMAND --help').",
    options: [],
  },
  {
    name: 'version',
    module: null,
    summary: "print Buckler's version (also --version, -v)",
    effect: 'reads-only',
    operands: 'none',
    usage: ['buckler version'],
    about: "Prints Buckler's version.",
    options: [],
  },
] as const satisfies readonly CommandSpec[];

/** The options every command takes. */
export const COMMON_OPTIONS: readonly OptionSpec[] = [{ name: '--help', short: '-h', help: 'show this help', effect: 'reads-only' }];

/** The options `buckler` takes instead of a command. */
export const TOP_OPTIONS: readonly OptionSpec[] = [
  { name: '--help', short: '-h', help: 'the list of commands', effect: 'reads-only' },
  { name: '--version', short: '-v', help: "Buckler's version (also -V)", effect: 'reads-only' },
];

type Table = typeof COMMAND_TABLE;
export type CommandName = Table[number]['name'];
/** The commands a module of src/cli runs (all but `version`). */
export type ModuleCommand = Extract<Table[number], { module: string }>['name'];

export function commandSpec(name: string): CommandSpec | undefined {
  return (COMMAND_TABLE as readonly CommandSpec[]).find((c) => c.name === name);
}
