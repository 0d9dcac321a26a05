/**
 * The one argv reader: argv + a program's grammar → subcommand path, normalised options,
 * option values and positionals. A program without a grammar is read with the default one
 * (the first non-option word is its subcommand; every option is a flag).
 */
import type { CommandGrammar, Grammars, ProgramGrammar, ReadArgs } from './types.ts';
import { splitAliasWords } from './split.ts';

interface Level {
  value: ReadonlySet<string>;
  longs: readonly string[];
  syn: ReadonlyMap<string, readonly string[]>;
  /** The compiled level of a subcommand, or undefined when it has none. */
  sub(name: string): Level | undefined;
  aliases: ReadonlyMap<string, string>;
  /** The next non-option word names a subcommand. */
  nested: boolean;
}

interface Program {
  root: Level;
  inherit: boolean;
  shortEquals: boolean;
  abbreviations: boolean;
  inlineAliases: { option: string; prefix: string } | null;
  commands: ReadonlySet<string>;
}

const LEAF: Level = { value: new Set(), longs: [], syn: new Map(), sub: () => undefined, aliases: new Map(), nested: false };
/** Aliases may expand to aliases; git stops at loops, we stop after a few steps. */
const MAX_ALIAS_STEPS = 8;

function compileLevel(g: CommandGrammar): Level {
  const value = new Set(g.value_options ?? []);
  const longs = [...new Set([...(g.long_options ?? []), ...[...value].filter((o) => o.startsWith('--'))])];
  const syn = new Map<string, string[]>();
  for (const [a, b] of Object.entries(g.synonyms ?? {})) {
    syn.set(a, [...(syn.get(a) ?? []), b]);
    syn.set(b, [...(syn.get(b) ?? []), a]);
  }
  // Subcommand levels compile on first lookup: a hook reads one command, and compiling every
  // level of git's grammar up front was over a millisecond of each hook's start-up.
  const raw = g.subcommands ?? {};
  const compiled = new Map<string, Level>();
  return {
    value,
    longs,
    syn,
    sub(name: string): Level | undefined {
      let level = compiled.get(name);
      if (level === undefined && Object.hasOwn(raw, name)) {
        level = compileLevel(raw[name]!);
        compiled.set(name, level);
      }
      return level;
    },
    aliases: new Map(Object.entries(g.aliases ?? {})),
    nested: g.nested === true || Object.keys(raw).length > 0,
  };
}

const compiled = new WeakMap<ProgramGrammar, Program>();

function compileProgram(g: ProgramGrammar): Program {
  let p = compiled.get(g);
  if (!p) {
    p = {
      root: compileLevel(g),
      inherit: g.inherit_options === true,
      shortEquals: g.short_equals === true,
      abbreviations: g.abbreviations === true,
      inlineAliases: g.inline_aliases ?? null,
      commands: new Set(g.commands ?? []),
    };
    compiled.set(g, p);
  }
  return p;
}

const DEFAULT_GRAMMAR: ProgramGrammar = { nested: true };

export function readArgv(argv: readonly string[], dynamic: Iterable<number>, grammars: Grammars): ReadArgs {
  const program = argv[0] ?? '';
  const prog = compileProgram(Object.hasOwn(grammars, program) ? grammars[program]! : DEFAULT_GRAMMAR);
  const words = argv.slice(1);
  const dyn = new Array<boolean>(words.length).fill(false);
  for (const i of dynamic) if (i >= 1 && i <= words.length) dyn[i - 1] = true;

  const out: ReadArgs = {
    program,
    subcommand: [],
    subcommand_dynamic: false,
    flags: new Set(),
    values: new Map(),
    positionals: [],
  };
  const chain: Level[] = [prog.root];
  let level = prog.root;
  let current: Level[] = [level];
  let expectSub = level.nested;
  let endOfOptions = false;
  let aliasSteps = 0;

  const active = (): readonly Level[] => (prog.inherit ? chain : current);
  const takesValue = (opt: string): boolean => active().some((l) => l.value.has(opt));
  const spellings = (opt: string): string[] => {
    const all = [opt];
    for (const l of active()) for (const s of l.syn.get(opt) ?? []) if (!all.includes(s)) all.push(s);
    return all;
  };
  const addFlag = (opt: string): string[] => {
    const names = spellings(opt);
    for (const n of names) out.flags.add(n);
    return names;
  };
  const addValue = (names: string[], v: string): void => {
    for (const n of names) {
      const list = out.values.get(n);
      if (list) list.push(v);
      else out.values.set(n, [v]);
    }
  };
  const expandLong = (name: string): string => {
    if (!prog.abbreviations) return name;
    let exact = false;
    const hits: string[] = [];
    for (const l of active()) {
      if (l.value.has(name) || l.longs.includes(name)) exact = true;
      for (const o of l.longs) if (o.startsWith(name) && !hits.includes(o)) hits.push(o);
    }
    return !exact && hits.length === 1 ? hits[0]! : name;
  };

  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!endOfOptions && w === '--') {
      // Before the subcommand, `--` is skipped: the subcommand is still looked for.
      if (!expectSub) endOfOptions = true;
      continue;
    }
    if (!endOfOptions && w.length > 1 && w[0] === '-') {
      if (w[1] === '-') {
        const eq = w.indexOf('=');
        const name = expandLong(eq < 0 ? w : w.slice(0, eq));
        const names = addFlag(name);
        if (eq >= 0) addValue(names, w.slice(eq + 1));
        else if (takesValue(name) && i + 1 < words.length) addValue(names, words[++i]!);
      } else {
        for (let j = 1; j < w.length; j++) {
          const opt = `-${w[j]}`;
          const names = addFlag(opt);
          if (!takesValue(opt)) continue;
          let rest = w.slice(j + 1);
          if (rest !== '') {
            if (prog.shortEquals && rest[0] === '=') rest = rest.slice(1);
            addValue(names, rest);
          } else if (i + 1 < words.length) addValue(names, words[++i]!);
          break;
        }
      }
      continue;
    }
    if (!expectSub) {
      out.positionals.push(w);
      continue;
    }
    if (dyn[i]) {
      out.subcommand_dynamic = true;
      expectSub = false;
      continue;
    }
    const name = level.aliases.get(w) ?? w;
    if (level === prog.root && prog.inlineAliases && !prog.commands.has(name)) {
      const alias = inlineAlias(out.values.get(prog.inlineAliases.option), prog.inlineAliases.prefix, name);
      if (alias !== undefined && aliasSteps < MAX_ALIAS_STEPS) {
        aliasSteps++;
        const rest = words.slice(i + 1);
        if (alias.startsWith('!')) {
          out.shell_alias = [alias.slice(1), ...rest.map(shellQuote)].join(' ');
          expectSub = false;
          endOfOptions = true;
          i = words.length;
          continue;
        }
        const expansion = splitAliasWords(alias);
        words.splice(i, words.length - i, ...expansion, ...rest);
        dyn.splice(i, dyn.length - i, ...expansion.map(() => false), ...dyn.slice(i + 1));
        i--;
        continue;
      }
    }
    out.subcommand.push(name);
    level = level.sub(name) ?? LEAF;
    chain.push(level);
    current = [level];
    expectSub = level.nested;
  }
  return out;
}

/** The last `-c alias.NAME=VALUE` for NAME (git reads config keys case-insensitively). */
function inlineAlias(values: readonly string[] | undefined, prefix: string, name: string): string | undefined {
  if (!values) return undefined;
  let found: string | undefined;
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq < 0) continue;
    const key = v.slice(0, eq).toLowerCase();
    if (key === `${prefix}${name}`.toLowerCase()) found = v.slice(eq + 1);
  }
  return found;
}

function shellQuote(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
