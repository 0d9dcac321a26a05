/**
 * Walks the syntax tree and reports every simple command that could run: commands nested in
 * expansions, compound bodies and function bodies included, with what programs run read from
 * their data by the one reader (src/grammars: `sudo CMD`, `bash -c TEXT`, `find -exec`,
 * `python -c CODE`, …) and nested scripts (`bash -c`, `eval`, here-documents fed to a shell,
 * script files when a reader is given) analysed recursively within the depth bound.
 */
import { dashedCommand, mayRun, programData, readWords, type Grammars, type Run } from '../grammars/index.ts';
import type { Command, Redir, Script, SimpleCommand, Word } from './ast.ts';
import { scanInlineCode, type InlineLanguage } from './interpreters.ts';
import { Parser } from './parser.ts';
import { type ShellCommand, type ShellLimits, ShellParseError } from './types.ts';
import { type ArgWord, Vars, expandWord, expandWordInto, literalArg, wordText } from './word-value.ts';

/** What a shell would read as its script on standard input. */
export type Stdin =
  | { kind: 'text'; text: string; dynamic: boolean; label: string }
  | { kind: 'file'; path: ArgWord; label: string }
  | { kind: 'unknown'; label: string };

const LANGUAGES: ReadonlySet<string> = new Set<InlineLanguage>(['python', 'node', 'perl', 'ruby', 'php']);

export interface AnalyzeOptions extends ShellLimits {
  /** Structural nesting (compound commands, expansions) accepted. */
  maxNesting: number;
  /** Script files read through `readScript` per analysis. */
  maxScripts: number;
  /** Returns a local script's text, or null (missing, not a regular file, too large). */
  readScript?: ((path: string) => string | null) | undefined;
  /** What programs run and how they read their command line (builtin data plus packs'). */
  programs: Grammars;
}

interface Ctx {
  via: readonly string[];
  depth: number;
  vars: Vars;
  /** Inside a branch, loop, background job or after `&&`/`||`: assignments may not happen. */
  cond: boolean;
  /** What a command here reads on standard input, when known (computed only when asked). */
  stdin: StdinThunk;
}

type StdinThunk = () => Stdin | null;
const NO_STDIN: StdinThunk = () => null;

/**
 * A context with the same shape every time. Measured: object spreads (`{ ...ctx, cond: true }`)
 * were a visible share of the walk's time and allocation; a plain constructor call is not.
 */
const mkCtx = (via: readonly string[], depth: number, vars: Vars, cond: boolean, stdin: StdinThunk): Ctx => ({
  via,
  depth,
  vars,
  cond,
  stdin,
});

function memo(f: StdinThunk): StdinThunk {
  let done = false;
  let v: Stdin | null = null;
  return () => {
    if (!done) {
      v = f();
      done = true;
    }
    return v;
  };
}

const ASSIGNING_BUILTINS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const READING_BUILTINS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'unset', 'let']);
const SHEBANG_SHELL = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|mk|a|y|po)?sh\b/;

export function basename(path: string): string {
  if (!path.includes('/')) return path;
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const i = trimmed.lastIndexOf('/');
  return i === -1 ? trimmed : trimmed.slice(i + 1);
}

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export class Analyzer {
  readonly out: ShellCommand[] = [];
  private scriptsRead = 0;

  constructor(private readonly opts: AnalyzeOptions) {}

  /** Parses `text` (nested at `depth`) and reports its commands. */
  analyzeText(text: string, base: number, depth: number, via: readonly string[], vars: Vars, stdin: Stdin | null): void {
    if (depth > this.opts.maxDepth) {
      throw new ShellParseError('too_deep', `scripts nested deeper than ${this.opts.maxDepth} levels`, base);
    }
    const budget = { maxDepth: this.opts.maxDepth, maxNesting: this.opts.maxNesting, nesting: 0 };
    const script = Parser.parse(text, base, budget, depth);
    this.script(script, mkCtx(via, depth, vars, false, stdin === null ? NO_STDIN : () => stdin));
  }

  // ---- tree walk ----------------------------------------------------------------------------

  private script(s: Script, ctx: Ctx): void {
    for (const item of s.items) {
      const c = item.async ? mkCtx(ctx.via, ctx.depth, ctx.vars.child(), true, ctx.stdin) : ctx;
      // Pipelines after `&&`/`||` run conditionally (same variables; made once, when needed).
      let after: Ctx | null = c.cond ? c : null;
      let i = 0;
      for (const p of item.andOr.pipelines) {
        const pc = i++ === 0 ? c : (after ??= mkCtx(c.via, c.depth, c.vars, true, c.stdin));
        const timed = p.time ? mkCtx([...pc.via, 'time'], pc.depth, pc.vars, pc.cond, pc.stdin) : pc;
        const cmds = p.commands;
        if (cmds.length === 1) {
          this.command(cmds[0] as Command, timed);
          continue;
        }
        let prev: Command | undefined;
        for (const cmd of cmds) {
          const stage = mkCtx(timed.via, timed.depth, timed.vars.child(), timed.cond, timed.stdin);
          const from = prev;
          if (from !== undefined) stage.stdin = memo(() => this.pipeStdin(from, timed.vars));
          this.command(cmd, stage);
          prev = cmd;
        }
      }
    }
  }

  private command(c: Command, ctx: Ctx): void {
    if (c.type === 'function') {
      this.command(c.body, mkCtx(ctx.via, ctx.depth, ctx.vars.child(), true, ctx.stdin));
      return;
    }
    if (c.type === 'simple') {
      this.simple(c, ctx);
      return;
    }
    this.redirSubs(c.redirs, ctx);
    for (const w of c.words) this.wordSubs(w, ctx);
    const stdin = this.stdinOf(c.redirs, ctx);
    let inner: Ctx;
    if (c.kind === 'subshell') inner = mkCtx(ctx.via, ctx.depth, ctx.vars.child(), ctx.cond, stdin);
    else if (c.kind === 'coproc') inner = mkCtx([...ctx.via, 'coproc'], ctx.depth, ctx.vars.child(), true, NO_STDIN);
    else if (c.kind === 'group') inner = mkCtx(ctx.via, ctx.depth, ctx.vars, ctx.cond, stdin);
    else inner = mkCtx(ctx.via, ctx.depth, ctx.vars, true, stdin);
    if (c.name !== undefined) ctx.vars.set(c.name, null);
    for (const b of c.bodies) this.script(b, inner);
  }

  private wordSubs(w: Word, ctx: Ctx): void {
    for (const p of w.parts) {
      if (p.type !== 'dyn') continue;
      for (const sub of p.subs) {
        this.script(sub.body, mkCtx([...ctx.via, sub.label], ctx.depth + 1, ctx.vars.child(), ctx.cond, NO_STDIN));
      }
    }
  }

  private redirSubs(redirs: Redir[], ctx: Ctx): void {
    for (const r of redirs) {
      if (r.target !== null && r.heredoc === null) this.wordSubs(r.target, ctx);
      if (r.heredoc?.body != null) this.wordSubs(r.heredoc.body, ctx);
    }
  }

  private simple(cmd: SimpleCommand, ctx: Ctx): void {
    for (const a of cmd.assigns) {
      if (a.index !== null) this.wordSubs(a.index, ctx);
      if (a.value !== null) this.wordSubs(a.value, ctx);
      if (a.array !== null) for (const w of a.array) this.wordSubs(w, ctx);
    }
    for (const w of cmd.words) this.wordSubs(w, ctx);
    this.redirSubs(cmd.redirs, ctx);

    if (cmd.words.length === 0) {
      for (const a of cmd.assigns) {
        const v = a.value === null || a.index !== null ? null : wordText(a.value);
        const known = v !== null && !v.dynamic && !ctx.cond ? v.value : null;
        ctx.vars.set(a.name, known);
      }
      return;
    }
    const args: ArgWord[] = [];
    for (const w of cmd.words) expandWordInto(w, ctx.vars, args);
    this.unwrap(args, ctx.via, this.stdinOf(cmd.redirs, ctx), ctx);
    this.varEffects(args, ctx);
  }

  /** Variables a command sets: `export x=git` (known), `read x` (unknown). */
  private varEffects(args: ArgWord[], ctx: Ctx): void {
    const prog = args[0] !== undefined && !args[0].dynamic ? basename(args[0].value) : '';
    if (ASSIGNING_BUILTINS.has(prog)) {
      for (const w of args.slice(1)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)([\s\S]*)$/.exec(w.value);
        if (m?.[1] === undefined) continue;
        const known = !w.dynamic && !ctx.cond && m[2] === '=' && !(m[3] ?? '').startsWith('(');
        ctx.vars.set(m[1], known ? (m[3] ?? '') : null);
      }
    } else if (READING_BUILTINS.has(prog)) {
      for (const w of args.slice(1)) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(w.value);
        if (m?.[1] !== undefined) ctx.vars.set(m[1], null);
      }
    }
  }

  // ---- standard input -----------------------------------------------------------------------

  private stdinOf(redirs: Redir[], ctx: Ctx): StdinThunk {
    // Output redirections (`2>&1`, `> log`) leave standard input alone: no thunk to make.
    if (!redirs.some(readsStdin)) return ctx.stdin;
    return memo(() => this.redirStdin(redirs, ctx.vars) ?? ctx.stdin());
  }

  private redirStdin(redirs: Redir[], vars: Vars): Stdin | null {
    let stdin: Stdin | null = null;
    for (const r of redirs) {
      if (!readsStdin(r)) continue;
      if (r.heredoc !== null) {
        const body = r.heredoc.body === null ? { value: r.heredoc.text, dynamic: false } : wordText(r.heredoc.body);
        stdin = { kind: 'text', text: body.value, dynamic: body.dynamic, label: '% <<' };
      } else if (r.op === '<<<' && r.target !== null) {
        const ws = expandWord(r.target, vars, false);
        const text = ws.map((w) => w.value).join(' ') + '\n';
        stdin = { kind: 'text', text, dynamic: ws.some((w) => w.dynamic), label: '% <<<' };
      } else if (r.op === '<' && r.target !== null) {
        const ws = expandWord(r.target, vars, false);
        const path = ws[0];
        stdin = ws.length === 1 && path !== undefined && !path.dynamic ? { kind: 'file', path, label: '% <' } : { kind: 'unknown', label: '% <' };
      }
    }
    return stdin;
  }

  /** Output of the previous pipeline stage when it is plainly literal (echo, printf, cat <<EOF). */
  private pipeStdin(prev: Command, vars: Vars): Stdin {
    const unknown: Stdin = { kind: 'unknown', label: '| %' };
    if (prev.type !== 'simple' || prev.words.length === 0) return unknown;
    const words: ArgWord[] = [];
    for (const w of prev.words) expandWordInto(w, vars, words);
    // Through wrappers: `timeout 5 echo 'git push' | sh` pipes what echo prints.
    const args = this.innermost(words);
    const prog = args[0] !== undefined && !args[0].dynamic ? basename(args[0].value) : '';
    const dynamic = args.some((a) => a.dynamic);
    if (prog === 'echo') {
      let i = 1;
      let newline = true;
      let escapes = false;
      while (i < args.length && /^-[neE]+$/.test(args[i]?.value ?? '')) {
        const f = args[i]?.value ?? '';
        if (f.includes('n')) newline = false;
        if (f.includes('e')) escapes = true;
        if (f.includes('E')) escapes = false;
        i++;
      }
      let text = args.slice(i).map((a) => a.value).join(' ');
      if (escapes) text = decodeEchoEscapes(text);
      return { kind: 'text', text: newline ? text + '\n' : text, dynamic, label: '| %' };
    }
    if (prog === 'printf' && args.length >= 2 && args[1]?.value !== '-v') {
      const text = simplePrintf(args[1]?.value ?? '', args.slice(2).map((a) => a.value));
      return text === null ? unknown : { kind: 'text', text, dynamic, label: '| %' };
    }
    if (prog === 'cat' && args.length === 1) {
      const s = this.redirStdin(prev.redirs, vars);
      if (s?.kind === 'text') return { ...s, label: '| %' };
    }
    return unknown;
  }

  /** The command a chain of wrappers runs (`nice timeout 5 echo x` → `echo x`), read with the program data. */
  private innermost(argsIn: ArgWord[]): ArgWord[] {
    let args = argsIn;
    for (let guard = 0; guard < 16; guard++) {
      const w0 = args[0];
      if (w0 === undefined || w0.dynamic || w0.glob) return args;
      const prog = basename(w0.value);
      const data = programData(prog, this.opts.programs);
      if (data === undefined || !mayRun(data.grammar, args)) return args;
      const r = readWords(args, data.grammar, prog, 'runs');
      const only = r.unknown === null && r.runs.length === 1 && !r.self ? r.runs[0] : undefined;
      if (only?.kind !== 'command') return args;
      args = only.argv;
    }
    return args;
  }

  // ---- unwrapping ---------------------------------------------------------------------------

  /** Reports the command `argsIn` and what it runs, read with its program's data. */
  unwrap(argsIn: ArgWord[], viaIn: readonly string[], stdinIn: StdinThunk, ctx: Ctx): void {
    let args = argsIn;
    let via = viaIn;
    let stdin = stdinIn;
    const programs = this.opts.programs;
    // A chain of wrappers (`sudo nice env CMD`) is followed in this loop, not by recursion.
    for (let guard = 0; guard < 64; guard++) {
      const w0 = args[0];
      if (w0 === undefined) return;
      if (w0.dynamic || w0.glob) {
        this.out.push(toCommand(w0.value, args, via, true));
        return;
      }
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
      if (data === undefined || !mayRun(data.grammar, args)) {
        this.out.push(toCommand(prog, args, via, false));
        if (w0.value.includes('/')) this.file(w0, w0.value, true, via, ctx);
        return;
      }
      const r = readWords(args, data.grammar, prog, 'runs');
      if (r.unknown !== null) {
        this.out.push(toCommand(prog, args, via, true));
        return;
      }
      const only = r.runs.length === 1 && !r.self ? r.runs[0] : undefined;
      if (only?.kind === 'command') {
        via = [...via, only.label];
        args = only.argv;
        if (!only.stdin) stdin = NO_STDIN;
        continue;
      }
      for (const run of r.runs) this.run(run, prog, via, stdin, ctx);
      if (r.self) this.out.push(toCommand(prog, args, via, false));
      return;
    }
    this.out.push(toCommand(args[0]?.value ?? '', args, via, true));
  }

  /** One thing a command runs (the reader's `runs`). */
  private run(run: Run<ArgWord>, prog: string, via: readonly string[], stdin: StdinThunk, ctx: Ctx): void {
    switch (run.kind) {
      case 'command':
        this.unwrap(run.argv, [...via, run.label], run.stdin ? stdin : NO_STDIN, ctx);
        return;
      case 'shell':
        // run.args: the words after the text ($0, $1, …), for positional parameters. The text's
        // commands read the program's standard input (`npx -c sh <<EOF … EOF`).
        this.nestedScript(run.text, run.label, via, ctx, stdin());
        return;
      case 'script':
        this.file(run.path, run.label, false, via, ctx);
        return;
      case 'stdin_script':
        this.stdinScript(prog, via, stdin(), ctx);
        return;
      case 'code':
        this.inlineCode(run.code.value, run.code.dynamic, run.language, run.label, via, ctx, run.code.start);
        return;
      case 'stdin_code': {
        const s = stdin();
        if (s?.kind === 'text') this.inlineCode(s.text, s.dynamic, run.language, s.label.replace('%', prog), via, ctx, 0);
        return;
      }
    }
  }

  /** A shell reading its script from standard input. */
  private stdinScript(prog: string, via: readonly string[], s: Stdin | null, ctx: Ctx): void {
    if (s === null) return;
    const label = s.label.replace('%', prog);
    if (s.kind === 'text') this.nestedScript({ value: s.text, dynamic: s.dynamic, glob: false, start: 0 }, label, via, ctx);
    else if (s.kind === 'file') this.file(s.path, label, false, via, ctx);
    else this.out.push({ argv: [prog], dynamic: [0], opaque: true, via: [...via, label] });
  }

  /** Code given to an interpreter: the commands it plainly runs (interpreters.ts). */
  private inlineCode(code: string, dynamic: boolean, language: string, label: string, via: readonly string[], ctx: Ctx, start: number): void {
    const nestedVia = [...via, label];
    if (dynamic || !LANGUAGES.has(language)) {
      this.out.push({ argv: [code], dynamic: [0], opaque: true, via: nestedVia });
      return;
    }
    for (const call of scanInlineCode(code, language as InlineLanguage)) {
      if (call.kind === 'shell') this.nestedScript(literalArg(call.text, start), label, via, ctx);
      else if (call.kind === 'argv') this.unwrap(call.argv.map((a) => literalArg(a, start)), nestedVia, NO_STDIN, ctx);
      else this.out.push({ argv: [call.text], dynamic: [0], opaque: true, via: nestedVia });
    }
  }

  /** Analyses shell text a command runs; its commands read the standard input given (the command's own). */
  nestedScript(text: ArgWord, label: string, via: readonly string[], ctx: Ctx, stdin: Stdin | null = null): void {
    const nestedVia = [...via, label];
    const depth = ctx.depth + 1;
    if (depth > this.opts.maxDepth) {
      throw new ShellParseError('too_deep', `scripts nested deeper than ${this.opts.maxDepth} levels`, text.start);
    }
    const vars = label === 'eval' ? ctx.vars : new Vars();
    if (!text.dynamic) {
      this.analyzeText(text.value, text.start, depth, nestedVia, vars, stdin);
      return;
    }
    // Run-time script text: what runs cannot be known; report it, then what the visible text shows.
    const whole: ShellCommand = { argv: [text.value.replace(/\n+$/, '')], dynamic: [0], opaque: true, via: nestedVia };
    this.out.push(whole);
    const mark = this.out.length;
    try {
      this.analyzeText(text.value, text.start, depth, nestedVia, vars, null);
    } catch (e) {
      if (!(e instanceof ShellParseError) || e.code === 'too_deep' || e.code === 'too_large') throw e;
      this.out.length = mark;
    }
    // `eval "$x"` shows `$x` again: keep one.
    const key = JSON.stringify(whole);
    for (let i = this.out.length - 1; i >= mark; i--) if (JSON.stringify(this.out[i]) === key) this.out.splice(i, 1);
  }

  file(path: ArgWord, label: string, requireShebang: boolean, via: readonly string[], ctx: Ctx): void {
    const read = this.opts.readScript;
    if (read === undefined || path.dynamic || path.glob) return;
    const nestedVia = [...via, label];
    if (this.scriptsRead >= this.opts.maxScripts) {
      this.out.push({ argv: [path.value], dynamic: [], opaque: true, via: nestedVia });
      return;
    }
    this.scriptsRead++;
    const text = read(path.value);
    if (text === null) return;
    if (requireShebang && !SHEBANG_SHELL.test(text)) return;
    if (utf8Length(text) > this.opts.maxBytes) {
      this.out.push({ argv: [path.value], dynamic: [], opaque: true, via: nestedVia });
      return;
    }
    const depth = ctx.depth + 1;
    if (depth > this.opts.maxDepth) {
      throw new ShellParseError('too_deep', `scripts nested deeper than ${this.opts.maxDepth} levels`, path.start);
    }
    const mark = this.out.length;
    try {
      this.analyzeText(text, 0, depth, nestedVia, new Vars(), null);
    } catch (e) {
      if (!(e instanceof ShellParseError)) throw e;
      if (e.code === 'too_deep' || e.code === 'too_large') {
        throw new ShellParseError(e.code, `${path.value}: ${e.message}`, path.start);
      }
      // bash runs a script up to its syntax error; what runs there cannot be listed reliably.
      this.out.length = mark;
      this.out.push({ argv: [path.value], dynamic: [], opaque: true, via: nestedVia });
    }
  }
}

const argValue = (a: ArgWord): string => a.value;

/** A redirection redirStdin looks at: `<`, `<<<` or a here-document on fd 0. */
const readsStdin = (r: Redir): boolean => (r.fd === '' || r.fd === '0') && (r.heredoc !== null || r.op === '<<<' || r.op === '<');

function toCommand(prog: string, args: ArgWord[], via: readonly string[], opaque: boolean): ShellCommand {
  // `map` makes an array of the exact size (push would reserve 17 slots).
  const argv = args.length === 0 ? [prog] : args.map(argValue);
  argv[0] = prog;
  const dynamic: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as ArgWord;
    if (a.dynamic || (i === 0 && a.glob)) dynamic.push(i);
  }
  return { argv, dynamic, opaque, via: via.length === 0 ? [] : via.slice() };
}

function decodeEchoEscapes(s: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v', e: '\x1b' };
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s.charAt(i + 1);
    if (n === 'c') return out;
    const m = map[n];
    if (m !== undefined) {
      out += m;
      i++;
    } else if (n === '0' || n === 'x') {
      const re = n === '0' ? /^0([0-7]{0,3})/ : /^x([0-9a-fA-F]{1,2})/;
      const mm = re.exec(s.slice(i + 1));
      if (mm === null) {
        out += c;
        continue;
      }
      out += String.fromCharCode(parseInt(mm[1] === '' ? '0' : (mm[1] ?? '0'), n === '0' ? 8 : 16));
      i += mm[0].length;
    } else out += c;
  }
  return out;
}

/** printf with only `%s`, `%b`, `%%` and backslash escapes; null for anything else. */
function simplePrintf(fmt: string, args: string[]): string | null {
  if (/%[^sb%]/.test(fmt.replace(/%%/g, ''))) return null;
  const conversions = (fmt.match(/%[sb]/g) ?? []).length;
  let out = '';
  let k = 0;
  do {
    out += decodeEchoEscapes(
      fmt.replace(/%%|%[sb]/g, (m) => {
        if (m === '%%') return '%';
        const a = args[k++] ?? '';
        return m === '%b' ? a : a.replace(/\\/g, '\\\\');
      }),
    );
  } while (conversions > 0 && k < args.length);
  return out;
}
