/**
 * OpenCode: no command hooks, so Buckler writes a plugin file of its own (plugin.ts) into
 * OpenCode's plugin folder: `$XDG_CONFIG_HOME/opencode/plugins/buckler.js` (user) or
 * `<project>/.opencode/plugins/buckler.js` (project). OpenCode 1.18.33 loads every
 * `{plugin,plugins}/*.{ts,js}` in its config folders (`glob("{plugin,plugins}/*.{ts,js}"`).
 *
 * The file stands for a tiny config value, `{hooks: {command, current}}`: merge writes it (or rewrites it when its
 * command or text is not what Buckler writes today), strip deletes it, status reads the command
 * back. A file at that path that Buckler did not write is refused and left alone.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { Change, Edit, FoundHook, HarnessInstaller, WantedHook } from '../installer.ts';
import type { JsonObject } from '../json-text.ts';
import { readOwnCommand } from '../own-command.ts';
import { AFTER_TIMEOUT_MS, BEFORE_TIMEOUT_MS, parsePlugin, renderPlugin, type PluginHooks } from './plugin.ts';

const OPENCODE_HOOKS: readonly WantedHook[] = [
  { event: 'tool.execute.before', timeout: BEFORE_TIMEOUT_MS / 1000, blockOnFailure: true },
  { event: 'tool.execute.after', timeout: AFTER_TIMEOUT_MS / 1000, blockOnFailure: false },
];

function hooksOf(value: JsonObject): Partial<PluginHooks> {
  return typeof value.hooks === 'object' && value.hooks !== null ? (value.hooks as Partial<PluginHooks>) : {};
}

function commandOf(value: JsonObject): string | undefined {
  const c = hooksOf(value).command;
  return typeof c === 'string' && c !== '' ? c : undefined;
}

function changes(op: Change['op'], command: string, previous?: string): Change[] {
  return OPENCODE_HOOKS.map((h) => ({ op, event: h.event, command, ...(previous === undefined ? {} : { previous }) }));
}

function wire(value: JsonObject, command: string): Edit {
  const before = commandOf(value);
  if (before === command && hooksOf(value).current === true) return { value, changes: [] };
  return { value: { hooks: { command, current: true } }, changes: before === undefined ? changes('add', command) : changes('replace', command, before) };
}

function unwire(value: JsonObject): Edit {
  const before = commandOf(value);
  return before === undefined ? { value, changes: [] } : { value: {}, changes: changes('remove', before) };
}

function find(value: JsonObject): FoundHook[] {
  const command = commandOf(value);
  if (command === undefined) return [];
  const files = readOwnCommand(command)?.files ?? [];
  return OPENCODE_HOOKS.map((h) => ({ event: h.event, command, files, asWanted: hooksOf(value).current === true }));
}

export const opencodeInstaller: HarnessInstaller = {
  name: 'opencode',
  scopes: HARNESS_SCOPES.opencode,
  hooks: OPENCODE_HOOKS,
  cli: { bin: 'opencode', versionArgs: ['--version'] },
  // OpenCode has no setting that turns plugins off; `--pure` (a flag) and OPENCODE_PURE do.
  offSwitches: [],
  offEnv: [{ name: 'OPENCODE_PURE', effect: 'OpenCode loads no external plugin, Buckler\'s included (as with `opencode --pure`)' }],
  codec: { parse: parsePlugin, render: renderPlugin },
  emptyConfig: () => ({}),
  problem: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && (value as JsonObject).hooks !== null && typeof ((value as JsonObject).hooks ?? {}) === 'object'
      ? null
      : 'is not a plugin file Buckler wrote',
  warnings: () => [],
  wire,
  unwire,
  find,
};
