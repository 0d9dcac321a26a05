/**
 * Guarded words: when a shell, `eval` or `source` runs a script analysis cannot see (text known
 * only at run time, a script file that could not be read: ShellCommand.unseen), the command
 * line is at least `ask` if it mentions words a pack guards (its `guarded_words:`), anywhere:
 * in the arguments handed to that shell, in the producer's arguments, in what was written into
 * a file. Which words count is pack data; this module only compares.
 */
import { decodeAnsiC } from '../shell/index.ts';
import type { PolicyInput } from './contract.ts';
import type { CommandFacts } from './facts.ts';
import type { CompiledPolicy, CompiledRule, GuardedWords } from './policy.ts';

/** One entry, ready to compare: exact words, and `*` patterns as expressions. */
interface Entry {
  pack: string;
  words: readonly string[];
  exact: readonly string[];
  patterns: readonly RegExp[];
}

const compiled = new WeakMap<readonly GuardedWords[], Entry[]>();

function entries(list: readonly GuardedWords[]): Entry[] {
  let out = compiled.get(list);
  if (out === undefined) {
    out = [];
    for (const g of list) {
      for (const words of g.words) {
        const exact = words.filter((w) => !w.includes('*'));
        const patterns = words
          .filter((w) => w.includes('*'))
          .map((w) => new RegExp(`^${w.split('*').map(escapeRegExp).join('[\\s\\S]*')}$`));
        out.push({ pack: g.pack, words, exact, patterns });
      }
    }
    compiled.set(list, out);
  }
  return out;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Characters that separate words in the raw line once quotes and backslashes are gone. */
const SEPARATORS = /[\s;|&()<>{},`]+/;

/** `$'…'` strings decoded (not `\$'`: an escaped `$` is a plain character at this level). */
const decodeAll = (t: string): string => t.replace(/(?<!\\)\$'((?:[^'\\]|\\[\s\S])*)'/g, (_m, body: string) => decodeAnsiC(body));
/** The escapes of double quotes (`\$`, `\\`, `\"`, `` \` ``) and the `'\''` of single quotes undone. */
const unquoteAll = (t: string): string => t.replace(/'\\''/g, "'").replace(/\\([\\$`"])/g, '$1');

/**
 * The raw text read one quoting level deeper, up to 3 levels and 8 texts: `$'…'` strings decoded
 * and the escapes of double and single quotes undone, in either order (`v=$'… $\'d\\x65l…\''`
 * needs the decoding first, `x="v=\$'g\\x69t push'"` the unquoting), so that text nested in
 * `bash -c '…'`, `"…"` or a variable's value shows its words.
 */
function deeperTexts(text: string): string[] {
  const out = new Set<string>();
  let level = [text];
  for (let k = 0; k < 3 && level.length > 0; k++) {
    const next: string[] = [];
    for (const t of level) {
      for (const n of [unquoteAll(decodeAll(t)), decodeAll(unquoteAll(t))]) {
        if (n === t || n === text || out.has(n) || out.size >= 8) continue;
        out.add(n);
        next.push(n);
      }
    }
    level = next;
  }
  return [...out];
}

/**
 * Every word the line shows: the raw text with quotes and backslashes removed (so `pu''sh`,
 * `"push"`, `pu\sh` are `push`), once as written and once with its `$'…'` strings decoded (also
 * inside a variable's value: `v=$'g\x69t push'`), split at blanks and operators, plus every argv
 * word of every command analysis found (escapes decoded, `$'\x70ush'`), split at blanks. A word
 * holding `=` also gives what follows each `=` (`--method=DELETE` → `DELETE`, `c=s=repo` → `repo`), and `${x:-word}` its default word.
 * Every word also counts in lower case (`Delete` → `delete`): entries are written in lower case
 * where the program ignores case.
 */
export function lineWords(text: string, commands: readonly CommandFacts[]): Set<string> {
  const out = new Set<string>();
  const put = (t: string): void => {
    out.add(t);
    const lower = t.toLowerCase();
    if (lower !== t) out.add(lower);
  };
  const add = (s: string): void => {
    for (const t of s.split(SEPARATORS)) {
      if (t === '') continue;
      put(t);
      // After every `=`: `--method=DELETE` → `DELETE`, `a='c=--force` → `c=--force`, `--force`.
      for (let eq = t.indexOf('='); eq >= 0 && eq < t.length - 1; eq = t.indexOf('=', eq + 1)) put(t.slice(eq + 1));
      // `${x:-word}` (split at `{`): the default word (`x:---har` → `--har`).
      const dflt = /^[A-Za-z_][A-Za-z0-9_]*:?[-=+?]([\s\S]+)$/.exec(t);
      if (dflt !== null) put(dflt[1] as string);
    }
  };
  const raw = (s: string): string => s.replace(/\\\n/g, '').replace(/['"\\]/g, '');
  add(raw(text));
  for (const deeper of deeperTexts(text)) add(raw(deeper));
  // What `printf`, `echo -e` and `$'…'` make of backslash escapes (`'hooks strip\n'`, `\x62uckler`):
  // a guarded word is found after the shell's own escapes, not only with the backslashes dropped.
  if (text.includes('\\')) add(raw(decodeAnsiC(text)));
  for (const f of commands) for (const a of f.cmd.argv) add(a);
  return out;
}

export interface GuardedMatch {
  pack: string;
  /** The line's words that matched the entry, in the entry's order. */
  words: readonly string[];
}

/** The first entry (load order) whose words all appear among `words`; null when none. */
export function guardedMatch(list: readonly GuardedWords[], words: ReadonlySet<string>): GuardedMatch | null {
  for (const e of entries(list)) {
    if (!e.exact.every((w) => hasWord(words, w))) continue;
    const found: string[] = [];
    for (const re of e.patterns) {
      const w = firstMatch(re, words);
      if (w === undefined) break;
      found.push(w);
    }
    if (found.length < e.patterns.length) continue;
    let k = 0;
    return { pack: e.pack, words: e.words.map((w) => (w.includes('*') ? (found[k++] as string) : w)) };
  }
  return null;
}

/**
 * Whether the line has `w`; a guarded long option (`--hard`) also counts when the line has an
 * abbreviation of it (`--har`, `--ha=x`), which programs such as git accept.
 */
function hasWord(words: ReadonlySet<string>, w: string): boolean {
  if (words.has(w)) return true;
  if (!w.startsWith('--') || w.length < 4) return false;
  for (const x of words) {
    const name = x.includes('=') ? x.slice(0, x.indexOf('=')) : x;
    if (name.length >= 3 && name.startsWith('--') && w.startsWith(name)) return true;
  }
  return false;
}

function firstMatch(re: RegExp, words: ReadonlySet<string>): string | undefined {
  for (const w of words) if (re.test(w)) return w;
  return undefined;
}

const WHY = {
  runtime: 'a script whose text is known only at run time',
  unreadable: 'a script file Buckler could not read: missing, too large, not a regular file, or written earlier on the same line',
} as const;

/**
 * The rule an unseen script gets when the line mentions guarded words: `ask`, named
 * `<pack>/guarded-words`, with messages saying what could not be seen and which words matched.
 */
export function guardedRule(match: GuardedMatch, unseen: keyof typeof WHY, input: PolicyInput): CompiledRule {
  const words = match.words.join(' ');
  return {
    id: `${match.pack}/guarded-words`,
    pack: match.pack,
    triggers: [input.trigger],
    action: 'ask',
    priority: 0,
    tier: 'baseline',
    shell_segments: null,
    tool_name: null,
    env: null,
    user_message: `Buckler cannot see what \`{command}\` runs (${WHY[unseen]}), and the command line mentions \`${words}\`, which the ${match.pack} pack guards. Allow it?`,
    agent_message:
      `\`{command}\` runs ${WHY[unseen]}. Buckler cannot check it, and the command line mentions \`${words}\` ({rule}); ` +
      'a person has to confirm it. Write the command out literally instead of building or downloading it at run time.',
    additional_context: null,
  };
}
