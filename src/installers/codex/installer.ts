/**
 * Codex CLI: `"hooks": {"<Event>": [ {"matcher": "…", "hooks": [ {type, command, timeout} ]} ]}`
 * in `$CODEX_HOME/hooks.json` (default ~/.codex/hooks.json) and a project's `.codex/hooks.json`.
 * Every other key and entry is left alone.
 *
 * Trust: Codex skips a hooks.json entry, silently, until the user config.toml holds its
 * `trusted_hash` under `[hooks.state."<file>:<event>:<i>:<j>"]`. Merge records it for Buckler's
 * entries (the hash computed as Codex computes it: trust-entries.ts), strip removes it, and
 * status and doctor report Buckler entries Codex would skip (trust.ts). A project's hooks also
 * need the project trusted (`[projects."<root>"] trust_level = "trusted"`): that is the person's
 * decision about the repository, so Buckler reports it and leaves it to them.
 */
import path from 'node:path';
import { HARNESS_SCOPES } from '../../paths.ts';
import type { HarnessInstaller, TrustGate } from '../installer.ts';
import { groupInstaller } from '../matcher-groups.ts';
import { InstallerError } from '../errors.ts';
import { parseToml } from './toml-state.ts';
import { ownTrust, projectTrusted, updateTrust } from './trust.ts';
import { CODEX_HOOKS, codexHandler } from './wiring.ts';

const WHY: Record<string, string> = {
  untrusted: 'not trusted, so Codex skips it',
  modified: 'trusted for different content, so Codex skips it',
  disabled: 'switched off (enabled = false), so Codex skips it',
};

export const codexTrust: TrustGate = {
  storeFile: (home) => path.join(home, 'config.toml'),
  update: (store, text, hooksFile, before, after) => updateTrust(store, text, hooksFile, before, after),
  problems(store, text, hooksFile, value, projectRoot) {
    try {
      if (text !== null) parseToml(store, text);
    } catch (e) {
      if (e instanceof InstallerError) return [`${e.message.replace(/; left unchanged$/, '')}: Codex cannot load it either (codex exec stops with "Error loading config.toml"), and Buckler cannot record its hook trust there`];
      throw e;
    }
    const out = ownTrust(store, text, hooksFile, value)
      .filter((t) => t.state !== 'trusted')
      .map((t) => `Buckler's ${t.entry.event} hook (${t.entry.key}) is ${WHY[t.state]} (run \`buckler hooks merge --harness codex${projectRoot === null ? '' : ' --scope project'}\`, or trust it in codex: /hooks)`);
    if (projectRoot !== null && !projectTrusted(store, text, [projectRoot])) {
      out.push(`${projectRoot} is not a trusted Codex project, so Codex ignores its .codex/hooks.json (add [projects.${JSON.stringify(projectRoot)}] trust_level = "trusted" to ${store}, or trust the folder when codex asks)`);
    }
    return out;
  },
};

export const codexInstaller: HarnessInstaller = {
  name: 'codex',
  scopes: HARNESS_SCOPES.codex,
  cli: { bin: 'codex', versionArgs: ['--version'] },
  // Codex's switches live in config.toml, not in hooks.json (`[features] hooks = false`, a
  // hook's `enabled = false`): docs/adapters/codex.md; status and doctor read the trust state.
  offSwitches: [],
  warnings: () => [],
  trust: codexTrust,
  ...groupInstaller({ hooks: CODEX_HOOKS, handler: codexHandler }),
};
