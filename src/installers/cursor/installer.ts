/**
 * Cursor: `{"version": 1, "hooks": {"<event>": [ {command, matcher, timeout, failClosed} ]}}`
 * in ~/.cursor/hooks.json (user) or <project>/.cursor/hooks.json (project).
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { HarnessInstaller } from '../installer.ts';
import { isObject } from '../json-text.ts';
import { readOwnCommand } from '../own-command.ts';
import { describeType } from '../describe.ts';
import { flatFind, flatProblem, flatUnwire, flatWire, type FlatWiring } from '../flat-lists.ts';
import { CURSOR_HOOKS, cursorEntry } from './wiring.ts';

function ownCommand(entry: unknown): { command: string; files: string[] } | null {
  if (!isObject(entry) || typeof entry.command !== 'string') return null;
  if (entry.type !== undefined && entry.type !== 'command') return null;
  const own = readOwnCommand(entry.command);
  return own === null ? null : { command: entry.command, files: own.files };
}

const WIRING: FlatWiring = { hooks: CURSOR_HOOKS, entry: cursorEntry, own: ownCommand };

export const cursorInstaller: HarnessInstaller = {
  name: 'cursor',
  scopes: HARNESS_SCOPES.cursor,
  hooks: CURSOR_HOOKS,
  // Cursor's hooks.json has no switch that turns every hook off (@cursor/sdk 1.0.32), and the
  // editor has no command-line program that prints its version.
  offSwitches: [],
  emptyConfig: () => ({ version: 1, hooks: {} }),
  problem(value) {
    if (!isObject(value)) return `must be a JSON object, found ${describeType(value)}`;
    if ('version' in value) {
      const v = value.version;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
        return `"version" must be a positive integer, found ${describeType(v)}`;
      }
      if (v !== 1) return `"version": ${v} is not a hooks.json version Buckler knows (1)`;
    }
    return flatProblem(value);
  },
  warnings(value) {
    return 'version' in value ? [] : ['has no "version": 1; Cursor may refuse to load it'];
  },
  wire: (value, command) => flatWire(value, WIRING, command),
  unwire: (value) => flatUnwire(value, WIRING),
  find: (value) => flatFind(value, WIRING),
};
