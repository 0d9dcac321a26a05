/**
 * Standard input and redirections: what a command reads on standard input (`<`, `<<<`, a
 * here-document, the previous pipeline stage, `< <(…)`), what a producer prints to its standard
 * output when that is plainly known (`echo …`, `printf …`, `cat <<EOF`, `{ …; }`, `$(…)`), and the
 * files a command's redirections name.
 */
import type { Command, Redir, Script, Word } from './ast.ts';
import { printed } from './builtins.ts';
import { type Ctx, NO_STDIN, type Output, type Stdin, type StdinThunk, type Walker, basename, memo } from './context.ts';
import { type Provenance, withSources } from './provenance.ts';
import type { PathWord, RedirFile } from './types.ts';
import { type ArgWord, type Vars, expandWord, wordText } from './word-value.ts';

/** Redirections of standard output away from the pipe (`> f`, `>&2`, `&> f`). */
const STDOUT_AWAY = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);
const EMPTY_WORD: Word = { parts: [], start: 0, end: 0 };

/** A redirection redirStdin looks at: `<`, `<<<` or a here-document on fd 0. */
export const readsStdin = (r: Redir): boolean => (r.fd === '' || r.fd === '0') && (r.heredoc !== null || r.op === '<<<' || r.op === '<');

/** A producer's output as what a command reading it gets (`label`: how, `%` for the reader). */
export function outputStdin(out: Output, label: string): Stdin {
  if (out === null) return { kind: 'unknown', label };
  if ('file' in out) return { kind: 'file', path: out.file, label };
  return { kind: 'text', text: out.text, dynamic: out.dynamic, label };
}

export class StdinReader {
  constructor(
    private readonly w: Walker,
    private readonly prov: Provenance,
  ) {}

  /** What a command with `redirs` reads in `ctx`: its own redirections first, else the context's. */
  stdinOf(redirs: Redir[], ctx: Ctx): StdinThunk {
    // Output redirections (`2>&1`, `> log`) leave standard input alone: no thunk to make.
    if (!redirs.some(readsStdin)) return ctx.stdin;
    return memo(() => this.redirStdin(redirs, ctx.vars) ?? ctx.stdin());
  }

  redirStdin(redirs: Redir[], vars: Vars): Stdin | null {
    return this.redirIn(redirs, vars, '% <');
  }

  /** Standard input from `redirs` (the last one reading it wins); null when none reads it. */
  redirIn(redirs: Redir[], vars: Vars, fileLabel: string): Stdin | null {
    let stdin: Stdin | null = null;
    for (const r of redirs) {
      if (!readsStdin(r)) continue;
      if (r.heredoc !== null) {
        const body = r.heredoc.body === null ? { value: r.heredoc.text, dynamic: false } : wordText(r.heredoc.body);
        stdin = { kind: 'text', text: body.value, dynamic: body.dynamic, label: '% <<' };
        if (body.dynamic && r.heredoc.body !== null) stdin = withSources(stdin, this.prov.wordProducers(r.heredoc.body), 'substitution');
      } else if (r.op === '<<<' && r.target !== null) {
        const ws: ArgWord[] = [];
        this.w.expand(r.target, vars, ws, false);
        const text = ws.map((w) => w.value).join(' ') + '\n';
        stdin = { kind: 'text', text, dynamic: ws.some((w) => w.dynamic), label: '% <<<' };
        if (stdin.dynamic) stdin = withSources(stdin, this.prov.wordProducers(r.target), 'substitution');
      } else if (r.op === '<' && r.target !== null) {
        stdin = this.fromFile(r.target, vars, fileLabel);
      }
    }
    return stdin;
  }

  /** `< FILE`, `< <(…)`: the file, or the process substitution's output. */
  private fromFile(target: Word, vars: Vars, fileLabel: string): Stdin {
    const ws: ArgWord[] = [];
    this.w.expand(target, vars, ws, false);
    const path = ws[0];
    if (ws.length === 1 && path?.procSub !== undefined) {
      // `sh < <(echo …)`: the process substitution's output.
      return withSources(outputStdin(this.scriptOutput(path.procSub, vars, 0), '% < <(…)'), this.prov.subOut?.get(path.procSub) ?? [], 'substitution');
    }
    return ws.length === 1 && path !== undefined && !path.dynamic ? { kind: 'file', path, label: fileLabel } : { kind: 'unknown', label: fileLabel };
  }

  /** Output of the previous pipeline stage when it is plainly literal (echo, printf, cat <<EOF, { …; }). */
  pipeStdin(prev: Command, vars: Vars, prevIn: StdinThunk): Stdin {
    return outputStdin(this.commandOutput(prev, vars, prevIn, 0), '| %');
  }

  /**
   * What a list of commands writes to standard output, when every part is known: outputs joined
   * in order. A part that is not known makes the whole run-time (dynamic) text, with the known
   * parts kept (so what they plainly show is still analysed); nothing known at all: null.
   */
  scriptOutput(s: Script, vars: Vars, level: number): Output {
    let text = '';
    let dynamic = false;
    let known = 0;
    let only: Output = null;
    let parts = 0;
    for (const item of s.items) {
      for (const p of item.andOr.pipelines) {
        const cmds = p.commands;
        const last = cmds[cmds.length - 1];
        // The last stage writes the pipeline's output; earlier stages feed it.
        const prevIn: StdinThunk = cmds.length > 1 ? () => this.pipeStdin(cmds[cmds.length - 2] as Command, vars, NO_STDIN) : NO_STDIN;
        const out = last === undefined || item.async ? null : this.commandOutput(last, vars, prevIn, level + 1);
        parts++;
        only = out;
        if (out === null || 'file' in out) {
          dynamic = true;
          text += '\n';
          continue;
        }
        known++;
        text += out.text;
        if (out.dynamic) dynamic = true;
      }
    }
    if (parts === 1) return only;
    return known === 0 && dynamic ? null : { text, dynamic };
  }

  /** What one command writes to standard output, when known (`stdin`: what it reads). */
  commandOutput(c: Command, vars: Vars, stdin: StdinThunk, level: number): Output {
    if (level > 8) return null;
    if (c.type === 'function') return { text: '', dynamic: false };
    if (c.redirs.some((r) => (r.fd === '' || r.fd === '1') && STDOUT_AWAY.has(r.op) && !(r.op === '>&' && wordText(r.target ?? EMPTY_WORD).value === '1'))) {
      return { text: '', dynamic: false };
    }
    if (c.type === 'compound') {
      const body = c.bodies[0];
      if ((c.kind !== 'group' && c.kind !== 'subshell') || body === undefined) return null;
      return this.scriptOutput(body, c.kind === 'subshell' ? vars.child() : vars, level);
    }
    if (c.words.length === 0) {
      // `$(< FILE)`: bash's way of writing `$(cat FILE)`; a redirection alone prints nothing.
      const only = c.redirs.length === 1 ? c.redirs[0] : undefined;
      if (only?.op === '<' && (only.fd === '' || only.fd === '0') && level === 1) {
        const s = this.redirStdin(c.redirs, vars);
        if (s?.kind === 'file' && this.w.opts.readScript !== undefined) return { file: s.path };
        return null;
      }
      return { text: '', dynamic: false };
    }
    const words: ArgWord[] = [];
    for (const w of c.words) this.w.expand(w, vars, words);
    // Through wrappers: `timeout 5 echo 'git push' | sh` pipes what echo prints.
    const args = this.w.innermost(words);
    const prog = args[0] !== undefined && !args[0].dynamic ? basename(args[0].value) : '';
    return printed(prog, args, this.w.opts.readScript !== undefined, () => this.redirStdin(c.redirs, vars) ?? stdin()) ?? null;
  }
}

const WRITES: ReadonlySet<string> = new Set(['>', '>>', '>|', '&>', '&>>']);

/** The files `redirs` name (`> f`, `< f`, …); null when none. Duplications (`2>&1`) are not files. */
export function redirFiles(redirs: readonly Redir[], vars: Vars): RedirFile[] | null {
  let out: RedirFile[] | null = null;
  for (const r of redirs) {
    if (r.target === null || r.heredoc !== null) continue;
    // `< <(cmd)`, `> >(cmd)`: a pipe to a command, not a file.
    if (r.target.parts.length === 1 && r.target.parts[0]?.type === 'dyn' && r.target.parts[0].kind === 'procsub') continue;
    const access = accessOf(r);
    if (access === null) continue;
    const ws = expandWord(r.target, vars, false);
    const w = ws[0];
    if (access === 'write' && r.op === '>&' && w !== undefined && !w.dynamic && /^(?:\d+|-)$/.test(w.value)) continue;
    const word: PathWord = ws.length === 1 && w !== undefined ? { value: w.value, dynamic: w.dynamic || w.glob } : { value: ws.map((x) => x.value).join(' '), dynamic: true };
    const push = (a: 'read' | 'write'): void => {
      (out ??= []).push(w?.qtilde === true ? { ...word, access: a, quoted_tilde: true } : { ...word, access: a });
    };
    if (access === 'both') {
      push('read');
      push('write');
    } else push(access);
  }
  return out;
}

/** How a redirection uses the file it names; null: it names none. */
function accessOf(r: Redir): 'read' | 'write' | 'both' | null {
  if (WRITES.has(r.op)) return 'write';
  if (r.op === '<') return 'read';
  if (r.op === '<>') return 'both';
  if (r.op === '>&' && r.fd === '') return 'write';
  return null;
}
