/** Every harness Buckler can wire itself into, by its kebab-case name. */
import type { InstallableHarness } from '../paths.ts';
import { claudeCodeInstaller } from './claude-code/installer.ts';
import { codexInstaller } from './codex/installer.ts';
import { copilotCliInstaller } from './copilot-cli/installer.ts';
import { cursorInstaller } from './cursor/installer.ts';
import { factoryDroidInstaller } from './factory-droid/installer.ts';
import { geminiCliInstaller } from './gemini-cli/installer.ts';
import { kiloCodeInstaller } from './kilo-code/installer.ts';
import { opencodeInstaller } from './opencode/installer.ts';
import type { HarnessInstaller } from './installer.ts';
import { qwenCodeInstaller } from './qwen-code/installer.ts';

export const INSTALLERS: Readonly<Record<InstallableHarness, HarnessInstaller>> = {
  cursor: cursorInstaller,
  'claude-code': claudeCodeInstaller,
  codex: codexInstaller,
  'gemini-cli': geminiCliInstaller,
  'copilot-cli': copilotCliInstaller,
  'factory-droid': factoryDroidInstaller,
  'qwen-code': qwenCodeInstaller,
  opencode: opencodeInstaller,
  'kilo-code': kiloCodeInstaller,
};

export function installerFor(name: string): HarnessInstaller | undefined {
  return Object.hasOwn(INSTALLERS, name) ? INSTALLERS[name as InstallableHarness] : undefined;
}
