/**
 * `buckler init [--project [--dir DIR]]`: a commented starter config.toml in the config
 * directory, or (with --project) a starter `.buckler/rules.d` in a project: an example rule and
 * a policy test file for `buckler test` (`.buckler/tests.yaml`). Never overwrites: when any file it would write exists,
 * it writes nothing and says which (exit 1). What it writes passes `buckler validate`
 * (init.e2e.test.ts). A state-changing command: agent-tamper denies it to an agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileNew } from '../files/atomic.ts';
import { flag, parseCommand, str, usageError } from './args.ts';
import type { CliIO } from './io.ts';
import { processPathContext, processPaths, systemMode } from './process-paths.ts';
import { projectRoot } from './project.ts';
import { showHelp } from './show-help.ts';

export const STARTER_CONFIG = `# Buckler's configuration (docs/packs.md, "config.toml"). Every line below is optional:
# the values shown commented out are the defaults. Check this file with: buckler validate

[core]
# "baseline" (the default) or "strict": strict also loads the rules marked tier: strict
# (more asks, some asks become denies).
# tier = "baseline"

# The audit log (docs/audit-log.md): absent records denials, asks, bypasses and allow-once
# uses; true records every decision; false records none.
# audit_log = true

[packs]
# Every builtin pack is on. Switch one off by its id (buckler validate --rules lists them):
# agent-worktree = { enabled = false }

# [bundles]
# Public keys whose signed pack bundles load (docs/pack-bundles.md):
# trusted_keys = ["ed25519:…"]
`;

const EXAMPLE_RULES = `# This project's own rules (docs/project-rules.md). They load for hooks in this project; until
# you run \`buckler trust\` here they can only make decisions stricter (allow rules are ignored).
# Check them with: buckler validate   Test them with: buckler test .buckler/tests.yaml
pack: project-example
rules:
  - id: ask-before-deploy
    description: deploying from this project is a person's decision
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - program: make
          subcommand: deploy
    action: ask
    user_message: "make deploy from this project: allow it?"
    agent_message: "Deploying is the person's decision; they have been asked."
    examples:
      match: ["make deploy", "make -j4 deploy"]
      no_match: ["make build", "make test"]
`;

const EXAMPLE_TESTS = `# Policy tests for this project (docs/testing-policy.md), run from the project root:
#   buckler test .buckler/tests.yaml
# Each case is a command line and the decision (and rule) it must get, decided as a hook in this
# project decides it. Kept beside rules.d, not in it: every *.yaml in rules.d is a pack.
cases:
  - name: deploying asks
    command: make deploy
    decision: ask
    rule: project-example/ask-before-deploy
  - name: building is allowed
    command: make build
    decision: allow
  - name: a force push is still denied
    command: git push --force origin main
    decision: deny
`;

/** Each file to write, with its text. */
export function starterFiles(project: string | null, configFile: string): { file: string; text: string }[] {
  if (project === null) return [{ file: configFile, text: STARTER_CONFIG }];
  const dir = path.join(project, '.buckler', 'rules.d');
  return [
    { file: path.join(dir, 'example.yaml'), text: EXAMPLE_RULES },
    { file: path.join(project, '.buckler', 'tests.yaml'), text: EXAMPLE_TESTS },
  ];
}

export async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('init', args, io);
  if (!parsed) return 2;
  if (parsed.help) return showHelp('init', io);
  const forProject = flag(parsed, 'project');
  const dir = str(parsed, 'dir');
  if (dir !== undefined && !forProject) return usageError(io, 'init', '--dir needs --project');
  if (!forProject && systemMode()) {
    io.err('buckler init: the locked-down install reads /etc/buckler/config.toml; write it as root (docs/install.md)\n');
    return 1;
  }
  const project = forProject ? (dir !== undefined ? path.resolve(io.cwd, dir) : projectRoot(io.cwd, processPathContext(io.env).home)) : null;
  const files = starterFiles(project, processPaths(io.env).configFile);
  const existing = files.find((f) => fs.existsSync(f.file) || isLink(f.file));
  if (existing !== undefined) {
    io.err(`buckler init: ${existing.file} exists; nothing written (move it away to start again)\n`);
    return 1;
  }
  const written: string[] = [];
  try {
    for (const f of files) {
      fs.mkdirSync(path.dirname(f.file), { recursive: true, mode: 0o700 });
      // Never over a file that appeared meanwhile, never through a link.
      writeFileNew(f.file, f.text, 0o644);
      written.push(f.file);
    }
  } catch (e) {
    for (const f of written) fs.rmSync(f, { force: true });
    io.err(`buckler init: ${e instanceof Error ? e.message : String(e)}; nothing written\n`);
    return 1;
  }
  for (const f of written) io.out(`wrote ${f}\n`);
  io.out(forProject ? `next: buckler validate, buckler test ${path.relative(io.cwd, written[1]!) || written[1]}, then buckler trust when you want its allow rules\n` : 'next: buckler validate\n');
  return 0;
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
