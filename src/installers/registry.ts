/** Every harness Buckler can wire itself into, by its kebab-case name. */
import type { InstallableHarness } from '../paths.ts';
import { claudeCodeInstaller } from './claude-code/installer.ts';
import { codexInstaller } from './codex/installer.ts';
import { copilotCliInstaller } from './copilot-cli/installer.ts';
import { cursorInstaller } from './cursor/installer.ts';
import { geminiCliInstaller } from './gemini-cli/installer.ts';
import type { HarnessInstaller } from './installer.ts';

export const INSTALLERS: Readonly<Record<InstallableHarness, HarnessInstaller>> = {
  cursor: cursorInstaller,
  'claude-code': claudeCodeInstaller,
  codex: codexInstaller,
  'gemini-cli': geminiCliInstaller,
  'copilot-cli': copilotCliInstaller,
};

export function installerFor(name: string): HarnessInstaller | undefined {
  return Object.hasOwn(INSTALLERS, name) ? INSTALLERS[name as InstallableHarness] : undefined;
}
