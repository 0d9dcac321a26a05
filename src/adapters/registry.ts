/**
 * The supported harnesses: name → adapter. Adding a harness means adding it here, with its
 * folder, fixtures and doc page; the conformance suite fails until all four exist.
 */
import type { Adapter } from './adapter.ts';
import { claudeCodeAdapter } from './claude-code/index.ts';
import { codexAdapter } from './codex/index.ts';
import { copilotCliAdapter } from './copilot-cli/index.ts';
import { cursorAdapter } from './cursor/index.ts';
import { factoryDroidAdapter } from './factory-droid/index.ts';
import { geminiCliAdapter } from './gemini-cli/index.ts';
import { kiloCodeAdapter } from './kilo-code/index.ts';
import { opencodeAdapter } from './opencode/index.ts';
import { eventNameFromText } from './payload.ts';
import { qwenCodeAdapter } from './qwen-code/index.ts';

export const ADAPTERS: Readonly<Record<string, Adapter>> = {
  cursor: cursorAdapter,
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  'gemini-cli': geminiCliAdapter,
  'copilot-cli': copilotCliAdapter,
  'factory-droid': factoryDroidAdapter,
  'qwen-code': qwenCodeAdapter,
  opencode: opencodeAdapter,
  'kilo-code': kiloCodeAdapter,
};

/** Driver name used when neither `--driver` nor `BUCKLER_DRIVER` names one. */
export const DEFAULT_DRIVER = 'cursor';

export const HARNESS_NAMES: readonly string[] = Object.keys(ADAPTERS);

export function getAdapter(name: string): Adapter | undefined {
  return Object.hasOwn(ADAPTERS, name) ? ADAPTERS[name] : undefined;
}

/**
 * The adapter whose harness sends the event named in this payload text (parsed or not). Used
 * only to answer a misnamed driver in a shape its harness understands.
 */
export function adapterForPayload(text: string): Adapter | undefined {
  return Object.values(ADAPTERS).find((a) => {
    const event = eventNameFromText(text, a.eventField);
    return event !== undefined && a.events.includes(event);
  });
}
