/**
 * Every harness Buckler supports, one record each (one file per harness in this folder). Adding a
 * harness is its record here plus its adapter and installer folders: paths, protected files,
 * setup.sh's generated block and the generated lists in help and docs all read this.
 *
 * A leaf: pure data, imported on the hook path (keep it small).
 */
import { claudeCode } from './claude-code.ts';
import { codex } from './codex.ts';
import { copilotCli } from './copilot-cli.ts';
import { cursor } from './cursor.ts';
import { factoryDroid } from './factory-droid.ts';
import { geminiCli } from './gemini-cli.ts';
import { opencode } from './opencode.ts';
import { qwenCode } from './qwen-code.ts';
import type { HarnessRecord, Scope } from './record.ts';

export type { AskInMode, HarnessFile, HarnessHome, HarnessRecord, Scope, ScopeFile, SystemPlatform, SystemSettings } from './record.ts';

/** In the order Buckler lists and wires them. */
export const HARNESSES = {
  cursor,
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'copilot-cli': copilotCli,
  'factory-droid': factoryDroid,
  'qwen-code': qwenCode,
  opencode,
} as const satisfies Record<string, HarnessRecord>;

export type HarnessName = keyof typeof HARNESSES;

export const HARNESS_LIST: readonly HarnessName[] = Object.keys(HARNESSES) as HarnessName[];

/** The scopes of one harness, in order. */
export function scopesOf(name: HarnessName): readonly Scope[] {
  return Object.keys(HARNESSES[name].scopes) as Scope[];
}

/** `a, b, c or d` (or `, and` style with `last`): the names for help texts and messages. */
export function harnessNameList(last = 'or'): string {
  const names = HARNESS_LIST.map(String);
  return `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}
