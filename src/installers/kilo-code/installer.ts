/**
 * Kilo Code CLI (an OpenCode fork): no command hooks, so Buckler writes the same plugin file as
 * for OpenCode (../opencode/plugin.ts) into Kilo's plugin folder: `$XDG_CONFIG_HOME/kilo/plugins/
 * buckler.js` (user) or `<project>/.kilo/plugins/buckler.js` (project). Kilo 7.7.9 loads every
 * `{plugin,plugins}/*.{ts,js}` in its config folders; OpenCode's install does not protect Kilo.
 */
import type { HarnessInstaller } from '../installer.ts';
import { pluginInstaller } from '../opencode/installer.ts';

export const kiloCodeInstaller: HarnessInstaller = pluginInstaller('kilo-code', 'kilo', [
  { name: 'KILO_PURE', effect: 'Kilo Code loads no external plugin, Buckler\'s included (as with `kilo run --pure`)' },
]);
