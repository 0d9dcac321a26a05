/**
 * Test-only: generates command lines that hide a guarded command (`git push --force origin main`,
 * `gh repo delete x --yes`, …) behind random wrappers and spellings, for the differential fuzz
 * against real bash (differential-bash.testing.ts, scripts/fuzz-differential.mjs).
 *
 * A line is built from a target's argv in layers, innermost first:
 *  - spellings change how one word is written, not its value (`g'i't`, `$'\x67it'`, `pu\⏎sh`,
 *    `v=push; git $v`);
 *  - wrappers put words in front of (or around) a simple command (`sudo`, `env -i`, `nice -n 5`,
 *    `xargs … </dev/null`, `find . -maxdepth 0 -exec … \;`, `ssh host`, `kubectl exec pod --`, …);
 *  - text layers run the whole text so far as shell text (`bash -c '…'`, `eval`, `$(…)`, a pipe
 *    into `sh`, a here-document, `source <(…)`, a subshell, `if`, `for`, a function, …).
 * Every layer has a feature name (`wrap:sudo`, `text:bash-c`, `spell:ansi-c`); a generated case
 * lists the features it used, so a miss can be put into a class.
 *
 * Deterministic: everything random comes from a seeded PRNG (`rngFrom(seed)`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { analyzeCommandLine } from '../shell/index.ts';

// ---- randomness --------------------------------------------------------------------------------

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
}

/** sfc32 seeded through splitmix32: small, fast and the same on every platform. */
export function rngFrom(seed: number): Rng {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (xs) => xs[int(xs.length)]!, chance: (p) => next() < p };
}

// ---- quoting -----------------------------------------------------------------------------------

const PLAIN = /^[A-Za-z0-9_.\/:@%+=^-]+$/;

/** Single-quoted unless plain. */
export function shq(v: string): string {
  return v !== '' && PLAIN.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/** Double-quoted: `\`, `"`, `$` and backquote escaped. */
export function dq(v: string): string {
  return `"${v.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;
}

/** ANSI-C quoted (`$'…'`), some characters written as escapes. */
export function ansiC(v: string, rng: Rng): string {
  let out = "$'";
  for (const ch of v) {
    const code = ch.charCodeAt(0);
    if (ch === "'" || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (code < 0x20 || code > 0x7e) out += ch;
    else if (rng.chance(0.3)) out += rng.chance(0.5) ? `\\x${code.toString(16).padStart(2, '0')}` : `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** Text quoted as one word, in a random way (single, double or ANSI-C quotes). */
export function quoteText(v: string, rng: Rng): string {
  const r = rng.int(6);
  if (r < 3) return `'${v.replace(/'/g, `'\\''`)}'`;
  if (r < 5) return dq(v);
  return ansiC(v, rng);
}

// ---- targets -----------------------------------------------------------------------------------

export type Tier = 'baseline' | 'strict';

/** A guarded command the generator hides. `argv` is set when the target is one simple command. */
export interface Target {
  text: string;
  argv: string[] | null;
  tier: Tier;
  rule: string;
}

/** Denied commands from docs/packs.md and the default-packs spec, beyond the packs' examples. */
const SPEC_TARGETS: ReadonlyArray<[string, Tier]> = [
  ['git push --force origin main', 'baseline'],
  ['git commit -m x', 'baseline'],
  ['gh repo delete x --yes', 'baseline'],
  ['git push origin +main', 'baseline'],
  ['git push --delete origin old', 'baseline'],
  ['git push --mirror', 'baseline'],
  ['git remote remove origin', 'baseline'],
  ['gh api -X DELETE repos/o/r', 'baseline'],
  ['gh secret remove TOKEN', 'baseline'],
  ['gh pr close 42 --delete-branch', 'baseline'],
  ['git reset --hard HEAD~1', 'strict'],
  ['git rebase main', 'strict'],
  ['git merge main', 'strict'],
];

/** Words of a target written as plain words and simple single or double quotes; null otherwise. */
export function simpleArgv(text: string): string[] | null {
  const out: string[] = [];
  const re = /\s*(?:([A-Za-z0-9_.\/:@%+=^~{}-]+)|'([^']*)'|"([^"\\$`]*)")(?=\s|$)/y;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) return null;
    out.push(m[1] ?? m[2] ?? m[3]!);
    i = re.lastIndex;
  }
  // A brace expression with a comma or `..` would expand; `HEAD^{tree}` does not.
  if (out.length === 0 || out.some((w) => /\{[^}]*(,|\.\.)[^}]*\}/.test(w) || w.startsWith('~'))) return null;
  return out;
}

interface PackYaml {
  pack: string;
  defaults?: { tier?: Tier };
  rules: Array<{ id: string; tier?: Tier; action: string; trigger: string | string[]; examples?: { match?: string[] } }>;
}

/**
 * Programs a target may run. The sandbox fakes only git and gh: real bash runs everything else
 * for real, as root on a developer's machine or in CI. A pack example such as `rm -rf ~` or
 * `echo x > /etc/hosts` must never reach it (one did, and deleted much of /etc).
 */
const SAFE_PROGRAMS = new Set(['git', 'gh', 'echo', 'printf', 'true', ':']);

/**
 * Whether real bash may run `text` in the sandbox: every command it holds is a faked program or
 * a harmless builtin, nothing is opaque, and there is no redirection (which writes or reads real
 * files whatever PATH says).
 */
export function safeToRun(text: string): boolean {
  if (/[<>]/.test(text)) return false;
  let commands: ReturnType<typeof analyzeCommandLine>;
  try {
    commands = analyzeCommandLine(text);
  } catch {
    return false;
  }
  return commands.length > 0 && commands.every((c) => !c.opaque && SAFE_PROGRAMS.has(c.argv[0] ?? ''));
}

/**
 * Every `match` example of every deny rule before an action in `packsDir`, plus SPEC_TARGETS,
 * keeping only those that are safe to run for real (`safeToRun`).
 */
export function loadTargets(packsDir: string): Target[] {
  const out: Target[] = [];
  const seen = new Set<string>();
  const add = (text: string, tier: Tier, rule: string): void => {
    if (!safeToRun(text)) return;
    if (seen.has(`${tier}\0${text}`)) return;
    seen.add(`${tier}\0${text}`);
    out.push({ text, argv: simpleArgv(text), tier, rule });
  };
  for (const name of fs.readdirSync(packsDir).filter((n) => /\.ya?ml$/.test(n)).sort()) {
    const pack = loadYaml(fs.readFileSync(path.join(packsDir, name), 'utf8')) as PackYaml;
    for (const r of pack.rules) {
      const triggers = Array.isArray(r.trigger) ? r.trigger : [r.trigger];
      if (r.action !== 'deny' || !triggers.includes('pre_shell_exec')) continue;
      for (const ex of r.examples?.match ?? []) add(ex, r.tier ?? pack.defaults?.tier ?? 'baseline', `${pack.pack}/${r.id}`);
    }
  }
  for (const [text, tier] of SPEC_TARGETS) add(text, tier, 'spec');
  return out;
}

// ---- forms and layers --------------------------------------------------------------------------

/**
 * The text built so far. `words` is set while it is one simple command that an external wrapper
 * can run (`sudo WORDS`); `pre` holds statements that must run before it in the same shell
 * (`v=push`). `inert` says every word's value (after the outer shell's expansions) is an inert
 * word (`inertValue`): only then may a wrapper that joins its words into shell text (`ssh`,
 * `watch`, `parallel`) wrap them, because only then does the shell that re-reads them see the
 * same words, and so the same programs, again.
 */
export interface Form {
  pre: string[];
  words: string[] | null;
  text: string;
  inert?: boolean;
}

/**
 * A value that a shell reading it again (after a wrapper joined the words with spaces) reads as
 * the same single word: no blanks, quotes, `$`, backquotes, globs, `;&|<>()`, `#`, `!`, `\`, and
 * no `~` where it would expand.
 */
export function inertValue(v: string): boolean {
  return /^[A-Za-z0-9_.,:@%+=^\/{}-][A-Za-z0-9_.,:@%+=^~\/{}-]*$/.test(v) && !/[=:]~/.test(v) && !/\{[^}]*(,|\.\.)[^}]*\}/.test(v);
}

const textOf = (f: Form): string => [...f.pre, f.words ? f.words.join(' ') : f.text].join('\n');
/** A simple command made by a text layer: its words hold shell text, so they are not inert. */
const simpleForm = (words: string[]): Form => ({ pre: [], words, text: words.join(' '), inert: false });
const textForm = (text: string): Form => ({ pre: [], words: null, text });

/** What the sandbox offers: `ns` = private mount namespace (absolute paths such as /usr/bin/git are fakes too). */
export interface GenOptions {
  ns: boolean;
}

interface Layer {
  feature: string;
  weight: number;
  /** Needs the private mount namespace (reaches programs by absolute path or a reset PATH). */
  ns?: boolean;
  applies(f: Form): boolean;
  apply(f: Form, rng: Rng, depth: number): Form;
}

const onWords = (f: Form): boolean => f.words !== null;
const any = (): boolean => true;

/**
 * An exec wrapper: `prefix WORDS suffix`, still one simple command unless `statement`. A wrapper
 * that `rejoins` (joins the words it runs into shell text for `sh -c`, as `ssh`, `watch` and the
 * `parallel` stand-in do) applies only to inert words (Form.inert): a quoted word of a target
 * such as `git commit -m 'a; rm -rf x'` would otherwise become shell code in the sandbox.
 */
function wrap(feature: string, weight: number, variants: ReadonlyArray<string | ((rng: Rng) => string)>, opts: { suffix?: string; statement?: boolean; ns?: boolean; rejoins?: boolean } = {}): Layer {
  return {
    feature: `wrap:${feature}`,
    weight,
    ...(opts.ns ? { ns: true } : {}),
    applies: opts.rejoins ? (f) => f.words !== null && f.inert === true : onWords,
    apply(f, rng) {
      const v = rng.pick(variants);
      const prefix = typeof v === 'string' ? v : v(rng);
      const added = [...prefix.split(' ').filter((w) => w !== ''), ...(opts.suffix ? opts.suffix.split(' ') : [])];
      const words = [...prefix.split(' ').filter((w) => w !== ''), ...f.words!, ...(opts.suffix ? opts.suffix.split(' ') : [])];
      // A redirection (`</dev/null`) is not a word the wrapped program sees.
      const inert = f.inert === true && added.every((w) => w.startsWith('<') || inertValue(w));
      return opts.statement ? { pre: f.pre, words: null, text: words.join(' ') } : { pre: f.pre, words, text: words.join(' '), inert };
    },
  };
}

/** A text layer: the text so far, as one string, goes into `make`. */
function text(feature: string, weight: number, make: (t: string, rng: Rng, depth: number) => Form, applies: (f: Form) => boolean = any): Layer {
  return { feature: `text:${feature}`, weight, applies, apply: (f, rng, depth) => make(textOf(f), rng, depth) };
}

const WRAPPERS: Layer[] = [
  wrap('sudo', 3, ['sudo', 'sudo -u root', 'sudo -E', 'sudo -n -H', 'sudo --', 'sudo -u root --', 'sudo FOO=1', 'sudo --preserve-env=PATH', 'sudo -g root -E']),
  wrap('doas', 1, ['doas', 'doas -u root', 'doas -n']),
  wrap('env', 3, ['env', 'env FOO=1', 'env -u HOME', 'env -- ', 'env A=1 B=2', 'env --unset=HOME FOO=bar', 'env -C .', 'env --chdir=.']),
  wrap('env-i', 1, ['env -i', 'env -i FOO=1', 'env --ignore-environment'], { ns: true }),
  wrap('env-dash', 1, ['env -', 'env - FOO=1'], { ns: true }),
  wrap('nice', 2, ['nice', 'nice -n 5', 'nice -5', 'nice --adjustment=3', 'nice -n5']),
  wrap('ionice', 1, ['ionice -c3', 'ionice -c 2 -n 7', 'ionice --class 3']),
  wrap('chrt', 1, ['chrt -o 0', 'chrt --other 0', 'chrt -b 0']),
  wrap('taskset', 1, ['taskset 1', 'taskset -c 0', 'taskset 0x1']),
  wrap('timeout', 2, ['timeout 9', 'timeout -k 1 9', 'timeout --preserve-status 9', 'timeout -s KILL 9', 'timeout 9s']),
  wrap('stdbuf', 1, ['stdbuf -oL', 'stdbuf -i0 -o0 -e0', 'stdbuf --output=L']),
  wrap('setsid', 1, ['setsid', 'setsid -w']),
  wrap('nohup', 1, ['nohup']),
  wrap('time', 1, ['time', 'time -p'], { statement: true }),
  wrap('command', 2, ['command', '\\command', 'command --']),
  wrap('command-p', 1, ['command -p'], { ns: true }),
  wrap('exec', 1, ['exec', 'exec -a x'], { statement: true }),
  wrap('builtin', 1, ['builtin command', 'builtin exec'], { statement: true }),
  wrap('xargs', 2, ['xargs', 'xargs -0', 'xargs -t', 'xargs -n1 -P1', 'xargs -L1', 'xargs -s 4096'], { suffix: '</dev/null' }),
  {
    feature: 'wrap:xargs-stdin',
    weight: 1,
    applies: onWords,
    apply: (f, rng) => ({ pre: f.pre, words: null, text: `${rng.pick(['echo origin', "printf 'x\\n'"])} | ${rng.pick(['xargs', 'xargs -I{}', 'xargs -n1'])} ${f.words!.join(' ')}` }),
  },
  wrap('find-exec', 2, ['find . -maxdepth 0 -exec', 'find . -maxdepth 0 -execdir'], { suffix: '\\;' }),
  wrap('find-exec-plus', 1, ['find . -maxdepth 0 -exec'], { suffix: '{} +' }),
  wrap('watch', 1, ['watch -n1', 'watch -n 1 -t'], { rejoins: true }),
  wrap('flock', 1, ['flock ./l', 'flock -w 5 ./l', 'flock -x ./l']),
  wrap('strace', 1, ['strace -f -o /dev/null', 'strace -qq -o /dev/null -e trace=execve']),
  wrap('unbuffer', 1, ['unbuffer', 'unbuffer -p']),
  wrap('caffeinate', 1, ['caffeinate -i', 'caffeinate -dims', 'caffeinate -t 5']),
  wrap('ssh', 2, ['ssh host', 'ssh -p 22 host', 'ssh -o BatchMode=yes host', 'ssh -t user@host', 'ssh host --'], { rejoins: true }),
  wrap('docker-exec', 1, ['docker exec ctr', 'docker exec -it ctr', 'docker exec -u root -w / ctr', 'podman exec ctr']),
  wrap('kubectl-exec', 1, ['kubectl exec pod --', 'kubectl exec -it pod -c app --', 'kubectl -n ns exec pod --']),
  wrap('nsenter', 1, ['nsenter -t 1 -m -u -i -n -p', 'nsenter --target 1 --mount', 'nsenter --target=1 -a']),
  {
    feature: 'wrap:parallel',
    weight: 1,
    // The stand-in (like GNU parallel) joins the words into shell text: inert words only.
    applies: (f) => f.words !== null && f.words.length >= 2 && f.inert === true,
    apply: (f, rng) => {
      const w = f.words!;
      const words = [...rng.pick(['parallel', 'parallel -j1', 'parallel -k']).split(' '), ...w.slice(0, -1), ':::', w[w.length - 1]!];
      return { pre: f.pre, words, text: words.join(' '), inert: true };
    },
  },
];

let varCounter = 0;
const freshVar = (rng: Rng): string => `${rng.pick(['c', 'x', 'cmd', 's', 'v'])}${varCounter++ % 97}`;

const blockSep = (t: string): string => `${t}\n`;

const TEXT_LAYERS: Layer[] = [
  text('bash-c', 6, (t, rng) => simpleForm([...rng.pick([['bash', '-c'], ['sh', '-c'], ['dash', '-c'], ['bash', '-ec'], ['bash', '--norc', '-c'], ['/bin/sh', '-c']]), quoteText(t, rng)])),
  text('bash-c-arg0', 1, (t, rng) => simpleForm(['bash', '-c', quoteText(t, rng), '_', 'x'])),
  text('eval', 3, (t, rng) => textForm(`eval ${quoteText(t, rng)}`)),
  text('cmdsubst', 3, (t, rng) => {
    const r = rng.int(3);
    if (r === 0) return simpleForm(['echo', `"$(${blockSep(t)})"`]);
    if (r === 1) return textForm(`x=$(${blockSep(t)})`);
    return simpleForm([':', `$(${blockSep(t)})`]);
  }),
  text('backticks', 1, (t) => simpleForm(['echo', `\`${t.replace(/[\\`$]/g, (c) => `\\${c}`)}\``])),
  text('pipe-sh', 2, (t, rng) => textForm(`${rng.pick(['echo', "printf '%s\\n'"])} ${quoteText(t, rng)} | ${rng.pick(['sh', 'bash', 'bash -s', 'env sh', 'sudo sh'])}`)),
  text('heredoc', 2, (t, rng, depth) => {
    const d = `EOF${depth}`;
    // An unquoted delimiter expands the body in the outer shell: only for text without expansions.
    const quoted = /[\\$`]/.test(t) || rng.chance(0.5);
    return textForm(`${rng.pick(['bash', 'sh', 'bash -s'])} <<${quoted ? `'${d}'` : d}\n${t}\n${d}`);
  }),
  text('herestring', 1, (t, rng) => textForm(`${rng.pick(['bash', 'sh'])} <<< ${quoteText(t, rng)}`)),
  text('procsub', 1, (t, rng) => textForm(`${rng.pick(['bash', 'source', '.', 'sh <'])} <(echo ${quoteText(t, rng)})`)),
  text('subshell', 2, (t) => textForm(`(\n${t}\n)`)),
  text('braces', 2, (t) => textForm(`{ ${blockSep(t)}}`)),
  text('if', 1, (t, rng) => textForm(rng.chance(0.5) ? `if true; then\n${t}\nfi` : `if false; then :; else\n${t}\nfi`)),
  text('for', 1, (t) => textForm(`for i in 1; do\n${t}\ndone`)),
  text('while', 1, (t, rng) => textForm(rng.chance(0.5) ? `while true; do\n${t}\nbreak; done` : `until false; do\n${t}\nbreak; done`)),
  text('case', 1, (t) => textForm(`case x in x)\n${t}\n;; esac`)),
  text('function', 2, (t, rng) => textForm(rng.chance(0.5) ? `f() {\n${t}\n}\nf` : `function g {\n${t}\n}\ng`)),
  text('and-or', 2, (t, rng) => textForm(`${rng.pick(['true &&', 'false ||', 'echo a;', 'cd . &&'])} {\n${t}\n}`)),
  text('pipeline', 1, (t, rng) => textForm(rng.chance(0.5) ? `{\n${t}\n} | cat` : `echo | {\n${t}\n}`)),
  text('background', 1, (t) => textForm(`{\n${t}\n} &\nwait`)),
  text('var-eval', 2, (t, rng) => {
    const v = freshVar(rng);
    return textForm(rng.chance(0.5) ? `${v}=${quoteText(t, rng)}; eval "$${v}"` : `${v}=${quoteText(t, rng)}\nbash -c "$${v}"`);
  }),
  text('var-copy', 1, (t, rng) => {
    const [a, b] = [freshVar(rng), freshVar(rng)];
    return textForm(`${a}=${quoteText(t, rng)}; ${b}=$${a}; eval "$${b}"`);
  }),
  text('export-nested', 1, (t, rng) => {
    const v = freshVar(rng);
    return textForm(`export ${v}=${quoteText(t, rng)}; bash -c 'eval "$${v}"'`);
  }),
  text('positional', 1, (t, rng) => simpleForm(['bash', '-c', `'eval "$1"'`, '_', quoteText(t, rng)])),
  {
    feature: 'text:positional-argv',
    weight: 1,
    applies: onWords,
    apply: (f, rng) => {
      const r = rng.int(3);
      if (r === 0) return { pre: f.pre, words: ['sh', '-c', `'"$@"'`, '_', ...f.words!], text: '' };
      if (r === 1) return { pre: f.pre, words: ['bash', '-c', `'$0 "$@"'`, ...f.words!], text: '' };
      return { pre: f.pre, words: null, text: `set -- ${f.words!.join(' ')}; "$@"` };
    },
  },
  text('flock-c', 1, (t, rng) => simpleForm(['flock', './l', '-c', quoteText(t, rng)])),
  text('script-c', 1, (t, rng) => simpleForm([...rng.pick([['script', '-qc'], ['script', '-q', '-c'], ['script', '-qec']]), quoteText(t, rng), '/dev/null'])),
  text('ssh-text', 1, (t, rng) => simpleForm(['ssh', 'host', quoteText(t, rng)])),
  text('watch-text', 1, (t, rng) => simpleForm(['watch', '-n1', quoteText(t, rng)])),
  text('npx-c', 1, (t, rng) => simpleForm([...rng.pick([['npx', '-c'], ['npx', '--yes', '-c']]), quoteText(t, rng)])),
  text('parallel-text', 1, (t, rng) => simpleForm(['parallel', ':::', quoteText(t, rng)])),
  text('find-sh', 1, (t, rng) => simpleForm(['find', '.', '-maxdepth', '0', '-exec', 'sh', '-c', quoteText(t, rng), '\\;'])),
  text('xargs-sh', 1, (t, rng) => textForm(`printf '%s' ${quoteText(t, rng)} | xargs -0 -I{} sh -c '{}'`), (f) => !textOf(f).includes('{}')),
];

// ---- spellings ---------------------------------------------------------------------------------

const GIT_SUBCOMMANDS = new Set(['push', 'commit', 'remote', 'reset', 'merge', 'rebase', 'commit-tree']);

/** Index of the git subcommand word when the words are `git SUB …` with plain words; -1 otherwise. */
function gitSub(words: readonly string[]): number {
  return words[0] === 'git' && GIT_SUBCOMMANDS.has(words[1] ?? '') ? 1 : -1;
}

interface Spelling {
  feature: string;
  weight: number;
  ns?: boolean;
  /** Changes the words (values still plain) or returns null when it does not apply. */
  apply(words: string[], pre: string[], rng: Rng): string[] | null;
}

const plainIdx = (words: readonly string[], rng: Rng, min = 2): number => {
  const idx = words.map((w, i) => (/^[A-Za-z0-9_.-]+$/.test(w) && w.length >= min ? i : -1)).filter((i) => i >= 0);
  return idx.length === 0 ? -1 : rng.pick(idx);
};

function respell(feature: string, weight: number, fn: (w: string, rng: Rng) => string): Spelling {
  return {
    feature: `spell:${feature}`,
    weight,
    apply(words, _pre, rng) {
      const i = plainIdx(words, rng);
      if (i < 0) return null;
      const out = [...words];
      out[i] = fn(words[i]!, rng);
      return out;
    },
  };
}

const cut = (w: string, rng: Rng): [string, string] => {
  const k = 1 + rng.int(w.length - 1);
  return [w.slice(0, k), w.slice(k)];
};

const SPELLINGS: Spelling[] = [
  respell('quote-splice', 3, (w, rng) => {
    const [a, b] = cut(w, rng);
    return rng.pick([`${a}'${b[0]}'${b.slice(1)}`, `${a}"${b}"`, `${a}''${b}`, `"${a}"${b}`, `''${w}`]);
  }),
  respell('backslash', 2, (w, rng) => {
    const [a, b] = cut(w, rng);
    return /^[A-Za-z0-9]/.test(b) ? `${a}\\${b}` : `\\${w}`;
  }),
  respell('ansi-c', 2, (w, rng) => ansiC(w, rng)),
  respell('line-continuation', 2, (w, rng) => {
    const [a, b] = cut(w, rng);
    return `${a}\\\n${b}`;
  }),
  respell('param-default', 1, (w, rng) => (rng.chance(0.5) ? `\${u_nset:-${w}}` : `\${u_nset-${w}}`)),
  {
    feature: 'spell:var-earlier',
    weight: 3,
    apply(words, pre, rng) {
      const i = plainIdx(words, rng);
      if (i < 0) return null;
      const v = freshVar(rng);
      pre.push(`${v}=${words[i]}`);
      const out = [...words];
      out[i] = rng.pick([`$${v}`, `"$${v}"`, `\${${v}}`]);
      return out;
    },
  },
  {
    feature: 'spell:brace-expansion',
    weight: 1,
    apply(words) {
      if (words.length < 2 || !words.slice(0, 2).every((w) => /^[A-Za-z0-9_.-]+$/.test(w))) return null;
      return [`{${words[0]},${words[1]}}`, ...words.slice(2)];
    },
  },
  {
    feature: 'spell:abs-path',
    weight: 1,
    ns: true,
    apply: (words) => (words[0] === 'git' ? ['/usr/bin/git', ...words.slice(1)] : null),
  },
  {
    feature: 'spell:dashed-git',
    weight: 1,
    ns: true,
    apply: (words) => (gitSub(words) === 1 ? [`/usr/lib/git-core/git-${words[1]}`, ...words.slice(2)] : null),
  },
  {
    feature: 'spell:git-alias-inline',
    weight: 1,
    apply: (words) => (gitSub(words) === 1 ? ['git', '-c', `alias.q=${words[1]}`, 'q', ...words.slice(2)] : null),
  },
  {
    feature: 'spell:git-alias-config',
    weight: 1,
    apply(words, pre) {
      if (gitSub(words) !== 1) return null;
      pre.push(`git config alias.q ${words[1]}`);
      return ['git', 'q', ...words.slice(2)];
    },
  },
];

/** `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q …=push git q …`: assignments make it a statement. */
const GIT_CONFIG_ENV: Layer = {
  feature: 'spell:git-config-env',
  weight: 1,
  applies: (f) => f.words !== null && gitSub(f.words) === 1 && f.pre.length === 0,
  apply: (f) => textForm(`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0=${f.words![1]} git q ${f.words!.slice(2).join(' ')}`),
};

// ---- cases -------------------------------------------------------------------------------------

export interface Case {
  line: string;
  tier: Tier;
  target: string;
  features: string[];
}

/** A target's words as a form: inert when every value is. */
const targetForm = (argv: readonly string[]): Form => ({ pre: [], words: argv.map(shq), text: argv.map(shq).join(' '), inert: argv.every(inertValue) });

const weighted = <T extends { weight: number }>(xs: readonly T[], rng: Rng): T => {
  const total = xs.reduce((s, x) => s + x.weight, 0);
  let r = rng.next() * total;
  for (const x of xs) if ((r -= x.weight) < 0) return x;
  return xs[xs.length - 1]!;
};

/** Every feature the generator can use (for docs and the known-misses check). */
export function allFeatures(): string[] {
  return [...SPELLINGS.map((s) => s.feature), GIT_CONFIG_ENV.feature, ...WRAPPERS.map((w) => w.feature), ...TEXT_LAYERS.map((l) => l.feature)];
}

/**
 * One case: 0–2 spellings, then 1–4 wrapper or text layers (text layers more often later).
 * Byte-for-byte the same for the same `rng` state.
 */
export function generateCase(target: Target, rng: Rng, opts: GenOptions): Case {
  const features: string[] = [];
  let form: Form = target.argv ? targetForm(target.argv) : textForm(target.text);
  // gh is not installed where a reset PATH looks (/usr/bin), so `env -i gh …` would run nothing.
  const nsOk = opts.ns && !/(^|\s)gh\s/.test(target.text);
  const okNs = (x: { ns?: boolean }): boolean => nsOk || !x.ns;
  if (target.argv) {
    const values = [...target.argv];
    const pre: string[] = [];
    let words = values.map(shq);
    const n = rng.int(3);
    for (let i = 0; i < n; i++) {
      const s = weighted(SPELLINGS.filter(okNs), rng);
      // Spellings see the current words; each respells a word that is still plain.
      const next = s.apply(words, pre, rng);
      if (next) {
        words = next;
        features.push(s.feature);
      }
    }
    // Spellings change how a word is written, not its value.
    form = { pre, words, text: words.join(' '), inert: target.argv.every(inertValue) };
    if (pre.length === 0 && rng.chance(0.03) && GIT_CONFIG_ENV.applies(form)) {
      form = GIT_CONFIG_ENV.apply(form, rng, 0);
      features.push(GIT_CONFIG_ENV.feature);
    }
  }
  const layers = 1 + rng.int(4);
  for (let depth = 0; depth < layers; depth++) {
    const useText = form.words === null || rng.chance(0.35 + depth * 0.1);
    const pool = (useText ? TEXT_LAYERS : WRAPPERS).filter((l) => okNs(l) && l.applies(form));
    if (pool.length === 0) continue;
    const l = weighted(pool, rng);
    form = l.apply(form, rng, depth);
    if (form.words) form = { ...form, text: form.words.join(' ') };
    else form = { ...form, inert: false };
    features.push(l.feature);
  }
  return { line: textOf(form), tier: target.tier, target: target.text, features };
}

/** `count` cases, targets taken in turn, from one seed. */
export function generateCases(targets: readonly Target[], count: number, seed: number, opts: GenOptions): Case[] {
  const rng = rngFrom(seed);
  varCounter = 0;
  const out: Case[] = [];
  for (let i = 0; i < count; i++) out.push(generateCase(targets[i % targets.length]!, rng, opts));
  return out;
}

/** One layer alone over every target: the single-feature probe that classifies misses. */
export function probeCases(targets: readonly Target[], seed: number, opts: GenOptions): Case[] {
  const rng = rngFrom(seed);
  varCounter = 0;
  const out: Case[] = [];
  for (const t of targets) {
    if (!t.argv) continue;
    for (const l of [...WRAPPERS, ...TEXT_LAYERS]) {
      if (!opts.ns && l.ns) continue;
      const base = targetForm(t.argv);
      if (!l.applies(base)) continue;
      out.push({ line: textOf(l.apply(base, rng, 0)), tier: t.tier, target: t.text, features: [l.feature] });
    }
    const base = targetForm(t.argv);
    if (GIT_CONFIG_ENV.applies(base)) out.push({ line: textOf(GIT_CONFIG_ENV.apply(base, rng, 0)), tier: t.tier, target: t.text, features: [GIT_CONFIG_ENV.feature] });
    for (const s of [...SPELLINGS]) {
      if (!opts.ns && s.ns) continue;
      const pre: string[] = [];
      const words = s.apply(t.argv.map(shq), pre, rng);
      if (words) out.push({ line: textOf({ pre, words, text: '' }), tier: t.tier, target: t.text, features: [s.feature] });
    }
  }
  return out;
}

// ---- wrapper chains ----------------------------------------------------------------------------

/**
 * Wrappers as their manuals spell them, `%` standing for the command (text inside quotes stays
 * one line without quotes): option spellings the layers above do not use, and the interpreters
 * that run a shell (python3, perl, node). `ns`: reaches programs by a reset PATH.
 */
const CHAIN_FORMS: ReadonlyArray<{ program: string; forms: readonly string[]; ns?: boolean }> = [
  { program: 'env', forms: ['env %', 'env -i PATH="$PATH" %', 'env - PATH="$PATH" %', 'env -u HOME %', 'env --unset=HOME A=1 %', 'env -- %', 'env -S "%"'] },
  { program: 'nice', forms: ['nice %', 'nice -n 5 %', 'nice -5 %', 'nice --adjustment=3 %', 'nice -n5 -- %'] },
  { program: 'nohup', forms: ['nohup % 2>/dev/null', 'nohup -- % 2>/dev/null'] },
  { program: 'timeout', forms: ['timeout 5 %', 'timeout -s KILL 5 %', 'timeout --kill-after=1 5s %', 'timeout -v 5 %'] },
  { program: 'stdbuf', forms: ['stdbuf -oL %', 'stdbuf -i 0 -e0 %', 'stdbuf --output=L %'] },
  { program: 'setsid', forms: ['setsid -w %', 'setsid --wait %'] },
  { program: 'xargs', forms: ['echo | xargs -r %', 'echo | xargs %', 'echo x | xargs -I{} %', 'echo | xargs -0 -n 1 %'] },
  { program: 'find', forms: ['find . -maxdepth 0 -exec % \\;', 'find . -maxdepth 0 -execdir % \\;'] },
  { program: 'flock', forms: ['flock LOCK %', 'flock -w 5 LOCK %', 'flock LOCK -c "%"'] },
  { program: 'taskset', forms: ['taskset 0x1 %', 'taskset -c 0 %'] },
  { program: 'chrt', forms: ['chrt -o 0 %', 'chrt --other 0 %'] },
  { program: 'ionice', forms: ['ionice -c 3 %', 'ionice -c2 -n7 %'] },
  {
    program: 'bash',
    forms: ['bash -c "%"', 'bash -ec "%"', 'bash -oe pipefail -c "%"', 'bash -ocx pipefail "%" 2>/dev/null', 'bash -o pipefail -c "%"', 'bash --norc -c "%" arg0', 'echo "%" | bash', 'bash -s <<< "%"'],
  },
  { program: 'sh', forms: ['sh -c "%"', 'sh -xc "%" 2>/dev/null', 'echo "%" | sh -s'] },
  { program: 'dash', forms: ['dash -c "%"'] },
  { program: 'eval', forms: ['eval "%"', 'eval %'] },
  { program: 'command', forms: ['command %'] },
  { program: 'command', forms: ['command -p %'], ns: true },
  { program: 'builtin', forms: ['builtin eval "%"'] },
  { program: 'time', forms: ['time % 2>/dev/null', 'time -p % 2>/dev/null'] },
  { program: 'script', forms: ['script -qc "%" /dev/null >/dev/null', 'script -q /dev/null -c "%" >/dev/null'] },
  { program: 'python3', forms: [`python3 -c "import os; os.system('%')"`, `python3 -c "import subprocess as sp; sp.run('%', shell=True)"`, `python3 -c "from os import system; system('%')"`] },
  { program: 'perl', forms: [`perl -e 'system("%")'`] },
  { program: 'node', forms: [`node -e "require('child_process').execSync('%')"`] },
];

/** Shell builtins and keywords among CHAIN_FORMS: always there. */
const CHAIN_BUILTINS = new Set(['eval', 'builtin', 'command', 'time']);

/** The denied actions the chains wrap (each safe to run: only the faked git). */
export const CHAIN_TARGETS: readonly string[] = ['git push -f origin main', 'git push --force', 'git push origin +main', 'git -C . push --force-with-lease=x -f'];

/**
 * `count` lines, each a denied git push inside a chain of one to three CHAIN_FORMS wrappers
 * (those whose program `have` finds, or that are builtins), from one seed. `usable` names the
 * wrappers that took part.
 */
export function chainCases(count: number, seed: number, have: (program: string) => boolean, opts: GenOptions): { cases: Case[]; usable: string[] } {
  const targets = CHAIN_TARGETS.filter(safeToRun);
  const usable = CHAIN_FORMS.filter((w) => (opts.ns || !w.ns) && (CHAIN_BUILTINS.has(w.program) || have(w.program)));
  const rng = rngFrom(seed);
  const cases: Case[] = [];
  for (let n = 0; n < count; n++) {
    const target = rng.pick(targets);
    let line = target;
    const features: string[] = [];
    for (let depth = 1 + rng.int(3); depth > 0; depth--) {
      const w = rng.pick(usable);
      const form = rng.pick(w.forms);
      // Text inside double quotes or single-quoted code: keep the inner command free of quotes.
      if (/["']%|%["']/.test(form) && /["'\\]/.test(line)) continue;
      // Forms with a pipe or redirection only wrap a simple command.
      if (['xargs', 'script', 'nohup', 'time'].includes(w.program) && /[|<>]/.test(line)) continue;
      line = form.replace('%', line);
      features.push(`chain:${w.program}`);
    }
    cases.push({ line, tier: 'baseline', target, features });
  }
  return { cases, usable: [...new Set(usable.map((w) => w.program))] };
}
