/**
 * Best effort: inline code given to an interpreter (`python -c`, `node -e`, `perl -e`, `ruby -e`,
 * `php -r`) that plainly runs a command, like `os.system("git push")` or
 * `execSync("git push")` or `subprocess.run(["git", "push"])`, also under the names the code
 * imported them as (`import subprocess as sp`, `from os import system`, `__import__('os')`).
 * Only string-literal arguments are read; a process-running call whose argument is not a
 * literal is reported as unknown.
 */

export type InlineLanguage = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'awk';

export type InlineCall =
  /** A shell command line; `fed`: its standard input is what the code writes into it (awk's `print … | "CMD"`). */
  | { kind: 'shell'; text: string; fed?: true }
  /** An argv run without a shell. */
  | { kind: 'argv'; argv: string[] }
  /** A process-running call whose command is not a literal. */
  | { kind: 'unknown'; text: string };

/** Call names whose first argument is a shell command line. */
const SHELL_CALLS: Record<InlineLanguage, string[]> = {
  python: ['os.system', 'os.popen', 'subprocess.getoutput', 'subprocess.getstatusoutput', 'commands.getoutput', 'pty.spawn'],
  node: ['execSync', 'exec'],
  perl: ['system', 'exec', 'qx'],
  ruby: ['system', 'exec', 'IO.popen', 'Open3.capture2', 'Open3.capture2e', 'Open3.capture3', 'Open3.popen3', 'spawn'],
  php: ['system', 'exec', 'shell_exec', 'passthru', 'popen', 'proc_open'],
  awk: ['system'],
};

/** Call names whose first argument is an argv list (or a command line when a string). */
const ARGV_CALLS: Record<InlineLanguage, string[]> = {
  python: ['subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output', 'subprocess.Popen'],
  node: ['execFileSync', 'execFile', 'spawnSync', 'spawn'],
  perl: [],
  ruby: [],
  php: [],
  awk: [],
};

interface Lit {
  kind: 'str';
  value: string;
  end: number;
}
interface List {
  kind: 'list';
  values: string[];
  end: number;
}

/** A string literal at `i` (after blanks): '…', "…", `…` (node without ${}), r'…', b'…'. */
function readString(code: string, i0: number): Lit | null {
  let i = i0;
  while (code.charAt(i) === ' ' || code.charAt(i) === '\t') i++;
  let prefixRaw = false;
  const pre = /^[rRbBuU]{1,2}(?=['"])/.exec(code.slice(i, i + 3));
  if (pre !== null) {
    if (/[fF]/.test(pre[0])) return null;
    prefixRaw = /[rR]/.test(pre[0]);
    i += pre[0].length;
  }
  const q = code.charAt(i);
  if (q !== '"' && q !== "'" && q !== '`') return null;
  // Python triple quotes.
  const triple = code.slice(i, i + 3) === q.repeat(3) ? q.repeat(3) : q;
  let j = i + triple.length;
  let value = '';
  for (;;) {
    if (j >= code.length) return null;
    if (code.startsWith(triple, j)) break;
    const c = code.charAt(j);
    if (c === '\\' && !prefixRaw) {
      const n = code.charAt(j + 1);
      value += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      j += 2;
      continue;
    }
    if (q === '`' && c === '$' && code.charAt(j + 1) === '{') return null;
    if (q === '"' && c === '$' && /[A-Za-z_{@]/.test(code.charAt(j + 1))) return null;
    value += c;
    j++;
  }
  return { kind: 'str', value, end: j + triple.length };
}

/** `[ "a", 'b' ]` of string literals. */
function readList(code: string, i0: number): List | null {
  let i = i0;
  while (code.charAt(i) === ' ') i++;
  if (code.charAt(i) !== '[') return null;
  i++;
  const values: string[] = [];
  for (;;) {
    while (/\s/.test(code.charAt(i))) i++;
    if (code.charAt(i) === ']') return { kind: 'list', values, end: i + 1 };
    const s = readString(code, i);
    if (s === null) return null;
    values.push(s.value);
    i = s.end;
    while (/\s/.test(code.charAt(i))) i++;
    if (code.charAt(i) === ',') i++;
    else if (code.charAt(i) !== ']') return null;
  }
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Python modules whose functions run commands (the prefixes of SHELL_CALLS and ARGV_CALLS). */
const PY_MODULES = new Set(['os', 'subprocess', 'commands', 'pty']);

/**
 * The code with the names it imported under other names written out: `import subprocess as sp`
 * makes `sp.run(` read `subprocess.run(`, `from os import system` makes `system(` read
 * `os.system(`, `__import__('os')` and `importlib.import_module('os')` read `os`,
 * `getattr(os, 'system')` reads `os.system`. Only calls are rewritten; strings stay as they are.
 */
function pythonNames(code: string): string {
  let c = code
    .replace(/(?:__import__|importlib\s*\.\s*import_module)\s*\(\s*(['"])(\w+)\1\s*\)/g, '$2')
    .replace(/getattr\s*\(\s*([\w.]+)\s*,\s*(['"])(\w+)\2\s*\)/g, '$1.$3');
  const renames: Array<[string, string]> = [];
  for (const m of c.matchAll(/(?:^|[;\n])[ \t]*from[ \t]+(\w+)[ \t]+import[ \t]+\(?([\w \t,*]+)\)?/g)) {
    const mod = m[1] ?? '';
    if (!PY_MODULES.has(mod)) continue;
    for (const part of (m[2] ?? '').split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name === '*') {
        for (const call of [...SHELL_CALLS.python, ...ARGV_CALLS.python]) {
          if (call.startsWith(`${mod}.`)) renames.push([call.slice(mod.length + 1), call]);
        }
      } else if (name !== undefined && /^\w+$/.test(name)) renames.push([alias ?? name, `${mod}.${name}`]);
    }
  }
  for (const m of c.matchAll(/(?:^|[;\n])[ \t]*import[ \t]+([\w \t,.]+)/g)) {
    for (const part of (m[1] ?? '').split(',')) {
      const [mod, alias] = part.trim().split(/\s+as\s+/);
      if (mod !== undefined && alias !== undefined && PY_MODULES.has(mod) && /^\w+$/.test(alias)) renames.push([alias, mod]);
    }
  }
  for (const [alias, target] of renames) {
    if (alias === target) continue;
    c = c.replace(new RegExp(`(?<![\\w.])${escapeRe(alias)}(?=\\s*[.(])`, 'g'), target);
  }
  return c;
}

/** `const { execSync: run } = require('child_process')`, `import { exec as run } from 'child_process'`: `run(` reads `execSync(`. */
function nodeNames(code: string): string {
  let c = code;
  const pattern = /\{([^}]*)\}\s*(?:=\s*require\s*\(\s*|from\s*)(['"`])(?:node:)?child_process\2/g;
  for (const m of code.matchAll(pattern)) {
    for (const part of (m[1] ?? '').split(',')) {
      const pair = /^\s*(\w+)\s*(?::|\s+as\s+)\s*(\w+)\s*$/.exec(part);
      if (pair === null || pair[1] === pair[2]) continue;
      c = c.replace(new RegExp(`(?<![\\w$.])${escapeRe(pair[2]!)}(?=\\s*\\()`, 'g'), pair[1]!);
    }
  }
  return c;
}

export function scanInlineCode(source: string, lang: InlineLanguage): InlineCall[] {
  const code = lang === 'python' ? pythonNames(source) : lang === 'node' ? nodeNames(source) : source;
  const out: InlineCall[] = [];
  const names = [...SHELL_CALLS[lang], ...ARGV_CALLS[lang]];
  // A name must not be the tail of a longer identifier. A method call on some other object
  // (`re.exec(…)`, `db.exec(…)`) is not a process call; for node, `cp.exec(…)` and
  // `require("child_process").execSync(…)` are (when the code loads child_process).
  const re = new RegExp(`(?<![\\w$])(${names.map(escapeRe).join('|')})(?:\\s*\\(|\\s+(?=["'\`]))`, 'g');
  const loadsChildProcess = code.includes('child_process');
  for (const m of code.matchAll(re)) {
    const full = m[0];
    const name = m[1] ?? '';
    const before = code.charAt((m.index ?? 0) - 1);
    if (before === '.' && !(lang === 'node' && loadsChildProcess)) continue;
    const at = (m.index ?? 0) + full.length;
    const isArgvCall = ARGV_CALLS[lang].includes(name);
    const read = readString(code, at);
    // A literal with more after it (`"git push " + flag`, awk's `"echo " $1`) is not the whole command.
    const str = read !== null && endsArgument(code, read.end) ? read : null;
    if (read !== null && str === null) {
      out.push({ kind: 'unknown', text: code.slice(m.index ?? 0, Math.min(code.length, read.end + 20)) });
      continue;
    }
    if (str !== null) {
      if (isArgvCall && lang === 'node') {
        // spawn("git", ["push"]) / execFile("git", ["push"])
        let k = str.end;
        while (/\s/.test(code.charAt(k))) k++;
        const list = code.charAt(k) === ',' ? readList(code, k + 1) : null;
        out.push({ kind: 'argv', argv: [str.value, ...(list?.values ?? [])] });
      } else if (lang === 'perl' || lang === 'ruby' || lang === 'php') {
        // system("git", "push") runs without a shell; system("git push") with one.
        const more = readMoreStrings(code, str.end);
        out.push(more.length > 0 ? { kind: 'argv', argv: [str.value, ...more] } : { kind: 'shell', text: str.value });
      } else {
        out.push({ kind: 'shell', text: str.value });
      }
      continue;
    }
    const list = readList(code, at);
    if (list !== null && list.values.length > 0) {
      out.push({ kind: 'argv', argv: list.values });
      continue;
    }
    out.push({ kind: 'unknown', text: code.slice(m.index ?? 0, Math.min(code.length, at + 40)) });
  }
  if (lang === 'awk') {
    // `"CMD" | getline`, `print … | "CMD"`, `print … |& "CMD"`: CMD runs through a shell; what
    // print writes into it is its standard input (a shell there runs it: not known here).
    for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"\s*\|&?\s*getline|\|&?\s*"((?:[^"\\\n]|\\.)*)"/g)) {
      const text = (m[1] ?? m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
      out.push(m[2] !== undefined ? { kind: 'shell', text, fed: true } : { kind: 'shell', text });
    }
  }
  if (lang === 'perl' || lang === 'ruby' || lang === 'php') {
    for (const m of code.matchAll(/`([^`$@]*)`/g)) out.push({ kind: 'shell', text: m[1] ?? '' });
    for (const m of code.matchAll(/(?:qx|%x)\s*([({[])/g)) {
      const open = m[1] ?? '(';
      const close = open === '(' ? ')' : open === '{' ? '}' : ']';
      const start = (m.index ?? 0) + m[0].length;
      const end = code.indexOf(close, start);
      const text = end === -1 ? '' : code.slice(start, end);
      out.push(end === -1 || /[$@]/.test(text) ? { kind: 'unknown', text: m[0] } : { kind: 'shell', text });
    }
  }
  return out;
}

/** Whether a string literal ending at `from` is a whole argument: what follows ends it (`)`, `,`, `;`, a line end, `}`). */
function endsArgument(code: string, from: number): boolean {
  let i = from;
  while (code.charAt(i) === ' ' || code.charAt(i) === '\t') i++;
  const c = code.charAt(i);
  return c === '' || c === ')' || c === ',' || c === ';' || c === '\n' || c === '\r' || c === '}';
}

function readMoreStrings(code: string, from: number): string[] {
  const out: string[] = [];
  let i = from;
  for (;;) {
    while (/\s/.test(code.charAt(i))) i++;
    if (code.charAt(i) !== ',') return out;
    const s = readString(code, i + 1);
    if (s === null) return out;
    out.push(s.value);
    i = s.end;
  }
}
