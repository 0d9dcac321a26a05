/**
 * Word-level lexing shared by the parser: quotes, escapes, `$…` expansions, backticks,
 * process substitution, here-document bodies. Grammar (lists, compound commands) lives in
 * parser.ts, which extends this class and supplies the nested-list parsers.
 */
import type { DynPart, Heredoc, Part, Script, Sub, Word } from './ast.ts';
import { decodeAnsiC } from './ansi-c.ts';
import { ShellParseError, type ShellParseErrorCode } from './types.ts';
import { PARSE_COST, SUBST_COST, type WorkBudget } from './work.ts';

/** Limits and counters shared by every parser working on one analysis. */
export interface Budget {
  maxDepth: number;
  maxNesting: number;
  /** Current structural nesting across all parsers (compound commands, expansions). */
  nesting: number;
  /** The analysis's work budget: every parser charges the text it reads (work.ts). */
  work?: WorkBudget;
}

/**
 * Character classes by UTF-16 code (ASCII only; everything else is plain word text).
 * Measured: a table lookup per character instead of a regex or `String.includes` call made the
 * lexer about a third faster on typical one-liners.
 */
export const META_C = 1; // ends an unquoted word: blank, newline, ; & | ( ) < >
export const SPECIAL_C = 2; // needs the slow path inside an unquoted word: META plus \ ' " $ `
export const NAME_START_C = 4; // [A-Za-z_]
export const NAME_C = 8; // [A-Za-z0-9_]
/**
 * The class bits of each ASCII code, written out: building the table with loops at start-up was
 * a measurable part of a hook's module initialisation. lexer.test.ts derives the same table
 * from the rules: meta (and special) for blank, tab, newline and ; & | ( ) < >; special for
 * \ ' " $ `; name for [0-9]; name start and name for [A-Za-z_].
 */
// prettier-ignore
export const CLASS: Readonly<Uint8Array> = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  3, 0, 2, 0, 2, 0, 3, 2, 3, 3, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 0, 3, 3, 0, 3, 0,
  0, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 0, 2, 0, 0, 12,
  2, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 0, 3, 0, 0, 0,
]);
/** Class bits of a charCodeAt result (0 past ASCII and for NaN; never an out-of-range read). */
const cls = (c: number): number => (c < 128 ? (CLASS[c] ?? 0) : 0);
/** `c` is a charCodeAt result; NaN (the end of the text) ends a word too. */
export const isMetaCode = (c: number): boolean => c !== c || (cls(c) & META_C) !== 0;
export const isNameStartCode = (c: number): boolean => (cls(c) & NAME_START_C) !== 0;
export const isNameCode = (c: number): boolean => (cls(c) & NAME_C) !== 0;
/** `c` is one character or '' (the end). */
export const isMeta = (c: string): boolean => isMetaCode(c.charCodeAt(0));
/** Needs the slow path inside an unquoted word (NaN = the end: also stops the fast scan). */
const isWordSpecialCode = (c: number): boolean => c !== c || (cls(c) & SPECIAL_C) !== 0;
const SPECIAL_PARAMS = '@*#?-$!0123456789';

type Ctx = 'unquoted' | 'dq' | 'heredoc';

/** Collects the parts of one word, merging adjacent literals of the same quoting. */
export class PartsBuilder {
  readonly parts: Part[] = [];
  lit(text: string, quoted: boolean): void {
    const last = this.parts[this.parts.length - 1];
    if (last !== undefined && last.type === 'lit' && last.quoted === quoted && text !== '') {
      last.text += text;
    } else {
      this.parts.push({ type: 'lit', text, quoted });
    }
  }
  dyn(part: DynPart): void {
    this.parts.push(part);
  }
}

export abstract class Lexer {
  pos = 0;
  /** Command-running nesting (substitutions, `bash -c`, `eval`) of the current point. */
  depth: number;
  /** Offsets where `$((` / `((` turned out not to be arithmetic (memo: no exponential retry). */
  protected arithFail: Set<number> | null = null; // made on first use
  /** Open `$(`/`<(` in this source: lets a here-document delimiter line end in `)`. */
  protected openSubs = 0;
  /** Here-documents whose operator was read but whose body starts after the next newline. */
  protected readonly pending: Heredoc[] = [];

  constructor(
    readonly src: string,
    /** Offset of `src` inside the text given to analysis (for error offsets). */
    readonly base: number,
    readonly budget: Budget,
    depth: number,
  ) {
    this.depth = depth;
    // Every text parsed is charged once: the line, and each text parsed again (backtick bodies,
    // here-document bodies, `bash -c`/`eval` arguments, script files).
    budget.work?.charge(PARSE_COST * (src.length + 1), 'shell text to parse', base);
  }

  /** Parses a command list up to (not including) `)`. */
  protected abstract parseListUntilParen(): Script;
  /** Parses a command list up to (not including) the reserved word `}`. */
  protected abstract parseListUntilBrace(): Script;
  /** Parses a whole separate source (backtick body) at the current depth. */
  protected abstract parseNestedSource(text: string, base: number): Script;
  /** A lexer over another text (a here-document body) at the current depth. */
  protected abstract child(text: string, base: number): Lexer;

  ch(i: number = this.pos): string {
    return this.src.charAt(i);
  }

  fail(code: ShellParseErrorCode, message: string, at: number = this.pos): never {
    throw new ShellParseError(code, message, this.base + Math.min(at, this.src.length));
  }

  protected enterNesting(at: number): void {
    if (++this.budget.nesting > this.budget.maxNesting) {
      this.fail('too_deep', `nesting deeper than ${this.budget.maxNesting} levels`, at);
    }
  }

  protected leaveNesting(): void {
    this.budget.nesting--;
  }

  protected enterDepth(at: number): void {
    // A nested command list costs far more than its characters (lists, contexts, `via`).
    this.budget.work?.charge(SUBST_COST, 'command substitutions', this.base + at);
    this.depth++;
    if (this.depth > this.budget.maxDepth) {
      this.fail('too_deep', `substitutions nested deeper than ${this.budget.maxDepth} levels`, at);
    }
    this.enterNesting(at);
  }

  protected leaveDepth(): void {
    this.depth--;
    this.leaveNesting();
  }

  /** Skips blanks and backslash-newline continuations (not newlines). */
  skipBlanks(): void {
    const src = this.src;
    for (;;) {
      const c = src.charCodeAt(this.pos);
      if (c === 32 || c === 9) this.pos++;
      else if (c === 92 /* \\ */ && src.charCodeAt(this.pos + 1) === 10) this.pos += 2;
      else return;
    }
  }

  /**
   * The first position at or after `i` that is not a line continuation (backslash-newline).
   * bash removes continuations before it tokenises, except inside single quotes, `$'…'`,
   * comments and quoted here-documents; callers use this wherever two characters form one
   * token (`$(`, `${`, `$name`, `$((`, `<(`, `((`).
   */
  cont(i: number): number {
    const src = this.src;
    let j = i;
    while (src.charCodeAt(j) === 92 /* \\ */ && src.charCodeAt(j + 1) === 10) j += 2;
    return j;
  }

  /** A process substitution `<(`/`>(` starts at `i` (line continuations may sit inside it). */
  procSubAt(i: number): boolean {
    const c = this.src.charCodeAt(i);
    return (c === 60 || c === 62) && this.src.charCodeAt(this.cont(i + 1)) === 40;
  }

  /** At `#` starting a word: skips to the end of the line (the newline stays). */
  skipComment(): void {
    if (this.ch() !== '#') return;
    const nl = this.src.indexOf('\n', this.pos);
    this.pos = nl === -1 ? this.src.length : nl;
  }

  /**
   * Reads one word at the current position, or returns null when a metacharacter, a comment
   * or the end is there. Modes: `regex` = the right side of `=~` inside `[[ ]]`, where `(…)` and
   * `|` are word text; `cond` = other `[[ ]]` operands, where extglob groups `@(…)` are word
   * text; `mid` = the rest of a word already started (an assignment value: `#` is not a comment).
   */
  readWord(mode: 'normal' | 'regex' | 'cond' | 'mid' = 'normal'): Word | null {
    const start = this.pos;
    const src = this.src;
    if (mode !== 'mid' && src.charCodeAt(start) === 35 /* # */) return null;
    // Fast path for the common word of plain unquoted characters (`git`, `--force`, `src/`) or
    // one plain quoted string (`"wip"`, `'*.ts'`): one slice, no builder, the same parts the
    // loop below would make. Measured: most words of typical commands take it, and it halves
    // the lexer's allocation. `cond` reads character by character (extglob), `regex` treats
    // `(` and `|` as text, so both take the general loop.
    if (mode === 'normal' || mode === 'mid') {
      const q = src.charCodeAt(start);
      if (q === 39 /* ' */) {
        const j = src.indexOf("'", start + 1);
        if (j !== -1 && this.endsWord(j + 1)) return this.literalWord(start, start + 1, j, j + 1, true);
      } else if (q === 34 /* " */) {
        // Only a closing `"` (no \ $ ` inside) keeps the fast path.
        const j = this.dqTextEnd(start + 1);
        if (src.charCodeAt(j) === 34 && this.endsWord(j + 1)) return this.literalWord(start, start + 1, j, j + 1, true);
      } else {
        let j = start;
        while (!isWordSpecialCode(src.charCodeAt(j))) j++;
        if (j > start && this.endsWord(j)) return this.literalWord(start, start, j, j, false);
      }
    }
    const b = new PartsBuilder();
    const regex = mode === 'regex';
    for (;;) {
      const c = this.ch();
      if (c === '\\') {
        const n = this.ch(this.pos + 1);
        if (n === '\n') {
          this.pos += 2;
        } else if (n === '') {
          b.lit('\\', false);
          this.pos++;
        } else {
          b.lit(n, true);
          this.pos += 2;
        }
      } else if (c === "'") {
        this.readSingle(b);
      } else if (c === '"') {
        this.readDouble(b, 'dq');
      } else if (c === '$') {
        this.readDollar(b, 'unquoted');
      } else if (c === '`') {
        this.readBacktick(b, 'unquoted');
      } else if ((c === '<' || c === '>') && this.procSubAt(this.pos)) {
        this.readProcSub(b);
      } else if (regex && c === '(') {
        this.readRegexGroup(b);
      } else if (mode === 'cond' && '?*+@!'.includes(c) && c !== '' && this.ch(this.pos + 1) === '(') {
        b.lit(c, false);
        this.pos++;
        this.readRegexGroup(b);
      } else if (regex && c === '|') {
        b.lit(c, false);
        this.pos++;
      } else if (isMeta(c)) {
        break;
      } else {
        let j = this.pos + 1;
        if (mode !== 'cond') while (!isWordSpecialCode(src.charCodeAt(j))) j++;
        b.lit(src.slice(this.pos, j), false);
        this.pos = j;
      }
    }
    if (b.parts.length === 0) return null;
    return { parts: b.parts, start, end: this.pos };
  }

  /** The next \ $ ` " at or after `i` (plain text inside double quotes ends there), or the end. */
  private dqTextEnd(i: number): number {
    let j = i;
    let k = this.src.charCodeAt(j);
    while (k === k && k !== 92 && k !== 36 && k !== 96 && k !== 34) k = this.src.charCodeAt(++j);
    return j;
  }

  /** A word ends at `i`: a metacharacter or the end, but not `<(`/`>(` (part of the word). */
  private endsWord(i: number): boolean {
    return isMetaCode(this.src.charCodeAt(i)) && !this.procSubAt(i);
  }

  /** The word `start…end` whose only part is the literal text `from…to`. */
  private literalWord(start: number, from: number, to: number, end: number, quoted: boolean): Word {
    this.pos = end;
    return { parts: [{ type: 'lit', text: this.src.slice(from, to), quoted }], start, end };
  }

  private readSingle(b: PartsBuilder): void {
    const start = this.pos;
    const end = this.src.indexOf("'", start + 1);
    if (end === -1) this.fail('unterminated', "unterminated single quote '", start);
    b.lit(this.src.slice(start + 1, end), true);
    this.pos = end + 1;
  }

  /** `"…"` (ctx dq), or a here-document body / double-quote-like text up to the end (ctx heredoc). */
  protected readDouble(b: PartsBuilder, ctx: 'dq' | 'heredoc'): void {
    const start = this.pos;
    if (ctx === 'dq') {
      this.pos++;
      b.lit('', true);
    }
    for (;;) {
      const c = this.ch();
      if (c === '') {
        if (ctx === 'heredoc') return;
        this.fail('unterminated', 'unterminated double quote "', start);
      }
      if (c === '"' && ctx === 'dq') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const n = this.ch(this.pos + 1);
        if (n === '\n') {
          this.pos += 2;
        } else if (n === '$' || n === '`' || n === '\\' || (n === '"' && ctx === 'dq')) {
          b.lit(n, true);
          this.pos += 2;
        } else {
          b.lit('\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        this.readDollar(b, ctx);
      } else if (c === '`') {
        this.readBacktick(b, ctx);
      } else {
        const j = this.dqTextEnd(this.pos + 1);
        b.lit(this.src.slice(this.pos, j), true);
        this.pos = j;
      }
    }
  }

  protected readDollar(b: PartsBuilder, ctx: Ctx): void {
    const start = this.pos;
    // Line continuations between `$` and what follows are removed first (`$\⏎(cmd)` is `$(cmd)`).
    const k = this.cont(start + 1);
    const n = this.ch(k);
    const quoted = ctx !== 'unquoted';
    if (n === "'" && ctx === 'unquoted') {
      let j = k + 1;
      for (;;) {
        const c = this.ch(j);
        if (c === '') this.fail('unterminated', "unterminated $'…' string", start);
        if (c === '\\') j += 2;
        else if (c === "'") break;
        else j++;
      }
      b.lit(decodeAnsiC(this.src.slice(k + 1, j)), true);
      this.pos = j + 1;
      return;
    }
    if (n === '"' && ctx === 'unquoted') {
      this.pos = k;
      this.readDouble(b, 'dq');
      return;
    }
    if (n === '(') {
      const k2 = this.cont(k + 1);
      if (this.ch(k2) === '(' && this.arithFail?.has(start) !== true) {
        const part = this.tryArith(start, k2 + 1, quoted);
        if (part !== null) {
          b.dyn(part);
          return;
        }
      }
      b.dyn(this.readCommandSub(start, k + 1, '$(…)', quoted, 'cmdsub'));
      return;
    }
    if (n === '{') {
      b.dyn(this.readBraceParam(start, k + 1, quoted));
      return;
    }
    if (n === '[') {
      b.dyn(this.readOldArith(start, k + 1, quoted));
      return;
    }
    if (isNameStartCode(this.src.charCodeAt(k))) {
      // A name may hold line continuations too (`$HO\⏎ME` is `$HOME`).
      let j = k + 1;
      for (;;) {
        if (isNameCode(this.src.charCodeAt(j))) j++;
        else if (isNameCode(this.src.charCodeAt(this.cont(j)))) j = this.cont(j);
        else break;
      }
      const src = this.src.slice(start, j);
      const name = src.includes('\\\n') ? this.src.slice(k, j).replace(/\\\n/g, '') : src.slice(1);
      b.dyn({ type: 'dyn', kind: 'param', src, quoted, name, subs: [] });
      this.pos = j;
      return;
    }
    if (n !== '' && SPECIAL_PARAMS.includes(n)) {
      b.dyn({ type: 'dyn', kind: 'param', src: this.src.slice(start, k + 1), quoted, subs: [] });
      this.pos = k + 1;
      return;
    }
    b.lit('$', quoted);
    this.pos = start + 1;
  }

  /** `$(…)`, `<(…)`, `>(…)` at `start`; the body starts at `bodyStart` (after the `(`). */
  protected readCommandSub(start: number, bodyStart: number, label: string, quoted: boolean, kind: 'cmdsub' | 'procsub'): DynPart {
    this.pos = bodyStart;
    this.enterDepth(start);
    this.openSubs++;
    // Here-documents opened before the substitution take their bodies after it.
    const outer = this.pending.length > 0 ? this.pending.splice(0) : null;
    const body = this.parseListUntilParen();
    if (outer !== null) this.pending.unshift(...outer);
    this.openSubs--;
    if (this.ch() !== ')') {
      if (this.pos >= this.src.length) this.fail('unterminated', `unterminated ${label.slice(0, 2)}`, start);
      this.fail('syntax', `unexpected ${JSON.stringify(this.ch())} inside ${label}`);
    }
    this.pos++;
    this.leaveDepth();
    return { type: 'dyn', kind, src: this.src.slice(start, this.pos), quoted, subs: [{ label, body }] };
  }

  private readProcSub(b: PartsBuilder): void {
    const c = this.ch();
    b.dyn(this.readCommandSub(this.pos, this.cont(this.pos + 1) + 1, c === '<' ? '<(…)' : '>(…)', false, 'procsub'));
  }

  /** Backticks: unescape `\\`, `` \` ``, `\$` (and `\"` inside double quotes), then parse the result. */
  protected readBacktick(b: PartsBuilder, ctx: Ctx): void {
    const start = this.pos;
    let j = start + 1;
    let text = '';
    for (;;) {
      const c = this.ch(j);
      if (c === '') this.fail('unterminated', 'unterminated backtick `', start);
      if (c === '`') break;
      if (c === '\\') {
        const n = this.ch(j + 1);
        if (n === '\\' || n === '`' || n === '$' || (n === '"' && ctx === 'dq')) {
          text += n;
          j += 2;
          continue;
        }
        text += c + n;
        j += 2;
        continue;
      }
      text += c;
      j++;
    }
    this.enterDepth(start);
    const body = this.parseNestedSource(text, this.base + start + 1);
    this.leaveDepth();
    this.pos = j + 1;
    b.dyn({ type: 'dyn', kind: 'cmdsub', src: this.src.slice(start, this.pos), quoted: ctx !== 'unquoted', subs: [{ label: '`…`', body }] });
  }

  /**
   * `${…}`. A blank or `|` right after `${` is bash 5.3's `${ cmd; }` / `${| cmd; }`, which runs
   * commands in the current shell: parsed as a command list. Otherwise the contents are scanned
   * for nested expansions and quotes up to the first plain `}` (bash does not pair plain braces
   * here: `${x:-{a} b}` ends after `{a`).
   */
  private readBraceParam(start: number, bodyStart: number, quoted: boolean): DynPart {
    const a = this.cont(bodyStart);
    const after = this.ch(a);
    if (after === ' ' || after === '\t' || after === '\n' || after === '|') {
      this.pos = a + (after === '|' ? 1 : 0);
      this.enterDepth(start);
      const outer = this.pending.splice(0);
      const body = this.parseListUntilBrace();
      this.pending.unshift(...outer);
      if (this.ch() !== '}') this.fail('unterminated', 'unterminated ${ … }', start);
      this.pos++;
      this.leaveDepth();
      return { type: 'dyn', kind: 'cmdsub', src: this.src.slice(start, this.pos), quoted, subs: [{ label: '${ …; }', body }] };
    }
    this.enterNesting(start);
    this.pos = bodyStart;
    const subs: Sub[] = [];
    const inner = new PartsBuilder();
    for (;;) {
      const c = this.ch();
      if (c === '') this.fail('unterminated', 'unterminated ${', start);
      if (c === '}') {
        break;
      } else if (c === '\\') {
        this.pos += 2;
      } else if (c === "'" && !quoted) {
        this.readSingle(inner);
      } else if (c === '"') {
        this.readDouble(inner, 'dq');
      } else if (c === '$') {
        this.readDollar(inner, quoted ? 'dq' : 'unquoted');
      } else if (c === '`') {
        this.readBacktick(inner, quoted ? 'dq' : 'unquoted');
      } else {
        this.pos++;
      }
    }
    this.pos++;
    this.leaveNesting();
    collectSubs(inner.parts, subs);
    const src = this.src.slice(start, this.pos);
    // `${HO\⏎ME}` names HOME: continuations removed (an escaped backslash would stay and fail the test).
    const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(src.includes('\\\n') ? src.replace(/\\\n/g, '') : src);
    const part: DynPart = { type: 'dyn', kind: 'param', src, quoted, subs };
    if (m?.[1] !== undefined) part.name = m[1];
    return part;
  }

  /** `$[ … ]` (old arithmetic). */
  private readOldArith(start: number, bodyStart: number, quoted: boolean): DynPart {
    this.pos = bodyStart;
    const subs = this.scanArith(start, ']', quoted);
    if (subs === null) this.fail('unterminated', 'unterminated $[', start);
    return { type: 'dyn', kind: 'arith', src: this.src.slice(start, this.pos), quoted, subs };
  }

  /**
   * `$((` at `start`: arithmetic if the parentheses close with `))`, otherwise null (the caller
   * reads `$( (…) … )` instead). Failures are remembered so the retry never repeats the attempt.
   */
  protected tryArith(start: number, bodyStart: number, quoted: boolean): DynPart | null {
    const saved = {
      pos: this.pos,
      nesting: this.budget.nesting,
      depth: this.depth,
      open: this.openSubs,
      pending: this.pending.length,
    };
    this.pos = bodyStart;
    const subs = this.scanArith(start, '))', quoted);
    if (subs === null) {
      (this.arithFail ??= new Set()).add(start);
      // The text scanned is read again as `$( (…) )`.
      this.budget.work?.charge(PARSE_COST * (this.pos - start), 'text read again after `$((`', this.base + start);
      this.pos = saved.pos;
      this.budget.nesting = saved.nesting;
      this.depth = saved.depth;
      this.openSubs = saved.open;
      this.pending.length = saved.pending;
      return null;
    }
    return { type: 'dyn', kind: 'arith', src: this.src.slice(start, this.pos), quoted, subs };
  }

  /**
   * Scans arithmetic text up to `close` (`))` for `$((`/`((`, `]` for `$[`), balancing
   * parentheses and collecting nested substitutions. Returns null when `))` is not where the
   * parentheses close (so it was not arithmetic), or on a syntax error inside a nested part.
   */
  protected scanArith(start: number, close: '))' | ']', quoted: boolean): Sub[] | null {
    this.enterNesting(start);
    const inner = new PartsBuilder();
    let parens = 0;
    let brackets = 0;
    try {
      for (;;) {
        const c = this.ch();
        if (c === '') {
          if (close === ']') this.fail('unterminated', 'unterminated $[', start);
          return null;
        }
        if (c === '(') {
          parens++;
          this.pos++;
        } else if (c === ')') {
          if (parens > 0) {
            parens--;
            this.pos++;
          } else if (close === '))') {
            const k = this.cont(this.pos + 1); // `)\⏎)` closes too
            if (this.ch(k) !== ')') return null;
            this.pos = k + 1;
            break;
          } else {
            return null;
          }
        } else if (close === ']' && c === '[') {
          brackets++;
          this.pos++;
        } else if (close === ']' && c === ']') {
          this.pos++;
          if (brackets === 0) break;
          brackets--;
        } else if (c === '\\') {
          this.pos += 2;
        } else if (c === "'") {
          this.readSingle(inner);
        } else if (c === '"') {
          this.readDouble(inner, 'dq');
        } else if (c === '$') {
          this.readDollar(inner, quoted ? 'dq' : 'unquoted');
        } else if (c === '`') {
          this.readBacktick(inner, quoted ? 'dq' : 'unquoted');
        } else {
          this.pos++;
        }
      }
    } catch (e) {
      if (close === '))' && e instanceof ShellParseError && e.code === 'syntax') return null;
      throw e;
    }
    this.leaveNesting();
    const subs: Sub[] = [];
    collectSubs(inner.parts, subs);
    return subs;
  }

  /** Consumes a newline token; bodies of here-documents opened on that line follow it. */
  protected newline(): void {
    this.pos++;
    // In order, without shift() (linear for thousands of here-documents on one line).
    if (this.pending.length > 0) for (const hd of this.pending.splice(0)) this.readHeredocBody(hd);
  }

  /** At the end of the text: here-documents still waiting get an empty body (bash warns, runs). */
  protected endHeredocs(): void {
    for (const hd of this.pending.splice(0)) {
      hd.unterminated = true;
      this.readHeredocBody(hd);
    }
  }

  /** Reads lines up to the delimiter line; the body is data, expansions in it are parsed if unquoted. */
  private readHeredocBody(hd: Heredoc): void {
    const bodyStart = this.pos;
    const lines: string[] = [];
    let p = this.pos;
    const len = this.src.length;
    for (;;) {
      if (p >= len) {
        hd.unterminated = true;
        break;
      }
      const nl = this.src.indexOf('\n', p);
      let eol = nl === -1 ? len : nl;
      // Unquoted: a backslash-newline joins lines, also for finding the delimiter.
      let key = this.src.slice(p, eol);
      let trail = hd.quoted ? 0 : trailingBackslashes(key);
      if (trail % 2 === 1 && eol < len) {
        // Joined piece by piece, counting trailing backslashes as it goes: re-slicing and
        // re-scanning the growing line made 21,000 continuation lines quadratic.
        const pieces = [key.slice(0, -1)];
        while (trail % 2 === 1 && eol < len) {
          trail--;
          const nl2 = this.src.indexOf('\n', eol + 1);
          const eol2 = nl2 === -1 ? len : nl2;
          const piece = this.src.slice(eol + 1, eol2);
          const t = trailingBackslashes(piece);
          trail = t === piece.length ? trail + t : t;
          eol = eol2;
          pieces.push(trail % 2 === 1 && eol < len ? piece.slice(0, -1) : piece);
        }
        key = pieces.join('');
      }
      const raw = this.src.slice(p, eol);
      const stripped = hd.strip ? raw.replace(/^\t+/, '') : raw;
      if (hd.strip) key = key.replace(/^\t+/, '');
      if (key === hd.delim) {
        p = eol < len ? eol + 1 : len;
        break;
      }
      if (this.openSubs > 0 && key.startsWith(hd.delim + ')') && !raw.includes('\\\n')) {
        // `x=$(cat <<EOF … EOF)`: bash ends the body and the substitution on that line.
        p = p + (raw.length - stripped.length) + hd.delim.length;
        break;
      }
      lines.push(stripped);
      p = eol < len ? eol + 1 : len;
    }
    hd.text = lines.map((l) => l + '\n').join('');
    this.pos = p;
    if (!hd.quoted && hd.text !== '') {
      const lx = this.child(hd.text, this.base + bodyStart);
      const b = new PartsBuilder();
      lx.readDouble(b, 'heredoc');
      hd.body = { parts: b.parts, start: bodyStart, end: p };
    }
  }

  /** `(…)` inside a `=~` regex: balanced, blanks and `|` included. */
  private readRegexGroup(b: PartsBuilder): void {
    const start = this.pos;
    let parens = 0;
    for (;;) {
      const c = this.ch();
      if (c === '') this.fail('unterminated', 'unterminated ( in regular expression', start);
      if (c === '(') {
        parens++;
        b.lit(c, false);
        this.pos++;
      } else if (c === ')') {
        parens--;
        b.lit(c, false);
        this.pos++;
        if (parens === 0) return;
      } else if (c === '\\') {
        const n = this.ch(this.pos + 1);
        if (n !== '\n') b.lit(n, true);
        this.pos += 2;
      } else if (c === "'") {
        this.readSingle(b);
      } else if (c === '"') {
        this.readDouble(b, 'dq');
      } else if (c === '$') {
        this.readDollar(b, 'unquoted');
      } else if (c === '`') {
        this.readBacktick(b, 'unquoted');
      } else {
        b.lit(c, false);
        this.pos++;
      }
    }
  }
}

function trailingBackslashes(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(s.length - 1 - n) === 92 /* \\ */) n++;
  return n;
}

/** Gathers the command lists nested in parts (for an expansion that contains expansions). */
export function collectSubs(parts: Part[], into: Sub[]): void {
  for (const p of parts) if (p.type === 'dyn') into.push(...p.subs);
}
