/**
 * The parts of the hook path a run went through, one bit each: the loader keeps a V8 code cache
 * holding the compiled functions of every part a hook has used on this machine (src/cli/loader.ts).
 * A part missing from the cache is compiled on each hook that needs it: 1.5–10 ms, measured
 * (docs/performance.md). The harness's adapter adds its own bit (`codeBits`).
 */
import { HARNESS_NAMES } from '../../adapters/registry.ts';
import { isPreTrigger } from '../../core/contract.ts';
import type { HookResult } from './result.ts';

export type { CodeTrace } from './result.ts';

export const CODE = {
  shell: 1 << 0,
  file: 1 << 1,
  other: 1 << 2,
  post: 1 << 3,
  blocked: 1 << 4,
  aliases: 1 << 5,
  script: 1 << 6,
  audit: 1 << 7,
  allowOnce: 1 << 8,
  notice: 1 << 9,
} as const;
/** The adapter's bit: this, plus its index among the harnesses. */
export const ADAPTER_BIT = 10;

/** The bits of `CODE` (and the adapter's) a decided hook went through; 0: not one to cache. */
export function codeBits(result: HookResult): number {
  const { loaded, output, input } = result;
  // Only a hook decided with the compiled-pack cache warm and without a failure: not the pack
  // compiler of the first hook after an install, nor the failure paths.
  if (loaded?.cached !== true || output.error !== undefined || input === undefined) return 0;
  let bits = (result.trace?.bits ?? 0) | (1 << (ADAPTER_BIT + Math.max(0, HARNESS_NAMES.indexOf(result.adapter.name))));
  if (!isPreTrigger(input.trigger)) bits |= CODE.post;
  else if (input.shell !== undefined) bits |= CODE.shell;
  else if (input.tool?.paths !== undefined) bits |= CODE.file;
  else bits |= CODE.other;
  if (output.decision === 'deny' || output.decision === 'ask') bits |= CODE.blocked;
  if (result.audited === true) bits |= CODE.audit;
  if (result.allowOnce !== undefined) bits |= CODE.allowOnce;
  if (loaded.dropped !== undefined && loaded.dropped.length > 0) bits |= CODE.notice;
  return bits;
}
