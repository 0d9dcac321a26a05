/**
 * GitHub Copilot CLI, native hooks: `"hooks": {"<event>": [ {type, bash, timeoutSec} ]}` inside
 * `~/.copilot/settings.json` (`$COPILOT_HOME/settings.json`) or a repository's
 * `.github/copilot/settings.json`. Every other settings key and entry is left alone.
 * An entry is Buckler's when its `bash` (or `command`) is a Buckler command; its `--event`
 * tail is the event's own and is left out of the command `find` reports.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { HarnessInstaller } from '../installer.ts';
import { isObject } from '../json-text.ts';
import { readOwnCommand, withoutEvent } from '../own-command.ts';
import { flatFind, flatProblem, flatUnwire, flatWire, type FlatWiring } from '../flat-lists.ts';
import { COPILOT_HOOKS, copilotEntry } from './wiring.ts';

function ownCommand(entry: unknown): { command: string; files: string[] } | null {
  if (!isObject(entry) || (entry.type !== undefined && entry.type !== 'command')) return null;
  const line = typeof entry.bash === 'string' ? entry.bash : typeof entry.command === 'string' ? entry.command : null;
  if (line === null) return null;
  const own = readOwnCommand(line);
  return own === null ? null : { command: own.event === undefined ? line : withoutEvent(line.trim()), files: own.files };
}

const WIRING: FlatWiring = { hooks: COPILOT_HOOKS, entry: copilotEntry, own: ownCommand };

/** Repository hooks run only in folders the person trusted: not something Buckler grants. */
export const COPILOT_REPO_TRUST_NOTE =
  'Copilot CLI runs repository hooks only in folders you trust ("trustedFolders" in ~/.copilot/config.json, ' +
  'or answer its trust prompt); Buckler does not trust folders for you';

function warnings(value: Record<string, unknown>, file = ''): string[] {
  const out: string[] = [];
  if (value.disableAllHooks === true) out.push('has "disableAllHooks": true; Copilot CLI runs none of its hooks');
  if (/[\\/]\.github[\\/]copilot[\\/]settings(\.local)?\.json$/.test(file)) out.push(COPILOT_REPO_TRUST_NOTE);
  return out;
}

export const copilotCliInstaller: HarnessInstaller = {
  name: 'copilot-cli',
  scopes: HARNESS_SCOPES['copilot-cli'],
  hooks: COPILOT_HOOKS,
  cli: { bin: 'copilot', versionArgs: ['--version'] },
  // cli-main.js 1.0.102: "`disableAllHooks`: whether to disable all hooks (repo-level and user-level)".
  offSwitches: [
    {
      scopes: ['user', 'project'],
      key: 'disableAllHooks',
      value: true,
      effect: 'Copilot CLI runs no hooks at all (user and repository), Buckler included',
    },
  ],
  // The flat-list edits keep a `hooks` object they emptied: a file merge created is this again.
  emptyConfig: () => ({ hooks: {} }),
  problem: flatProblem,
  warnings,
  wire: (value, command) => flatWire(value, WIRING, command),
  unwire: (value) => flatUnwire(value, WIRING),
  find: (value) => flatFind(value, WIRING),
};
