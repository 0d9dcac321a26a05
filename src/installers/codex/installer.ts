/**
 * Codex CLI: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, command, timeout} ]} ]}`
 * in `$CODEX_HOME/hooks.json` (default ~/.codex/hooks.json) and a project's `.codex/hooks.json`.
 * Every other key and entry is left alone.
 *
 * Trust: Codex skips a hooks.json entry until the person trusts it (a per-hook `trusted_hash`
 * under `[hooks.state."<file>:<event>:<i>:<j>"]` in config.toml). The hash is computed by
 * Codex and reported only through its app-server (`hooks/list` → `currentHash`); its input is
 * not documented, so Buckler does not write it: merge and status say what to do instead.
 */
import { HARNESS_SCOPES } from '../../paths.ts';
import type { HarnessInstaller } from '../installer.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { CODEX_HOOKS, codexHandler } from './wiring.ts';

export const CODEX_TRUST_NOTE =
  'Codex runs hooks.json entries only after you trust them: start codex, open /hooks and trust ' +
  "Buckler's entries (again after any merge that changes them); project hooks also need the project trusted";

export const codexInstaller: HarnessInstaller = {
  name: 'codex',
  scopes: HARNESS_SCOPES.codex,
  cli: { bin: 'codex', versionArgs: ['--version'] },
  // Codex's switches live in config.toml, not in hooks.json (`[features] hooks = false`), and
  // its trust state is a hash Buckler cannot check: both are in docs/adapters/codex.md.
  offSwitches: [],
  warnings: () => [CODEX_TRUST_NOTE],
  ...groupInstaller({ hooks: CODEX_HOOKS, handler: codexHandler }),
};
