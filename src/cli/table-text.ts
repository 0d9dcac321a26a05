/**
 * The command table's texts with their placeholders filled in: the harness lists from the
 * harness records (src/harnesses/) and the installer registry, the triggers and decisions from the contract, allow-once's
 * limits from allow-once.ts. Help, completion and the generated docs read the table through here.
 */
import { DEFAULT_DRIVER } from '../adapters/registry.ts';
import { DECISIONS, TRIGGERS } from '../core/contract.ts';
import { HARNESS_LIST } from '../harnesses/index.ts';
import { INSTALLERS } from '../installers/registry.ts';
import { DEFAULT_USES, MAX_USES } from './allow-once.ts';

const LISTS: Record<string, () => readonly string[]> = {
  harnesses: () => HARNESS_LIST,
  installable: () => Object.keys(INSTALLERS),
  triggers: () => TRIGGERS,
  decisions: () => DECISIONS,
};
const WORDS: Record<string, () => string> = {
  default_driver: () => DEFAULT_DRIVER,
  default_uses: () => String(DEFAULT_USES),
  max_uses: () => String(MAX_USES),
};

/** `text` with every `{name}` filled in (lists comma-separated). */
export function fill(text: string): string {
  return text.replace(/\{([a-z_]+)\}/g, (all, name: string) => LISTS[name]?.().join(', ') ?? WORDS[name]?.() ?? all);
}

/** An option's `choices`, a `{list}` entry expanded into its values. */
export function choicesOf(choices: readonly string[] | undefined): string[] {
  return (choices ?? []).flatMap((c) => {
    const m = /^\{([a-z_]+)\}$/.exec(c);
    return m && LISTS[m[1] as string] ? [...LISTS[m[1] as string]!()] : [c];
  });
}
