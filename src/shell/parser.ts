/**
 * Recursive-descent parser for bash command lines: lists, pipelines, simple and compound
 * commands, function definitions, redirections and here-documents. Words are lexed by lexer.ts.
 * Every loop consumes input or stops; the top level asserts that all input was consumed.
 */
import type {
  Assign,
  Command,
  CompoundCommand,
  CompoundKind,
  Heredoc,
  ListItem,
  Part,
  Pipeline,
  Redir,
  Script,
  SimpleCommand,
  Word,
} from './ast.ts';
import { PARSE_COMMAND_COST, PARSE_COST } from './work.ts';
import { type Budget, Lexer, PartsBuilder, isMeta, isMetaCode, isNameCode, isNameStartCode } from './lexer.ts';

const RESERVED = new Set([
  '!', 'case', 'coproc', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for', 'function', 'if',
  'in', 'select', 'then', 'time', 'until', 'while', '{', '}', '[[', ']]',
]);
/** First characters of reserved words, and `\` (a line continuation may come first). */
const RESERVED_FIRST = new Set([...RESERVED, '\\'].map((w) => w.charCodeAt(0)));
/** Reserved words that can never start a command. */
const NOT_A_COMMAND = new Set(['do', 'done', 'elif', 'else', 'esac', 'fi', 'then', '}', 'in', ']]']);
/** Reserved words that close a list; one may follow a compound command without a separator. */
const CLOSERS = new Set(['}', 'fi', 'then', 'else', 'elif', 'do', 'done', 'esac']);
/** Reserved words that open a compound command (valid function bodies). */
const COMPOUND_OPENERS = new Set(['{', 'if', 'while', 'until', 'for', 'select', 'case', '[[']);
/** Builtins whose `name=(…)` arguments are array assignments. */
const ASSIGN_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'alias', 'eval', 'let']);
const COND_UNARY = new Set('-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -z -n -o -v -R'.split(' '));
const COND_BINARY = new Set('= == != =~ -eq -ne -lt -le -gt -ge -ef -nt -ot'.split(' '));

interface Stop {
  /** Reserved words that end the list when they stand in command position. */
  words: ReadonlySet<string>;
  /** `;;`, `;&`, `;;&` end the list (case item). */
  caseItem: boolean;
  /** `}` in command position ends the list even when a word character follows (`"${ cmd;}"`). */
  looseBrace?: boolean;
}

const stop = (words: string[], caseItem = false): Stop => ({ words: new Set(words), caseItem });
const FUNSUB: Stop = { words: new Set(), caseItem: false, looseBrace: true };
const TOP = stop([]);
const PAREN = stop([]);
const BRACE = stop(['}']);
const THEN = stop(['then']);
const AFTER_THEN = stop(['elif', 'else', 'fi']);
const FI = stop(['fi']);
const DO = stop(['do']);
const DONE = stop(['done']);
const CASE_ITEM = stop(['esac'], true);

export class Parser extends Lexer {
  /** Parses `text` completely as a script. Throws ShellParseError. */
  static parse(text: string, base: number, budget: Budget, depth: number): Script {
    return new Parser(text, base, budget, depth).parseTop();
  }

  parseTop(): Script {
    const nul = this.src.indexOf('\0');
    if (nul !== -1) this.fail('syntax', 'NUL character in command text', nul);
    const script = this.parseList(TOP);
    if (this.pos < this.src.length) this.unexpected();
    this.endHeredocs();
    return script;
  }

  protected override parseListUntilParen(): Script {
    return this.parseList(PAREN);
  }

  protected override parseListUntilBrace(): Script {
    const body = this.parseList(FUNSUB);
    if (this.ch() !== '}') this.expected('}');
    return body;
  }

  protected override parseNestedSource(text: string, base: number): Script {
    return new Parser(text, base, this.budget, this.depth).parseTop();
  }

  protected override child(text: string, base: number): Lexer {
    return new Parser(text, base, this.budget, this.depth);
  }

  // ---- errors -------------------------------------------------------------------------------

  private describe(): string {
    const c = this.ch();
    if (c === '') return 'end of input';
    if (c === '\n') return 'newline';
    const r = this.peekReserved();
    if (r !== null) return `\`${r}'`;
    const op = /^(;;&|;;|;&|&&|\|\||\|&|&>>|&>|>>|<<<|<<-|<<|[;&|()<>])/.exec(this.src.slice(this.pos));
    if (op?.[1] !== undefined) return `\`${op[1]}'`;
    return `\`${this.src.slice(this.pos, this.pos + 20).split(/[\s;&|()<>]/)[0] ?? c}'`;
  }

  private unexpected(): never {
    const code = this.pos >= this.src.length ? 'unterminated' : 'syntax';
    this.fail(code, `syntax error near unexpected ${this.describe()}`);
  }

  private expected(what: string): never {
    const code = this.pos >= this.src.length ? 'unterminated' : 'syntax';
    this.fail(code, `expected \`${what}' but found ${this.describe()}`);
  }

  // ---- tokens -------------------------------------------------------------------------------

  /** End of the reserved word last seen by peekReserved. */
  private resEnd = 0;
  /**
   * Memo of the last peekReserved (position, answer, end): the list, pipeline and command
   * parsers all ask at the same position. Depends only on the position (the text is fixed).
   */
  private peekPos = -1;
  private peekWord: string | null = null;
  private peekEnd = 0;

  /**
   * The reserved word at the current position, if one stands there as a whole word
   * (line continuations inside it are removed, as bash does: `wh\⏎ile`).
   */
  peekReserved(): string | null {
    const pos = this.pos;
    if (pos === this.peekPos) {
      if (this.peekWord !== null) this.resEnd = this.peekEnd;
      return this.peekWord;
    }
    const w = this.scanReserved(pos);
    this.peekPos = pos;
    this.peekWord = w;
    this.peekEnd = this.resEnd;
    return w;
  }

  private scanReserved(pos: number): string | null {
    const src = this.src;
    // Measured: most command words cannot be reserved; their first character says so.
    if (!RESERVED_FIRST.has(src.charCodeAt(pos))) return null;
    let j = pos;
    let w = '';
    let from = pos; // start of the run of word characters not yet added to `w`
    for (;;) {
      const c = src.charCodeAt(j);
      if (c === 92 /* \\ */ && src.charCodeAt(j + 1) === 10) {
        w += src.slice(from, j);
        j += 2;
        from = j;
      } else if (((c >= 97 && c <= 122) || c === 33 || c === 123 || c === 125 || c === 91 || c === 93) && w.length + j - from < 8) {
        j++;
      } else break;
    }
    if (!isMetaCode(src.charCodeAt(j))) return null;
    w += src.slice(from, j);
    if (w === '') return null;
    this.resEnd = j;
    return RESERVED.has(w) ? w : null;
  }

  /** Consumes the reserved word just returned by peekReserved. */
  private skipReserved(): void {
    this.pos = this.resEnd;
  }

  private takeReserved(w: string): void {
    if (this.peekReserved() !== w) this.expected(w);
    this.skipReserved();
  }

  /** Blanks, comments and newlines (a newline also reads pending here-document bodies). */
  private skipLinebreaks(): void {
    for (;;) {
      this.skipBlanks();
      const c = this.ch();
      if (c === '#') this.skipComment();
      else if (c === '\n') this.newline();
      else return;
    }
  }

  private nonEmpty(list: Script): Script {
    if (list.items.length === 0) this.unexpected();
    return list;
  }

  // ---- lists --------------------------------------------------------------------------------

  private atListEnd(s: Stop): boolean {
    const c = this.ch();
    if (c === '' || c === ')') return true;
    if (c === '}' && s.looseBrace === true) return true;
    if (c === ';' && s.caseItem && (this.ch(this.pos + 1) === ';' || this.ch(this.pos + 1) === '&')) return true;
    const r = this.peekReserved();
    return r !== null && s.words.has(r);
  }

  private parseList(s: Stop): Script {
    this.enterNesting(this.pos);
    const items: ListItem[] = [];
    for (;;) {
      this.skipLinebreaks();
      if (this.atListEnd(s)) break;
      const start = this.pos;
      const andOr = this.parseAndOr();
      this.skipBlanks();
      this.skipComment();
      const c = this.ch();
      const n = this.ch(this.pos + 1);
      let async = false;
      let more = true;
      if (c === ';') {
        if (n === ';' || n === '&') {
          if (!s.caseItem) this.unexpected();
          more = false;
        } else {
          this.pos++;
        }
      } else if (c === '&') {
        this.pos++;
        async = true;
      } else if (c === '\n') {
        this.newline();
      } else {
        more = false;
      }
      items.push({ andOr, async });
      if (this.pos === start) this.unexpected();
      if (!more) break;
    }
    this.leaveNesting();
    return { items };
  }

  private parseAndOr(): ListItem['andOr'] {
    const pipelines = [this.parsePipeline()];
    const ops: Array<'&&' | '||'> = [];
    for (;;) {
      this.skipBlanks();
      const c = this.src.charCodeAt(this.pos);
      // `&&` or `||`
      if ((c !== 38 && c !== 124) || this.src.charCodeAt(this.pos + 1) !== c) break;
      this.pos += 2;
      ops.push(c === 38 ? '&&' : '||');
      this.skipLinebreaks();
      pipelines.push(this.parsePipeline());
    }
    return { pipelines, ops };
  }

  private parsePipeline(): Pipeline {
    let bang = false;
    let time = false;
    for (;;) {
      this.skipBlanks();
      const r = this.peekReserved();
      if (r === '!') {
        this.skipReserved();
        bang = true;
      } else if (r === 'time') {
        this.skipReserved();
        time = true;
        this.skipBlanks();
        if (/^-p(?=[\s;&|()<>]|$)/.test(this.src.slice(this.pos, this.pos + 3))) this.pos += 2;
        this.skipBlanks();
        if (/^--(?=[\s;&|()<>]|$)/.test(this.src.slice(this.pos, this.pos + 3))) this.pos += 2;
      } else {
        break;
      }
    }
    if (bang || time) {
      this.skipBlanks();
      this.skipComment();
      const c = this.ch();
      if (c === '' || c === '\n' || (c === ';' && this.ch(this.pos + 1) !== ';' && this.ch(this.pos + 1) !== '&')) {
        return { commands: [], bang, time };
      }
    }
    const commands = [this.parseCommand()];
    for (;;) {
      this.skipBlanks();
      if (this.ch() !== '|' || this.ch(this.pos + 1) === '|') break;
      this.pos += this.ch(this.pos + 1) === '&' ? 2 : 1;
      this.skipLinebreaks();
      if (this.peekReserved() === '!') this.unexpected();
      commands.push(this.parseCommand());
    }
    return { commands, bang, time };
  }

  // ---- commands -----------------------------------------------------------------------------

  private parseCommand(): Command {
    this.skipBlanks();
    const start = this.pos;
    if (this.ch() === '(') {
      const k = this.cont(start + 1); // `(\⏎(` is `((` too
      if (this.ch(k) === '(' && this.arithFail?.has(start) !== true) {
        const arith = this.tryArithCommand(start, k + 1);
        if (arith !== null) return this.finishCompound(arith);
      }
      this.pos++;
      this.enterNesting(start);
      const body = this.nonEmpty(this.parseList(PAREN));
      if (this.ch() !== ')') this.expected(')');
      this.pos++;
      this.leaveNesting();
      return this.finishCompound(this.compound('subshell', start, [body], []));
    }
    const r = this.peekReserved();
    if (r !== null) {
      if (NOT_A_COMMAND.has(r) || r === '!') this.unexpected();
      if (COMPOUND_OPENERS.has(r) || r === 'function' || r === 'coproc') {
        this.enterNesting(start);
        const c = this.parseReserved(r, start);
        this.leaveNesting();
        return c.type === 'compound' ? this.finishCompound(c) : c;
      }
    }
    return this.parseSimple();
  }

  private compound(kind: CompoundKind, start: number, bodies: Script[], words: Word[]): CompoundCommand {
    return { type: 'compound', kind, bodies, words, redirs: [], start, end: this.pos };
  }

  /** Redirections after a compound command; then only an operator or the end may follow. */
  private finishCompound(c: CompoundCommand): CompoundCommand {
    for (;;) {
      this.skipBlanks();
      if (!this.tryRedir(c.redirs)) break;
    }
    c.end = this.pos;
    const n = this.ch();
    // After a compound command bash accepts a closing reserved word directly: `{ (a) }`, `if a; then (a) fi`.
    if (!(n === '' || n === '#' || '\n;&|)'.includes(n) || CLOSERS.has(this.peekReserved() ?? ''))) this.unexpected();
    return c;
  }

  private tryArithCommand(start: number, bodyStart: number): CompoundCommand | null {
    const saved = { nesting: this.budget.nesting, pending: this.pending.length };
    this.pos = bodyStart;
    const subs = this.scanArith(start, '))', false);
    if (subs === null) {
      (this.arithFail ??= new Set()).add(start);
      this.budget.work?.charge(PARSE_COST * (this.pos - start), 'text read again after `((`', this.base + start);
      this.pos = start;
      this.budget.nesting = saved.nesting;
      this.pending.length = saved.pending;
      return null;
    }
    const src = this.src.slice(start, this.pos);
    const word: Word = { parts: [{ type: 'dyn', kind: 'arith', src, quoted: false, subs }], start, end: this.pos };
    return this.compound('arith', start, [], [word]);
  }

  private parseReserved(r: string, start: number): Command {
    switch (r) {
      case '{': {
        this.skipReserved();
        const body = this.nonEmpty(this.parseList(BRACE));
        this.takeReserved('}');
        return this.compound('group', start, [body], []);
      }
      case 'if':
        return this.parseIf(start);
      case 'while':
      case 'until': {
        this.skipReserved();
        const cond = this.nonEmpty(this.parseList(DO));
        this.takeReserved('do');
        const body = this.nonEmpty(this.parseList(DONE));
        this.takeReserved('done');
        return this.compound(r, start, [cond, body], []);
      }
      case 'for':
      case 'select':
        return this.parseFor(r, start);
      case 'case':
        return this.parseCase(start);
      case '[[':
        return this.parseCond(start);
      case 'function':
        return this.parseFunctionKeyword(start);
      default:
        return this.parseCoproc(start);
    }
  }

  private parseIf(start: number): CompoundCommand {
    this.skipReserved();
    const bodies: Script[] = [];
    for (;;) {
      bodies.push(this.nonEmpty(this.parseList(THEN)));
      this.takeReserved('then');
      bodies.push(this.nonEmpty(this.parseList(AFTER_THEN)));
      const r = this.peekReserved();
      if (r === 'elif') {
        this.skipReserved();
        continue;
      }
      if (r === 'else') {
        this.skipReserved();
        bodies.push(this.nonEmpty(this.parseList(FI)));
      }
      this.takeReserved('fi');
      return this.compound('if', start, bodies, []);
    }
  }

  private parseFor(kind: 'for' | 'select', start: number): CompoundCommand {
    this.skipReserved();
    this.skipBlanks();
    const words: Word[] = [];
    let braceOk = false;
    let loopVar: string | null = null;
    if (kind === 'for' && this.ch() === '(' && this.ch(this.pos + 1) === '(') {
      const s = this.pos;
      this.pos += 2;
      const subs = this.scanArith(s, '))', false);
      if (subs === null) this.fail('syntax', 'malformed for (( … )) header', s);
      words.push({ parts: [{ type: 'dyn', kind: 'arith', src: this.src.slice(s, this.pos), quoted: false, subs }], start: s, end: this.pos });
      this.skipBlanks();
      if (this.ch() === ';') this.pos++;
      braceOk = true;
    } else {
      const name = this.readWord();
      if (name === null) this.unexpected();
      loopVar = literalText(name);
      this.skipLinebreaks();
      if (this.peekReserved() === 'in') {
        this.skipReserved();
        braceOk = true;
        for (;;) {
          this.skipBlanks();
          const c = this.ch();
          if (c === '#') this.skipComment();
          const d = this.ch();
          if (d === ';') {
            this.pos++;
            break;
          }
          if (d === '\n') {
            this.newline();
            break;
          }
          if (d === '') break;
          const w = this.readWord();
          if (w === null) this.unexpected();
          words.push(w);
        }
      } else if (this.ch() === ';') {
        this.pos++;
        braceOk = true;
      }
    }
    this.skipLinebreaks();
    let body: Script;
    if (braceOk && this.peekReserved() === '{') {
      this.skipReserved();
      body = this.nonEmpty(this.parseList(BRACE));
      this.takeReserved('}');
    } else {
      this.takeReserved('do');
      body = this.nonEmpty(this.parseList(DONE));
      this.takeReserved('done');
    }
    const c = this.compound(kind, start, [body], words);
    if (loopVar !== null) c.name = loopVar;
    return c;
  }

  private parseCase(start: number): CompoundCommand {
    this.skipReserved();
    this.skipBlanks();
    const subject = this.readWord();
    if (subject === null) this.unexpected();
    const words: Word[] = [subject];
    const bodies: Script[] = [];
    this.skipLinebreaks();
    this.takeReserved('in');
    for (;;) {
      this.skipLinebreaks();
      if (this.peekReserved() === 'esac') {
        this.skipReserved();
        break;
      }
      if (this.ch() === '(') this.pos++;
      for (;;) {
        this.skipBlanks();
        const w = this.readWord();
        if (w === null) this.unexpected();
        words.push(w);
        this.skipBlanks();
        if (this.ch() !== '|') break;
        this.pos++;
      }
      if (this.ch() !== ')') this.expected(')');
      this.pos++;
      bodies.push(this.parseList(CASE_ITEM));
      this.skipBlanks();
      const three = this.src.slice(this.pos, this.pos + 3);
      if (three === ';;&') this.pos += 3;
      else if (three.startsWith(';;') || three.startsWith(';&')) this.pos += 2;
      else {
        this.skipLinebreaks();
        this.takeReserved('esac');
        break;
      }
    }
    return this.compound('case', start, bodies, words);
  }

  // ---- [[ … ]] ------------------------------------------------------------------------------

  private parseCond(start: number): CompoundCommand {
    this.skipReserved();
    const words: Word[] = [];
    this.condOr(words);
    this.skipCondSpace();
    this.takeReserved(']]');
    return this.compound('cond', start, [], words);
  }

  private skipCondSpace(): void {
    for (;;) {
      this.skipBlanks();
      if (this.ch() === '\n') this.newline();
      else return;
    }
  }

  private condOr(words: Word[]): void {
    this.condAnd(words);
    for (;;) {
      this.skipCondSpace();
      if (this.src.startsWith('||', this.pos)) {
        this.pos += 2;
        this.condAnd(words);
      } else return;
    }
  }

  private condAnd(words: Word[]): void {
    this.condNot(words);
    for (;;) {
      this.skipCondSpace();
      if (this.src.startsWith('&&', this.pos)) {
        this.pos += 2;
        this.condNot(words);
      } else return;
    }
  }

  private condNot(words: Word[]): void {
    this.skipCondSpace();
    if (this.ch() === '!' && isMeta(this.ch(this.pos + 1))) {
      this.pos++;
      this.condNot(words);
      return;
    }
    this.condPrimary(words);
  }

  private condPrimary(words: Word[]): void {
    this.skipCondSpace();
    const start = this.pos;
    if (this.ch() === '(') {
      this.pos++;
      this.enterNesting(start);
      this.condOr(words);
      this.skipCondSpace();
      if (this.ch() !== ')') this.expected(')');
      this.pos++;
      this.leaveNesting();
      return;
    }
    if (this.peekReserved() === ']]') this.unexpected();
    const w1 = this.readWord('cond');
    if (w1 === null) this.unexpected();
    words.push(w1);
    this.skipBlanks();
    let op = '';
    const c = this.ch();
    if ((c === '<' || c === '>') && !this.procSubAt(this.pos)) {
      op = c;
      this.pos++;
    } else {
      const m = /^(\S+)/.exec(this.src.slice(this.pos, this.pos + 4));
      const cand = m?.[1] ?? '';
      if (COND_BINARY.has(cand) && isMeta(this.ch(this.pos + cand.length))) {
        op = cand;
        this.pos += cand.length;
      }
    }
    if (op !== '') {
      this.skipBlanks();
      const w2 = this.readWord(op === '=~' ? 'regex' : 'cond');
      if (w2 === null) this.unexpected();
      words.push(w2);
      return;
    }
    const lit = literalText(w1);
    // `-f x`; a lone `-f` before `]]` is a string; before anything else it is an error.
    if (lit !== null && COND_UNARY.has(lit) && this.peekReserved() !== ']]') {
      const w2 = this.readWord('cond');
      if (w2 === null) this.unexpected();
      words.push(w2);
    }
  }

  // ---- functions, coproc --------------------------------------------------------------------

  private parseFunctionKeyword(start: number): Command {
    this.skipReserved();
    this.skipBlanks();
    const name = this.readWord();
    if (name === null) this.unexpected();
    this.skipBlanks();
    if (this.ch() === '(') {
      this.pos++;
      this.skipBlanks();
      if (this.ch() !== ')') this.expected(')');
      this.pos++;
    }
    return this.functionBody(this.src.slice(name.start, name.end), start);
  }

  private functionBody(name: string, start: number): Command {
    this.skipLinebreaks();
    const r = this.peekReserved();
    const isCompound = this.ch() === '(' || (r !== null && COMPOUND_OPENERS.has(r));
    if (!isCompound) this.unexpected();
    const body = this.parseCommand();
    return { type: 'function', name, body, start, end: this.pos };
  }

  private parseCoproc(start: number): CompoundCommand {
    this.skipReserved();
    this.skipBlanks();
    const opensCompound = (): boolean => {
      const r = this.peekReserved();
      return this.ch() === '(' || (r !== null && COMPOUND_OPENERS.has(r));
    };
    let body: Command;
    if (opensCompound()) {
      body = this.parseCommand();
    } else {
      const save = this.pos;
      const name = this.readWord();
      this.skipBlanks();
      if (name !== null && opensCompound()) {
        body = this.parseCommand();
      } else {
        this.pos = save;
        body = this.parseSimple();
      }
    }
    const script: Script = { items: [{ andOr: { pipelines: [{ commands: [body], bang: false, time: false }], ops: [] }, async: true }] };
    return this.compound('coproc', start, [script], []);
  }

  // ---- simple commands ----------------------------------------------------------------------

  private parseSimple(): Command {
    const start = this.pos;
    // Tens of thousands of tiny commands (`a;a;a;…`) cost far more than their characters.
    this.budget.work?.charge(PARSE_COMMAND_COST, 'commands to parse', this.base + start);
    const cmd: SimpleCommand = { type: 'simple', assigns: [], words: [], redirs: [], start, end: start };
    /** The program takes `name=(…)` arguments (computed once the first word is read). */
    let assignBuiltin: boolean | undefined;
    for (;;) {
      this.skipBlanks();
      if (this.tryRedir(cmd.redirs)) continue;
      const c = this.src.charCodeAt(this.pos);
      const procSub = (c === 60 || c === 62) && this.procSubAt(this.pos); // `<(`, `>(`
      if ((isMetaCode(c) && !procSub) || c === 35 /* # */) break;
      if (cmd.words.length === 0) {
        const a = this.tryAssign();
        if (a !== null) {
          cmd.assigns.push(a);
          continue;
        }
        // In command position `name[…]` is one word even with blanks inside (bash reads a matched pair).
        if (this.nameThenBracket()) {
          const w = this.readArrayElement();
          if (w !== null) {
            cmd.words.push(w);
            continue;
          }
        }
      } else if ((assignBuiltin ??= ASSIGN_BUILTINS.has(literalText(cmd.words[0]) ?? ''))) {
        const s = this.pos;
        const a = this.tryAssign();
        if (a !== null) {
          cmd.words.push(assignWord(a, this.src.slice(s, this.pos), s, this.pos));
          continue;
        }
      }
      const w = this.readWord();
      if (w === null) this.unexpected();
      cmd.words.push(w);
    }
    cmd.end = this.pos;
    if (this.ch() === '(') {
      const first = cmd.words[0];
      if (cmd.words.length === 1 && first !== undefined && cmd.assigns.length === 0 && cmd.redirs.length === 0) {
        this.pos++;
        this.skipBlanks();
        if (this.ch() !== ')') this.expected(')');
        this.pos++;
        return this.functionBody(this.src.slice(first.start, first.end), start);
      }
      this.unexpected();
    }
    if (cmd.words.length === 0 && cmd.assigns.length === 0 && cmd.redirs.length === 0) this.unexpected();
    return cmd;
  }

  /** `name[` at the current position, within 256 characters (as /^[A-Za-z_][A-Za-z0-9_]*\[/ on that window). */
  private nameThenBracket(): boolean {
    const src = this.src;
    const pos = this.pos;
    if (!isNameStartCode(src.charCodeAt(pos))) return false;
    let j = pos + 1;
    while (isNameCode(src.charCodeAt(j))) j++;
    return j < pos + 256 && src.charCodeAt(j) === 91 /* [ */;
  }

  /** `NAME=…`, `NAME+=…`, `NAME[sub]=…`, with `(…)` array values. Null (position kept) otherwise. */
  private tryAssign(): Assign | null {
    const start = this.pos;
    const src = this.src;
    if (!isNameStartCode(src.charCodeAt(start))) return null;
    let j = start + 1;
    while (isNameCode(src.charCodeAt(j))) j++;
    // Measured: most first words are not assignments; say so before slicing the name.
    const after = src.charCodeAt(j);
    if (after !== 61 /* = */ && after !== 43 /* + */ && after !== 91 /* [ */) return null;
    const name = this.src.slice(start, j);
    let index: Word | null = null;
    if (this.ch(j) === '[') {
      this.pos = j;
      index = this.readSubscript();
      if (index === null) {
        this.pos = start;
        return null;
      }
      j = this.pos;
    }
    if (this.ch(j) === '+' && this.ch(j + 1) === '=') j += 2;
    else if (this.ch(j) === '=') j += 1;
    else {
      this.pos = start;
      return null;
    }
    this.pos = j;
    if (this.ch() === '(') {
      this.pos++;
      const array: Word[] = [];
      for (;;) {
        this.skipLinebreaks();
        if (this.ch() === ')') {
          this.pos++;
          break;
        }
        if (this.ch() === '') this.fail('unterminated', 'unterminated array assignment (', j);
        const w = this.readArrayElement();
        if (w === null) this.unexpected();
        array.push(w);
      }
      return { name, index, value: null, array, start };
    }
    const value = this.readWord('mid') ?? { parts: [], start: this.pos, end: this.pos };
    return { name, index, value, array: null, start };
  }

  /** An array element; `[key]=value` and `name[key]…` keys may hold blanks, as in bash. */
  private readArrayElement(): Word | null {
    const m = /^[A-Za-z_][A-Za-z0-9_]*(?=\[)|^(?=\[)/.exec(this.src.slice(this.pos, this.pos + 256));
    if (m === null) return this.readWord();
    const start = this.pos;
    this.pos += m[0].length;
    const key = this.readSubscript();
    const rest = this.readWord('mid');
    const parts: Part[] = [];
    if (m[0] !== '') parts.push({ type: 'lit', text: m[0], quoted: false });
    if (key !== null) parts.push(...key.parts);
    if (rest !== null) parts.push(...rest.parts);
    return { parts, start, end: this.pos };
  }

  /** `[…]` of an assignment subscript, balanced; it may span blanks and lines (bash reads a matched pair). */
  private readSubscript(): Word | null {
    const start = this.pos;
    const b = new PartsBuilder();
    let depth = 0;
    for (;;) {
      const c = this.ch();
      if (c === '') this.fail('unterminated', 'unterminated [ subscript', start);
      if (c === '[') {
        depth++;
        b.lit(c, false);
        this.pos++;
      } else if (c === ']') {
        depth--;
        b.lit(c, false);
        this.pos++;
        if (depth === 0) return { parts: b.parts, start, end: this.pos };
      } else if (c === '$' || c === '`' || c === '"' || c === "'" || c === '\\') {
        // Reuse the word lexer for one quoted/expanded piece.
        const w = this.readWordPiece();
        if (w === null) return null;
        for (const p of w) b.parts.push(p);
      } else {
        b.lit(c, false);
        this.pos++;
      }
    }
  }

  /** One quoted or expanded piece of a word (used inside subscripts). */
  private readWordPiece(): Part[] | null {
    const c = this.ch();
    const b = new PartsBuilder();
    if (c === '\\') {
      b.lit(this.ch(this.pos + 1), true);
      this.pos += 2;
    } else if (c === "'") {
      const end = this.src.indexOf("'", this.pos + 1);
      if (end === -1) return null;
      b.lit(this.src.slice(this.pos + 1, end), true);
      this.pos = end + 1;
    } else if (c === '"') {
      this.readDouble(b, 'dq');
    } else if (c === '$') {
      this.readDollar(b, 'unquoted');
    } else {
      this.readBacktick(b, 'unquoted');
    }
    return b.parts;
  }

  /** A redirection at the current position (with optional fd prefix), or false. */
  private tryRedir(into: Redir[]): boolean {
    let j = this.pos;
    let fd = '';
    // Measured: called before every word; most words start with none of `0-9 { < > &`.
    const k0 = this.src.charCodeAt(j);
    if (!((k0 >= 48 && k0 <= 57) || k0 === 123 || k0 === 60 || k0 === 62 || k0 === 38)) return false;
    const c0 = this.ch();
    if (c0 >= '0' && c0 <= '9') {
      while (/[0-9]/.test(this.ch(j))) j++;
      if (this.ch(j) !== '<' && this.ch(j) !== '>') return false;
      fd = this.src.slice(this.pos, j);
    } else if (c0 === '{') {
      const m = /^\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])/.exec(this.src.slice(j, j + 200));
      if (m === null) return false;
      fd = m[0];
      j += fd.length;
    }
    const rest = this.src.slice(j, j + 3);
    let op: string | undefined;
    if (fd === '' && rest.startsWith('&>')) op = rest.startsWith('&>>') ? '&>>' : '&>';
    else if (this.procSubAt(j)) return false;
    else op = /^(<<<|<<-|<<|<&|<>|<|>>|>&|>\||>)/.exec(rest)?.[1];
    if (op === undefined) return false;
    const start = this.pos;
    this.pos = j + op.length;
    this.skipBlanks();
    // `>2>&1`: digits right before `<`/`>` are an fd number, not a target word (`>&` takes one).
    if (op !== '>&' && op !== '<&' && /^[0-9]+[<>]/.test(this.src.slice(this.pos, this.pos + 24))) this.unexpected();
    const target = this.readWord();
    if (target === null) this.unexpected();
    // A lone backslash at the very end cannot be a target (bash: unexpected end of file).
    if (this.pos >= this.src.length && this.src.endsWith('\\') && this.src.slice(target.start) === '\\') {
      this.fail('unterminated', 'redirection target cut by the end of input', target.start);
    }
    let heredoc: Heredoc | null = null;
    if (op === '<<' || op === '<<-') {
      let delim = '';
      let quoted = false;
      for (const p of target.parts) {
        if (p.type === 'lit') {
          delim += p.text;
          if (p.quoted) quoted = true;
        } else {
          delim += p.src;
        }
      }
      // Quote characters anywhere in the delimiter word make the body pure data; a line
      // continuation is not one (`<<E\⏎OF` is the unquoted delimiter EOF, as in bash).
      const written = this.src.slice(target.start, target.end);
      if (/["'\\]/.test(written.includes('\\\n') ? written.replace(/\\\n/g, '') : written)) quoted = true;
      heredoc = { delim, quoted, strip: op === '<<-', text: '', body: null, unterminated: false };
      this.pending.push(heredoc);
    }
    into.push({ op, fd, target, heredoc });
    if (this.pos === start) this.unexpected();
    return true;
  }
}

/** The word's text when it is entirely literal and unquoted-or-quoted without expansions. */
export function literalText(w: Word | undefined): string | null {
  if (w === undefined) return null;
  let s = '';
  for (const p of w.parts) {
    if (p.type !== 'lit') return null;
    s += p.text;
  }
  return s;
}

/** An assignment argument of `declare`/`export`/… as one argv word (parts kept for expansions). */
function assignWord(a: Assign, src: string, start: number, end: number): Word {
  const b = new PartsBuilder();
  b.lit(a.name, false);
  let k = a.name.length;
  if (a.index !== null) {
    for (const p of a.index.parts) b.parts.push(p);
    k += a.index.end - a.index.start;
  }
  b.lit(src.startsWith('+=', k) ? '+=' : '=', false);
  if (a.array !== null) {
    b.lit('(', false);
    a.array.forEach((w, i) => {
      if (i > 0) b.lit(' ', false);
      for (const p of w.parts) b.parts.push(p);
    });
    b.lit(')', false);
  } else if (a.value !== null) {
    for (const p of a.value.parts) b.parts.push(p);
  }
  return { parts: b.parts, start, end };
}
