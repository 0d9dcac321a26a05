/**
 * Buckler's own hook commands: how they are written (quoted for the shell a harness runs
 * hooks through) and how they are recognised again in a config file, whoever wrote them.
 *
 * A command is Buckler's when, read as shell words:
 *   [NAME=value …] [env [NAME=value …]] [interpreter [-options]] <buckler> [--driver NAME]
 * where <buckler>'s file name, without a directory, an `@version` or an extension
 * (.cjs .mjs .js .cmd .exe .ps1 .sh .ts), is `buckler` — the bundle `dist/buckler.cjs`, the
 * `buckler` launcher, `npx buckler@x`, `python -m buckler` (the earlier Buckler) — and nothing
 * else follows but `--driver NAME` (or `--driver=NAME`), optionally followed by `--event NAME`
 * (or `--event=NAME`: the event a harness's payload does not name, Copilot CLI's native hooks). A command that pipes, chains,
 * redirects or substitutes (`; & | < > ( )` or a backquote outside quotes) is never Buckler's.
 */

const INTERPRETERS = new Set(['node', 'nodejs', 'bun', 'deno', 'npx', 'bunx', 'pnpx']);
const EXTENSIONS = /\.(c?js|mjs|cmd|exe|ps1|sh|ts|bat)$/i;
const DRIVER_NAME = /^[a-z][a-z0-9-]*$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Shell words of a command line, with quotes (and, POSIX-style, backslash escapes) removed,
 * or null when the line is not one plain simple command (operators outside quotes,
 * unbalanced quotes). `backslash: false` reads backslashes literally, as Windows paths need.
 */
export function shellWords(line: string, backslash = true): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (backslash && line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) j++;
        word += line[j];
      }
      if (j >= line.length) return null;
      inWord = true;
      i = j;
    } else if (c === '\\' && backslash) {
      if (i + 1 >= line.length) return null;
      word += line[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (';&|<>()`\n\r'.includes(c)) {
      return null;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The last path segment, for `/` and `\` separators alike. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] ?? p;
}

function isBucklerProgram(word: string): boolean {
  const name = baseName(word).replace(/@[^@]*$/, '').replace(EXTENSIONS, '').toLowerCase();
  return name === 'buckler';
}

export interface OwnCommand {
  /** `--driver` argument, or null when the command gives none (the default driver). */
  driver: string | null;
  /** `--event` argument, when the command gives one. */
  event?: string;
  /** Words that name files the command needs: the interpreter (when any) and Buckler itself. */
  files: string[];
}

/**
 * Reads `words` (a command already split into words) as a Buckler hook command. Returns null
 * when it is not one.
 */
export function readOwnWords(words: readonly string[]): OwnCommand | null {
  let i = 0;
  while (i < words.length && ASSIGNMENT.test(words[i] as string)) i++;
  if (words[i] === 'env') {
    i++;
    while (i < words.length && ASSIGNMENT.test(words[i] as string)) i++;
  }
  const first = words[i];
  if (first === undefined) return null;
  const files: string[] = [];
  const firstName = baseName(first).replace(/\.exe$/i, '').toLowerCase();
  let program = first;
  if (INTERPRETERS.has(firstName)) {
    files.push(first);
    i++;
    if (firstName === 'deno' && words[i] === 'run') i++;
    while (i < words.length && (words[i] as string).startsWith('-')) i++;
    const script = words[i];
    if (script === undefined) return null;
    program = script;
  } else if (/^python[0-9.]*$/.test(firstName)) {
    files.push(first);
    if (words[i + 1] !== '-m') return null;
    i += 2;
    const mod = words[i];
    if (mod === undefined || !/^buckler(\.[A-Za-z_.]+)?$/.test(mod)) return null;
    program = 'buckler';
  }
  if (!isBucklerProgram(program)) return null;
  if (!firstName.startsWith('python') && !['npx', 'bunx', 'pnpx'].includes(firstName)) files.push(program);
  const rest = words.slice(i + 1);
  if (rest.length === 0) return { driver: null, files };
  const driver = option(rest, '--driver');
  if (driver === null) return null;
  const after = rest.slice(driver.used);
  if (after.length === 0) return { driver: driver.value, files };
  const event = option(after, '--event');
  if (event === null || event.used !== after.length || !EVENT_NAME.test(event.value)) return null;
  return { driver: driver.value, event: event.value, files };
}

const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** `NAME VALUE` or `NAME=VALUE` at the start of `words`: the value and how many words it took. */
function option(words: readonly string[], name: string): { value: string; used: number } | null {
  const [first, second] = words;
  if (first === name && second !== undefined && (name !== '--driver' || DRIVER_NAME.test(second))) return { value: second, used: 2 };
  if (first !== undefined && first.startsWith(`${name}=`)) {
    const value = first.slice(name.length + 1);
    return name !== '--driver' || DRIVER_NAME.test(value) ? { value, used: 1 } : null;
  }
  return null;
}

/** Reads a shell command line as a Buckler hook command; null when it is someone else's. */
export function readOwnCommand(line: string): OwnCommand | null {
  for (const backslash of [true, false]) {
    const words = shellWords(line.trim(), backslash);
    const own = words === null ? null : readOwnWords(words);
    if (own !== null) return own;
  }
  return null;
}

/** Quotes one word for the shell that runs hook commands (POSIX sh, or cmd/PowerShell on Windows). */
export function quoteWord(word: string, platform: NodeJS.Platform): string {
  if (platform === 'win32') return `"${word.replace(/"/g, '""')}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `'<node>' '<bundle>'`: the launch prefix for a bundle run by an absolute node binary. */
export function launchPrefix(files: readonly string[], platform: NodeJS.Platform): string {
  return files.map((f) => quoteWord(f, platform)).join(' ');
}

/** The hook command without its `--event NAME` tail (the command a harness's hooks share). */
export function withoutEvent(command: string): string {
  return command.replace(/ --event(?: |=)[A-Za-z][A-Za-z0-9_]*$/, '');
}

/** The full hook command: the launch prefix followed by `--driver <harness>`. */
export function hookCommand(prefix: string, harness: string): string {
  return `${prefix.trim()} --driver ${harness}`;
}
