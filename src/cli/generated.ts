/**
 * What is generated from the command table into files people and packs read: agent-tamper's
 * list of the Buckler commands an agent may run (packs/agent-tamper.yaml) and the command list
 * of docs/cli.md. Each sits between `BEGIN GENERATED <id>` and `END GENERATED <id>` comment
 * lines; `node scripts/generate.mjs` rewrites them, and generated.test.ts fails while a file
 * differs from what the table says. The pack carries the list as data: nothing of this runs on
 * the hook path.
 */
import { COMMAND_TABLE, type CommandSpec, type OptionSpec } from './command-table.ts';

const table = COMMAND_TABLE as readonly CommandSpec[];

/** The flags that make a run change state (checked against the table's options). */
function changing(options: readonly OptionSpec[]): string[] {
  return options.filter((o) => o.effect === 'changes-state').flatMap((o) => (o.short !== undefined ? [o.name, o.short] : [o.name]));
}

function flags(list: readonly string[]): string {
  return `[${list.join(', ')}]`;
}

/** One matcher a line: `buckler <these words>` only reads. */
export function readOnlyMatchers(): string[] {
  const out: string[] = [];
  const entry = (words: string, options: readonly OptionSpec[], extra = ''): void => {
    const none = changing(options);
    out.push(`- { subcommand: ${words}${extra}${none.length > 0 ? `, flags_none: ${flags(none)}` : ''} }`);
  };
  for (const c of table) {
    if (c.effect === 'reads-only') entry(c.name, c.options);
    for (const s of c.subcommands ?? []) if (s.effect === 'reads-only') entry(`${c.name} ${s.name}`, [...c.options, ...(s.options ?? [])]);
    const selecting = c.options.filter((o) => o.selects === 'reads-only');
    if (c.effect === 'changes-state' && selecting.length > 0) entry(c.name, c.options, `, flags_any: ${flags(selecting.map((o) => o.name))}`);
  }
  // A bare `buckler --help` / `--version`, and any command's --help.
  out.push('- { flags_any: [--help, -h, --version, -V] }');
  return out;
}

/** What the agent is told it may run, from the same table. */
export function agentMayRun(): string {
  const words: string[] = [];
  for (const c of table) {
    if (c.name === 'help' || c.name === 'version') continue;
    if (c.effect === 'reads-only') words.push(c.name);
    for (const s of c.subcommands ?? []) if (s.effect === 'reads-only' && c.name !== 'completion') words.push(`${c.name} ${s.name}`);
    if (c.name === 'completion') words.push('completion');
    if (c.effect === 'changes-state') for (const o of c.options) if (o.selects === 'reads-only') words.push(`${c.name} ${o.name}`);
  }
  const list = words.map((w, i) => (i === 0 ? `\`buckler ${w}\`` : `\`${w}\``));
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** The rule's agent message (one line: a generated block holds no folded text). */
function agentMessage(): string[] {
  const text =
    "Blocked: `{command}` changes Buckler's setup, the guard that checks your commands ({rule}). " +
    'Only the person runs Buckler commands that install, update, wire, unwire, allow or configure or trust. ' +
    `You may run ${agentMayRun()}.`;
  return [`agent_message: ${JSON.stringify(text)}`];
}

/** docs/cli.md's list of commands. */
function docsCommands(): string[] {
  const rows = table.map((c) => {
    const subs = c.subcommands === undefined ? '' : c.subcommands.length <= 3 ? ` ${c.subcommands.map((s) => s.name).join('|')}` : ' COMMAND';
    return [`buckler ${c.name}${subs}`, c.summary];
  });
  const width = Math.max(...rows.map((r) => (r[0] as string).length));
  return ['```', ...rows.map(([a, b]) => `${(a as string).padEnd(width)}  ${b}`), '```'];
}

/** docs/cli.md's table of which commands only read (what agent-tamper lets an agent run). */
function docsEffects(): string[] {
  const rows: string[] = ['| command | effect |', '| --- | --- |'];
  for (const c of table) {
    if (c.effect !== undefined) {
      const modes = c.options.filter((o) => o.selects === 'reads-only').map((o) => `\`${o.name}\``);
      const changes = c.effect === 'reads-only' ? changing(c.options).filter((f) => f.startsWith('--')).map((f) => `\`${f}\``) : [];
      const note = modes.length > 0 ? ` (reads only with ${modes.join(' or ')})` : changes.length > 0 ? ` (changes state with ${changes.join(', ')})` : '';
      rows.push(`| \`buckler ${c.name}\` | ${c.effect}${note} |`);
    }
    for (const s of c.subcommands ?? []) rows.push(`| \`buckler ${c.name} ${s.name}\` | ${s.effect} |`);
  }
  return rows;
}

export const GENERATORS: Record<string, () => string[]> = {
  'agent-tamper-readonly': readOnlyMatchers,
  'agent-tamper-message': agentMessage,
  'cli-commands': docsCommands,
  'cli-effects': docsEffects,
};

/** The files that hold generated blocks. */
export const GENERATED_FILES = ['packs/agent-tamper.yaml', 'docs/cli.md'];

/**
 * `text` with every generated block rewritten: the lines between a line holding
 * `BEGIN GENERATED <id>` and the next holding `END GENERATED <id>`, each indented as the BEGIN
 * line is. Throws on an unknown id or a block that is not closed.
 */
export function regenerate(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    out.push(line);
    const m = /BEGIN GENERATED ([a-z-]+)/.exec(line);
    if (!m) continue;
    const id = m[1] as string;
    const gen = GENERATORS[id];
    if (gen === undefined) throw new Error(`unknown generated block ${id}`);
    const end = lines.findIndex((l, j) => j > i && l.includes(`END GENERATED ${id}`));
    if (end < 0) throw new Error(`generated block ${id} is not closed`);
    const indent = /^\s*/.exec(line)![0];
    out.push(...gen().map((l) => (l === '' ? l : indent + l)));
    out.push(lines[end] as string);
    i = end;
  }
  return out.join('\n');
}
