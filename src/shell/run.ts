/**
 * Running by program data (src/grammars): what a command runs, followed through its wrappers
 * (`sudo nice env git push`), its runners (`find -exec`, `xargs`), the scripts it hands to a
 * shell (`bash -c TEXT`, `eval`, a shell reading standard input), the code it hands to an
 * interpreter (`python -c CODE`), the script files it runs (`bash x.sh`, `source x`, `./x.sh`)
 * and what it runs from the environment the line gives it (`GIT_SSH_COMMAND=… git fetch`).
 */
import { dashedCommand, mayRun, programData, readWords } from '../grammars/reader.ts';
import type { ProgramGrammar, Run } from '../grammars/types.ts';
import type { Script } from './ast.ts';
import { positionalOf } from './builtins.ts';
import type { Calls } from './calls.ts';
import { type Ctx, NO_STDIN, type Stdin, type StdinThunk, type Walker, basename, checkDepth, utf8Length } from './context.ts';
import { scanInlineCode, type InlineLanguage } from './interpreters.ts';
import { type Provenance, dedupeSources, sourcesOf, unseenCommand, unseenStdin } from './provenance.ts';
import type { StdinReader } from './stdin.ts';
import { type PathWord, type ScriptRead, type ScriptSource, type ShellCommand, ShellParseError } from './types.ts';
import { type ArgWord, literalArg } from './word-value.ts';
import { PARSE_COST, UNWRAP_WORD_COST } from './work.ts';
import { xargsCommands, xargsItems } from './xargs-input.ts';
import { roleTexts } from './role-texts.ts';
import { lineDirectory, projectScripts, runsProjectScripts } from './project-scripts.ts';

const LANGUAGES: ReadonlySet<string> = new Set<InlineLanguage>(['python', 'node', 'perl', 'ruby', 'php', 'awk']);
const SHEBANG_SHELL = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|mk|a|y|po)?sh\b/;

/** A walker's starting points: what the words holding `replace` name (`find DIR -exec CMD {} ;`). */
export interface Walk {
  replace: string;
  under: PathWord[];
}

type CommandRun = Extract<Run<ArgWord>, { kind: 'command' }>;

export class Runner {
  private scriptsRead = 0;
  /**
   * A file a substitution's output is (`"$(cat x.py)"`) → the substitution's own commands: they
   * read it, they did not write it (writersOf).
   */
  private readBy: WeakMap<ArgWord, readonly ShellCommand[]> | null = null;

  constructor(
    private readonly w: Walker,
    private readonly prov: Provenance,
    private readonly input: StdinReader,
    private readonly calls: Calls,
  ) {}

  /**
   * Reports the command `argsIn` and what it runs. `walk`: it runs for each path a walker finds
   * (`find DIR -exec CMD {} ;`): the words holding the replacement string name those paths.
   */
  unwrap(argsIn: ArgWord[], viaIn: readonly string[], stdinIn: StdinThunk, ctx: Ctx, walk?: Walk): void {
    const out = this.w.out;
    const mark = out.length;
    this.unwrapChain(argsIn, viaIn, stdinIn, ctx);
    if (walk === undefined) return;
    for (let i = mark; i < out.length; i++) {
      const c = out[i] as ShellCommand;
      if (c.walk !== undefined || c.opaque) continue;
      const indices = c.dynamic.filter((k) => k > 0 && (c.argv[k] ?? '').includes(walk.replace));
      if (indices.length > 0) c.walk = { indices, under: walk.under };
    }
  }

  /** A chain of wrappers (`sudo nice env CMD`), followed in this loop, not by recursion. */
  private unwrapChain(argsIn: ArgWord[], viaIn: readonly string[], stdinIn: StdinThunk, ctx: Ctx): void {
    let args = argsIn;
    let via = viaIn;
    let stdin = stdinIn;
    const w = this.w;
    const programs = w.opts.programs;
    /** `NAME=value` words of the wrappers so far (`env GIT_SSH_COMMAND=… git fetch`), for `envRuns`. */
    let chainEnv: Map<string, string | null> | undefined;
    for (let guard = 0; guard < 64; guard++) {
      const w0 = args[0];
      if (w0 === undefined) return;
      // Each step hands the rest of the words on (handlers scan them): `find -exec find -exec …`.
      w.work.charge(UNWRAP_WORD_COST * (args.length + 1), 'unwrapping wrappers', w0.start);
      if (w0.dynamic || w0.glob) {
        w.report(runtimeProgram(w0, args, via, stdin));
        return;
      }
      // A function or an alias the line defined: what it runs, with this call's arguments.
      if (this.calls.defines(w0.value)) this.calls.call(w0.value, args, via, stdin, ctx);
      let prog = basename(w0.value);
      let data = programData(prog, programs);
      if (data === undefined) {
        // `git-push`, `…/git-core/git-push`: `git push`.
        const dashed = dashedCommand(prog, programs);
        if (dashed !== undefined) {
          prog = dashed[0];
          args = [{ ...w0, value: dashed[0] }, { value: dashed[1], dynamic: false, glob: false, start: w0.start }, ...args.slice(1)];
          data = programData(prog, programs);
        }
      }
      if (data?.grammar.env_runs !== undefined) this.envRuns(data.grammar.env_runs, prog, via, ctx, chainEnv);
      // `npm run NAME`, `make TARGET`: the scripts they run from the project's files.
      if (runsProjectScripts(prog)) projectScripts(w, this.projectText, (r, f, v) => this.earlier(r, f, v), prog, args, via, ctx, lineDirectory(w));
      if (data === undefined || !mayRun(data.grammar, args)) {
        const cmd = toCommand(prog, args, via, false);
        // What it reads as a word of a role (`psql < drop.sql`, `psql -f x.sql`): only programs whose data says so.
        if (data !== undefined && (data.grammar.stdin_role !== undefined || data.grammar.role_files !== undefined)) {
          const texts = roleTexts(data.grammar, prog, args, stdin, { read: w.opts.readScript, writers: (f) => this.prov.writersOf(f) ?? [] });
          if (texts !== undefined) cmd.texts = texts;
        }
        w.report(cmd);
        if (w0.value.includes('/')) this.file(w0, w0.value, true, via, ctx, args.slice(1));
        return;
      }
      const r = readWords(args, data.grammar, prog, 'runs');
      if (r.unknown !== null) {
        w.report(toCommand(prog, args, via, true));
        return;
      }
      const only = r.runs.length === 1 && !r.self ? r.runs[0] : undefined;
      if (only?.kind !== 'command') {
        this.runAll(data.grammar, r, prog, args, via, stdin, ctx);
        return;
      }
      if (only.input !== undefined) {
        // Input known on the line (`echo … | xargs …`): the commands it makes (xargs-input.ts).
        const made = this.xargsMade(only, via, stdin, ctx);
        if (made === null) return;
        if (made !== undefined) {
          via = [...via, only.label];
          args = made;
          stdin = NO_STDIN;
          continue;
        }
      }
      if (data.grammar.runs?.assignments === true) chainEnv = chainAssignments(args, only, chainEnv);
      via = [...via, only.label];
      args = runnerArgs(args, only, stdin);
      if (!only.stdin) stdin = NO_STDIN;
    }
    w.report(toCommand(args[0]?.value ?? '', args, via, true));
  }

  /**
   * What xargs makes of input known on the line: null when each item was run already (`-I`),
   * the one command to follow on, or undefined when the input is not known.
   */
  private xargsMade(only: CommandRun, via: readonly string[], stdin: StdinThunk, ctx: Ctx): ArgWord[] | null | undefined {
    const input = only.input;
    if (input === undefined) return undefined;
    const items = xargsItems(stdin(), input.replace !== null, input.nul === true);
    const made = items === null ? null : xargsCommands(input.argv, input.replace, items);
    if (made !== null && input.replace !== null) {
      for (const m of made) this.unwrap(m, [...via, only.label], NO_STDIN, ctx);
      return null;
    }
    return made?.[0];
  }

  /** Everything a program runs (not a single wrapped command), then the program itself. */
  private runAll(g: ProgramGrammar, r: ReturnType<typeof readWords<ArgWord>>, prog: string, args: ArgWord[], via: readonly string[], stdin: StdinThunk, ctx: Ctx): void {
    const walk = walkOf(g, args, prog, r.runs);
    for (const run of r.runs) this.run(run, prog, via, stdin, ctx, walk);
    // An interpreter running a program file written or fetched earlier on the line
    // (`curl -o t.py … && python3 t.py`): unseen, with the commands that named it.
    if (g.runs?.stdin_code === true && r.runs.length === 0 && r.operands[0] !== undefined) {
      const file = args[r.operands[0] as number];
      // `node -`, `python3 -`: the program is read from standard input.
      if (file?.value === '-' && !file.dynamic) this.run({ kind: 'stdin_code', language: g.runs.language ?? '' }, prog, via, stdin, ctx);
      else if (file !== undefined) this.programFile(file, `${prog} ${file.value}`, via, g.runs.language, ctx);
    }
    if (r.self) this.w.report(toCommand(prog, args, via, false));
  }

  /** The command a chain of wrappers runs (`nice timeout 5 echo x` → `echo x`), read with the program data. */
  innermost(argsIn: ArgWord[]): ArgWord[] {
    let args = argsIn;
    for (let guard = 0; guard < 16; guard++) {
      const w0 = args[0];
      if (w0 === undefined || w0.dynamic || w0.glob) return args;
      const prog = basename(w0.value);
      const data = programData(prog, this.w.opts.programs);
      if (data === undefined || !mayRun(data.grammar, args)) return args;
      const r = readWords(args, data.grammar, prog, 'runs');
      const only = r.unknown === null && r.runs.length === 1 && !r.self ? r.runs[0] : undefined;
      if (only?.kind !== 'command') return args;
      args = only.argv;
    }
    return args;
  }

  /**
   * What a program runs from the environment the line gives it (program data `env_runs`):
   * `GIT_SSH_COMMAND='…' git fetch`, `export GIT_EDITOR=…; git commit`, `env BASH_ENV=x.sh bash
   * -c …`. Only variables the line sets: the environment the harness was started with is the
   * person's. A value known only at run time is an unseen command. What the value runs sees the
   * same variable; it is not followed a second time.
   */
  private envRuns(spec: Readonly<Record<string, 'shell' | 'script'>>, prog: string, via: readonly string[], ctx: Ctx, chainEnv: ReadonlyMap<string, string | null> | undefined): void {
    for (const name in spec) {
      const how = spec[name]!;
      const value = chainEnv?.has(name) === true ? chainEnv.get(name) : ctx.vars.get(name);
      if (value === undefined || value === '') continue;
      const label = `${prog} ${name}`;
      if (value === null) {
        this.w.report({ argv: [`$${name}`], dynamic: [0], opaque: true, via: [...via, label], unseen: 'runtime' });
        continue;
      }
      // What it runs sees the same variable (`GIT_SSH_COMMAND='git fetch' git fetch`): not followed again.
      const key = `$${name}\0${value}`;
      const active = this.calls.active;
      if (active.has(key)) continue;
      active.add(key);
      try {
        const word = literalArg(value, 0);
        if (how === 'shell') this.nestedScript(word, label, via, ctx);
        else this.file(word, label, false, via, ctx);
      } finally {
        active.delete(key);
      }
    }
  }

  /** One thing a command runs (the reader's `runs`). */
  private run(run: Run<ArgWord>, prog: string, via: readonly string[], stdin: StdinThunk, ctx: Ctx, walk?: Walk): void {
    switch (run.kind) {
      case 'command':
        this.unwrap(run.argv, [...via, run.label], run.stdin ? stdin : NO_STDIN, ctx, walk);
        return;
      case 'shell':
        // The words after the text are its $0, $1, … (`bash -c TEXT _ a`); its commands read the
        // program's standard input (`npx -c sh <<EOF … EOF`).
        this.nestedScript(run.text, run.label, via, ctx, run.args, stdin());
        // `alias NAME=VALUE`: VALUE runs where NAME is used later on the line.
        if (run.defines !== undefined && !run.text.dynamic) this.calls.defineAlias(run.defines, run.text.value, run.text.start);
        return;
      case 'script':
        this.file(run.path, run.label, false, via, ctx, run.args);
        return;
      case 'stdin_script':
        // `bash -s a b`: $0 is the shell's name, then the operands.
        this.stdinScript(prog, via, stdin(), ctx, run.args.length > 0 ? [literalArg(prog, run.args[0]?.start), ...run.args] : undefined);
        return;
      case 'code':
        this.codeWord(run.code, run.language, run.label, via, ctx);
        return;
      case 'stdin_code': {
        // The program is read from standard input (`… | python3`, `node < x.js`).
        const s = stdin();
        if (s === null) return;
        const label = s.label.replace('%', prog);
        if (s.kind === 'text') this.inlineCode(s.text, s.dynamic, run.language, label, via, ctx, 0, s.from ?? []);
        else if (s.kind === 'file') this.programFile(s.from ? { ...s.path, from: s.from } : s.path, label, via);
        else this.w.report(unseenStdin(prog, [...via, label], s.from));
        return;
      }
    }
  }

  /** A shell reading its script from standard input (`positional`: its `$0 $1 …`). */
  stdinScript(prog: string, via: readonly string[], s: Stdin | null, ctx: Ctx, positional?: readonly ArgWord[]): void {
    if (s === null) return;
    const label = s.label.replace('%', prog);
    const from = s.from;
    if (s.kind === 'text') this.nestedScript({ value: s.text, dynamic: s.dynamic, glob: false, start: 0, ...(from && { from }) }, label, via, ctx, positional);
    else if (s.kind === 'file') this.file(from ? { ...s.path, from } : s.path, label, false, via, ctx, positional?.slice(1));
    else this.w.report(unseenStdin(prog, [...via, label], from));
  }

  /**
   * The code word of `python3 -c CODE`, `node -e CODE`: `"$(printf …)"` with literal output is
   * that text, `"$(cat x.py)"` the file's text (read like `python3 x.py`), and code made at run
   * time by other commands (`"$(curl …)"`) carries them as its producers (script_from), like
   * `bash -c "$(curl …)"`.
   */
  private codeWord(code: ArgWord, language: string, label: string, via: readonly string[], ctx: Ctx): void {
    if (code.cmdSub !== undefined) {
      const out = this.input.scriptOutput(code.cmdSub, ctx.vars, 0);
      if (out !== null && 'file' in out) return this.programFile(this.outputFile(out.file, code.cmdSub), label, via, language, ctx);
      if (out !== null && !out.dynamic) return this.inlineCode(out.text, false, language, label, via, ctx, code.start);
    }
    const from = code.dynamic ? this.prov.textSources(code) : [];
    this.inlineCode(code.value, code.dynamic, language, label, via, ctx, code.start, from.length > 0 ? from : undefined);
  }

  /** Code given to an interpreter: the commands it plainly runs (interpreters.ts). */
  private inlineCode(
    code: string,
    dynamic: boolean,
    language: string,
    label: string,
    via: readonly string[],
    ctx: Ctx,
    start: number,
    /** Given when the code is a program read from standard input: who produced it. */
    from?: readonly ScriptSource[],
  ): void {
    const nestedVia = [...via, label];
    if (dynamic || !LANGUAGES.has(language)) {
      const cmd: ShellCommand = { argv: [code], dynamic: [0], opaque: true, via: nestedVia };
      if (from !== undefined && dynamic) {
        cmd.unseen = 'runtime';
        if (from.length > 0) cmd.script_from = dedupeSources(from);
      }
      this.w.report(cmd);
      return;
    }
    for (const call of scanInlineCode(code, language as InlineLanguage)) {
      // (`fed`: what the code writes into the command is not known here.)
      if (call.kind === 'shell') this.nestedScript(literalArg(call.text, start), label, via, ctx, undefined, call.fed ? { kind: 'unknown', label: `% < ${label}` } : null);
      else if (call.kind === 'argv') this.unwrap(call.argv.map((a) => literalArg(a, start)), nestedVia, NO_STDIN, ctx);
      // A process call whose command is not a literal runs text known only at run time.
      else this.w.report({ argv: [call.text], dynamic: [0], opaque: true, via: nestedVia, unseen: 'runtime' });
    }
  }

  /**
   * Script text a shell, `eval` or `source` runs. `positional`: the words after it
   * (`bash -c TEXT $0 $1 …`); undefined: not known. `stdin`: what its commands read (the
   * running program's own standard input: `npx -c sh <<EOF … EOF`).
   */
  nestedScript(textIn: ArgWord, label: string, via: readonly string[], ctx: Ctx, positional?: readonly ArgWord[], stdin: Stdin | null = null): void {
    let text = textIn;
    const w = this.w;
    if (text.cmdSub !== undefined) {
      // `eval "$(printf …)"`, `bash -c "$(echo …)"`: the substitution's output, when literal.
      const out = this.input.scriptOutput(text.cmdSub, ctx.vars, 0);
      if (out !== null && !('file' in out) && !out.dynamic) text = { value: out.text.replace(/\n+$/, ''), dynamic: false, glob: false, start: text.start };
      // `eval "$(< x.sh)"`, `bash -c "$(cat x.sh)"`: the file's text is the script, read as `bash x.sh` reads it.
      else if (out !== null && 'file' in out) {
        this.file(out.file, label, false, via, ctx, positional?.slice(1));
        return;
      }
    }
    const nestedVia = [...via, label];
    const depth = ctx.depth + 1;
    checkDepth(w.opts.maxDepth, depth, text.start);
    const vars = label === 'eval' ? ctx.vars : ctx.vars.env(positional === undefined ? null : positionalOf(positional));
    if (!text.dynamic) {
      w.analyzeText(text.value, text.start, depth, nestedVia, vars, stdin);
      return;
    }
    // Run-time script text: what runs cannot be known; report it, with the arguments handed to
    // it (`bash -c "$X" _ push -f`: `$1 …`), then what the visible text shows.
    const shown = text.value.replace(/\n+$/, '');
    const whole: ShellCommand = { argv: [shown], dynamic: [0], opaque: true, via: nestedVia, unseen: 'runtime' };
    const from = this.prov.textSources(textIn);
    if (from.length > 0) whole.script_from = dedupeSources(from);
    positional?.forEach((p) => {
      whole.argv.push(p.value);
      if (p.dynamic) whole.dynamic.push(whole.argv.length - 1);
    });
    w.report(whole);
    const mark = w.out.length;
    try {
      w.analyzeText(text.value, text.start, depth, nestedVia, vars, null);
    } catch (e) {
      if (!(e instanceof ShellParseError) || e.code === 'too_deep' || e.code === 'too_large' || e.code === 'too_complex') throw e;
      w.out.length = mark;
    }
    // `eval "$x"` shows `$x` again: keep one.
    for (let i = w.out.length - 1; i >= mark; i--) {
      const c = w.out[i] as ShellCommand;
      if (c.opaque && c.argv.length === 1 && c.argv[0] === shown && sameVia(c.via, nestedVia)) w.out.splice(i, 1);
    }
  }

  /**
   * A program file an interpreter runs (`python3 x.py`, `node x.js`): unseen when written or
   * named earlier on the line; else read like its `-c`/`-e` code (its own text only: what it
   * imports is not followed), unseen when it cannot be read or is past its share of the work.
   */
  programFile(path: ArgWord, label: string, via: readonly string[], language?: string, ctx?: Ctx): void {
    const w = this.w;
    // `python3 <(curl …)`: the program is the substitution's output, made by its commands.
    if (path.procSub !== undefined && ctx !== undefined) {
      const out = this.input.scriptOutput(path.procSub, ctx.vars, 0);
      const from = this.prov.subSources(path.procSub);
      if (out === null) w.report(unseenCommand(path.value, [...via, label], 'runtime', from));
      else if ('file' in out) this.programFile(this.outputFile(out.file, path.procSub), label, via, language, ctx);
      else this.inlineCode(out.text, out.dynamic, language ?? '', label, via, ctx, path.start, out.dynamic ? from : undefined);
      return;
    }
    if (path.dynamic || path.glob) return;
    const writers = this.writersOf(path);
    if (writers !== null) {
      w.report(unseenCommand(path.value, [...via, label], 'unreadable', [...(path.from ?? []), ...sourcesOf(writers, 'file')]));
      return;
    }
    const read = w.opts.readScript;
    if (read === undefined || language === undefined || ctx === undefined || !LANGUAGES.has(language)) return;
    if (this.scriptsRead >= w.opts.maxScripts) return void w.report(unseenCommand(path.value, [...via, label], 'unreadable'));
    this.scriptsRead++;
    const text = this.earlier(read(path.value), path.value, [...via, label]);
    // Missing: the interpreter fails and runs nothing.
    if (text === undefined) return;
    if (text === null || PARSE_COST * text.length >= Math.floor(w.work.left / 2)) return void w.report(unseenCommand(path.value, [...via, label], 'unreadable'));
    w.work.charge(PARSE_COST * text.length, 'interpreter code to scan', path.start);
    this.inlineCode(text, false, language, label, via, ctx, path.start);
  }

  /**
   * A file's text as read; a file an earlier call downloaded or decoded (recorded by the caller)
   * is also an unseen command with those producers, as on one line (`curl -o x.sh …` then `bash x.sh`).
   */
  earlier(r: ScriptRead, file: string, via: readonly string[]): string | null | undefined {
    if (r === null || r === undefined || typeof r === 'string') return r;
    if (r.from.length > 0) this.w.report(unseenCommand(file, via, 'runtime', r.from));
    return r.text;
  }

  /** The file a substitution's output is, remembered as read by the substitution's commands. */
  private outputFile(file: ArgWord, body: Script): ArgWord {
    const cmds = this.prov.subOut?.get(body);
    if (cmds !== undefined) (this.readBy ??= new WeakMap()).set(file, cmds);
    return file;
  }

  /** The commands earlier on the line that wrote or named `path`, not counting those that only read it for a substitution. */
  private writersOf(path: ArgWord): ShellCommand[] | null {
    const writers = this.prov.writersOf(path.value);
    const readers = this.readBy?.get(path);
    if (writers === null || readers === undefined) return writers;
    const rest = writers.filter((c) => !readers.includes(c));
    return rest.length > 0 ? rest : null;
  }

  /** Script text a project file holds (`npm run NAME`, `make TARGET`), walked like a script file. */
  private readonly projectText = (text: ArgWord, label: string, via: readonly string[], ctx: Ctx, positional?: readonly ArgWord[], file?: string): void => {
    this.scriptText(text.value, { ...text, value: file ?? label }, [...via, label], false, ctx, positional?.slice(1));
  };

  /**
   * A script file a shell runs (`bash FILE`, `source FILE`, `./x.sh` with
   * `requireShebang`). One that cannot be read is an opaque command marked `unseen`.
   */
  file(path: ArgWord, label: string, requireShebang: boolean, via: readonly string[], ctx: Ctx, positional?: readonly ArgWord[]): void {
    const w = this.w;
    const nestedVia = [...via, label];
    if (path.procSub !== undefined) {
      this.substitutedFile(path, path.procSub, label, via, ctx, positional);
      return;
    }
    const read = w.opts.readScript;
    if (path.dynamic || path.glob) {
      // `bash "$f"`: a script known only at run time (a program named so is already opaque).
      if (!requireShebang && read !== undefined) w.report(unseenCommand(path.value, nestedVia, 'runtime'));
      return;
    }
    // Written earlier on this line (`echo … > x.sh; bash x.sh`), or named by an earlier command
    // (`curl -o x.sh`, `cp a x.sh`, `wget URL/x.sh`): what runs may not be what is on disk now.
    const writers = this.writersOf(path);
    const rewritten = writers !== null;
    if (writers !== null) w.report(unseenCommand(path.value, nestedVia, 'unreadable', [...(path.from ?? []), ...sourcesOf(writers, 'file')]));
    if (read === undefined) return;
    if (this.scriptsRead >= w.opts.maxScripts) {
      if (!rewritten) w.report(unseenCommand(path.value, nestedVia, 'unreadable'));
      return;
    }
    this.scriptsRead++;
    const text = this.earlier(read(path.value), path.value, nestedVia);
    if (text === null || text === undefined) {
      // Missing, too large, a FIFO or device. Run directly, a missing file runs nothing.
      if (!requireShebang && !rewritten) w.report(unseenCommand(path.value, nestedVia, 'unreadable'));
      return;
    }
    // Run directly: a shell shebang, or no `#!` at all (bash runs a non-binary file as a script).
    if (requireShebang && !(SHEBANG_SHELL.test(text) || (!text.startsWith('#!') && !looksBinary(text)))) return;
    this.scriptText(text, path, nestedVia, rewritten, ctx, positional);
  }

  /** `source <(…)`, `bash <(…)`: the script is the substitution's output. */
  private substitutedFile(path: ArgWord, procSub: Script, label: string, via: readonly string[], ctx: Ctx, positional?: readonly ArgWord[]): void {
    const out = this.input.scriptOutput(procSub, ctx.vars, 0);
    const from = this.prov.subSources(procSub);
    if (out !== null && 'file' in out) this.file(out.file, label, false, via, ctx, positional);
    else if (out === null) this.w.report(unseenCommand(path.value, [...via, label], 'runtime', from));
    else {
      const text: ArgWord = { value: out.text, dynamic: out.dynamic, glob: false, start: path.start, from };
      this.nestedScript(text, label, via, ctx, positional === undefined ? undefined : [path, ...positional]);
    }
  }

  /** A script file's text, read: walked within its share of the work and the depth bound. */
  scriptText(text: string, path: ArgWord, nestedVia: readonly string[], rewritten: boolean, ctx: Ctx, positional?: readonly ArgWord[]): void {
    const w = this.w;
    // A script may use at most half the work left; past that (or over the size limit) it cannot
    // be analysed, like a script that cannot be read. Each later script gets half of what then
    // remains, so all of them together stay within the budget.
    const outer = w.work.max;
    const share = Math.floor(w.work.left / 2);
    if (PARSE_COST * text.length >= share || utf8Length(text) > w.opts.maxBytes) {
      if (!rewritten) w.report(unseenCommand(path.value, nestedVia, 'unreadable'));
      return;
    }
    const depth = ctx.depth + 1;
    checkDepth(w.opts.maxDepth, depth, path.start);
    const mark = w.out.length;
    w.work.max = w.work.counter.used + share;
    let failed: ShellParseError | null = null;
    try {
      const pos = positional === undefined ? null : positionalOf([path, ...positional]);
      w.analyzeText(text, 0, depth, nestedVia, ctx.vars.env(pos), null);
    } catch (e) {
      if (!(e instanceof ShellParseError)) throw e;
      failed = e;
    } finally {
      w.work.max = outer;
    }
    if (failed === null) return;
    const overShare = failed.code === 'too_complex' && w.work.counter.used <= outer;
    if (!overShare && (failed.code === 'too_deep' || failed.code === 'too_large' || failed.code === 'too_complex')) {
      const msg = failed.code === 'too_complex' ? failed.message.replace(/limit of \d+/, `limit of ${outer}`) : failed.message;
      throw new ShellParseError(failed.code, `${path.value}: ${msg}`, path.start);
    }
    // bash runs a script up to its syntax error (and one past its share of the work cannot be
    // listed either): what runs there is unknown.
    w.out.length = mark;
    if (overShare) w.report(unseenCommand(path.value, nestedVia, 'unreadable'));
    else w.report({ argv: [path.value], dynamic: [], opaque: true, via: nestedVia.slice() });
  }
}

/** A program word known only at run time (`$X`, `"$@"`, a glob): an opaque command. */
function runtimeProgram(w0: ArgWord, args: ArgWord[], via: readonly string[], stdin: StdinThunk): ShellCommand {
  const cmd = toCommand(w0.value, args, via, true);
  // A program word known only at run time is text known only at run time (`$X`, `"$@"`).
  if (w0.dynamic) {
    cmd.unseen = 'runtime';
    // `curl … | $SHELL`: what it reads comes from there.
    const from = stdin()?.from;
    if (from !== undefined && from.length > 0) cmd.script_from = dedupeSources(from);
  }
  return cmd;
}

/** The `NAME=value` words a wrapper gives the command it runs (`env A=1 cmd`), added to `env`. */
function chainAssignments(args: readonly ArgWord[], only: CommandRun, env: Map<string, string | null> | undefined): Map<string, string | null> | undefined {
  let chainEnv = env;
  const end = args.indexOf(only.argv[0] as ArgWord);
  for (let i = 1; i < (end < 0 ? args.length : end); i++) {
    const a = args[i] as ArgWord;
    const eq = a.value.indexOf('=');
    if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(a.value.slice(0, eq))) (chainEnv ??= new Map()).set(a.value.slice(0, eq), a.dynamic ? null : a.value.slice(eq + 1));
  }
  return chainEnv;
}

/**
 * The words of the command a runner runs. `curl … | xargs bash -c`: run-time arguments the
 * runner makes up (`$XARGS_ARGS`, `{}`) are read from its standard input, the producers' output.
 */
function runnerArgs(args: readonly ArgWord[], only: CommandRun, stdin: StdinThunk): ArgWord[] {
  const from = only.stdin ? undefined : stdin()?.from;
  if (from === undefined || from.length === 0) return only.argv;
  const before = new Set(args.filter((w) => w.dynamic).map((w) => w.value));
  return only.argv.map((w) => (w.dynamic && !before.has(w.value) ? { ...w, from } : w));
}

const argValue = (a: ArgWord): string => a.value;

/** The command `args` as reported (argv, its run-time words, `~` quoted). */
export function toCommand(prog: string, args: ArgWord[], via: readonly string[], opaque: boolean): ShellCommand {
  // `map` makes an array of the exact size (push would reserve 17 slots).
  const argv = args.length === 0 ? [prog] : args.map(argValue);
  argv[0] = prog;
  const dynamic: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as ArgWord;
    if (a.dynamic || (i === 0 && a.glob)) dynamic.push(i);
  }
  const cmd: ShellCommand = { argv, dynamic, opaque, via: via.length === 0 ? [] : via.slice() };
  for (let i = 1; i < args.length; i++) if ((args[i] as ArgWord).qtilde === true) (cmd.quoted_tilde ??= []).push(i);
  return cmd;
}

/**
 * A walker's starting points (`find DIR… -exec CMD {} ;`, from its data: `runs.exec_options`
 * with a `replace` string, and the `files` it reads): what the replacement words stand for.
 */
export function walkOf(g: ProgramGrammar, args: ArgWord[], prog: string, runs: readonly Run<ArgWord>[]): Walk | undefined {
  const replace = g.runs?.replace;
  if (g.runs?.exec_options === undefined || replace === undefined || replace === '' || !runs.some((r) => r.kind === 'command')) return undefined;
  const files = readWords(args, g, prog, 'all').files;
  return { replace, under: files.map((f) => ({ value: f.word.value, dynamic: f.word.dynamic || f.word.glob })) };
}

/**
 * bash runs an executable file without `#!` as a script of its own unless it looks binary:
 * a NUL among its first 80 bytes before the first newline (bash's check_binary_file).
 */
export function looksBinary(text: string): boolean {
  const head = text.slice(0, 80);
  const nl = head.indexOf('\n');
  return (nl === -1 ? head : head.slice(0, nl)).includes('\0');
}

const sameVia = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
