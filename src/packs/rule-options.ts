/**
 * A rule's options, read the way the program's reader reads a command's: an option in
 * `flags_any`/`flags_all` is what a command has only if the reader, reading that option where
 * the rule puts it (`PROGRAM SUBCOMMAND… OPTION`), records it. A rule option the reader would
 * read otherwise can never match as written; it is a `validate` warning with the fix:
 *
 * - a single-dash long option read as bundled letters (`terraform -auto-approve` → `-a -u -t …`),
 * - an option with its value attached (`-XDELETE` is `-X` with the value `DELETE`),
 * - `--opt=value` of an option that takes a value (the value is not checked: any value matches),
 * - an abbreviation the reader expands (`--forc` → `--force`): normalised, with a warning,
 * - a subcommand the program's data does not know (`git pussh`).
 */
import { readArgv } from '../grammars/reader.ts';
import type { Grammars } from '../grammars/types.ts';

export interface OptionCheck {
  /** The rule's options as the reader normalises them (same order; abbreviations expanded). */
  flags: string[];
  warnings: string[];
}

/** Checks one `flags_any`/`flags_all` list of a `shell_segments` entry for each of its programs. */
export function checkRuleOptions(key: string, raw: readonly string[], programs: readonly string[] | undefined, subcommand: readonly string[] | undefined, grammars: Grammars): OptionCheck {
  const warnings: string[] = [];
  const flags = raw.map((f) => (f.startsWith('--') && f.includes('=') ? f.slice(0, f.indexOf('=')) : f));
  // Without a program the reader is unknown: nothing to compare with.
  if (!programs || programs.length === 0) return { flags, warnings };
  raw.forEach((f, i) => {
    const norm = flags[i]!;
    for (const p of programs) {
      const r = readArgv([p, ...(subcommand ?? []), f], [], grammars);
      const where = `${p}${subcommand && subcommand.length > 0 ? ` ${subcommand.join(' ')}` : ''}`;
      const seen = [...r.flags];
      if (f !== norm && r.values.has(norm)) {
        warnings.push(
          `${key} entry "${f}": a rule's options match the option, not its value, so this matches ${norm} with any value. ` +
            `To match only this spelling, use words_any: ["${f}"]`,
        );
        return;
      }
      if (r.flags.has(norm)) continue;
      const long = seen.find((x) => x.startsWith('--') && norm.startsWith('--') && x.startsWith(norm));
      if (long !== undefined) {
        flags[i] = long;
        warnings.push(`${key} entry "${f}" is an abbreviation ${p} reads as ${long}; write ${long}`);
        continue;
      }
      const valued = [...r.values].find(([, vs]) => vs.some((v) => v !== '' && f.endsWith(v)));
      if (valued !== undefined && seen.length > 0) {
        const [opt, vs] = valued;
        warnings.push(
          `${key} entry "${f}" can never match: ${where} reads it as the option ${opt} with the value ${vs[vs.length - 1]} (${opt} takes a value). ` +
            `Use ${key}: ["${opt}"] to match it with any value, or words_any: ["${f}"] for this spelling`,
        );
        return;
      }
      if (!f.startsWith('--') && f.length > 2 && seen.length > 1) {
        warnings.push(
          `${key} entry "${f}" can never match: ${where} reads it as the options ${seen.join(' ')} (letters bundled after one dash). ` +
            `If ${p} takes whole-word options after one dash, say so in the pack (programs: { ${p}: { single_dash_long: true${subcommand && subcommand.length > 0 ? ', inherit_options: true' : ''} } }), or match the word: words_any: ["${f}"]`,
        );
        return;
      }
      warnings.push(
        `${key} entry "${f}" can never match: ${where} reads it as ${seen.length > 0 ? `the options ${seen.join(' ')}` : 'no option'}. ` +
          `Match the word instead: words_any: ["${f}"]`,
      );
      return;
    }
  });
  return { flags, warnings };
}

/** A subcommand the program's data lists none like (only for programs whose data lists every command, as git's). */
export function subcommandWarning(programs: readonly string[] | undefined, words: readonly string[], grammars: Grammars): string | null {
  if (!programs || programs.length !== 1 || words.length === 0) return null;
  const p = programs[0]!;
  const g = Object.hasOwn(grammars, p) ? grammars[p] : undefined;
  if (!g || !g.commands) return null;
  const first = words[0]!;
  if (g.commands.includes(first) || Object.hasOwn(g.subcommands ?? {}, first) || Object.hasOwn(g.aliases ?? {}, first)) return null;
  const near = g.commands.filter((c) => distance(c, first) <= 2).slice(0, 3);
  return `subcommand "${first}" is not a ${p} command${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}; the rule can never match ${p} ${first}`;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return d[b.length]!;
}
