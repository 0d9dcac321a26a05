/**
 * Message templates: `{command}`, `{program}`, `{subcommand}`, `{pack}`, `{rule}`, `{path}`, `{target}`, `{target_check}` are replaced
 * in one pass, so a substituted value that itself contains `{…}` is never expanded again;
 * unknown placeholders stay as written.
 */

export interface TemplateContext {
  command: string;
  program: string;
  subcommand: string;
  pack: string;
  rule: string;
  /** The path the rule's `paths` condition matched (absolute when known), or empty. */
  path?: string;
  /** The production target the rule's `target` condition found (core/targets.ts), or empty. */
  target?: string;
  /**
   * When the command's target could not be checked (known only at run time, or not
   * determinable): a sentence saying so, with a leading blank; else empty.
   */
  target_check?: string;
}

const KEYS: ReadonlySet<string> = new Set<keyof TemplateContext>(['command', 'program', 'subcommand', 'pack', 'rule', 'path', 'target', 'target_check'] as const);
/** Long command lines are shortened in messages (the full line is in the input and the audit). */
const MAX_COMMAND_CHARS = 200;

/** Templates split once into text and placeholder parts (odd indices are placeholder keys). */
const compiled = new Map<string, string[]>();

/**
 * `template.split(/\{(command|program|…)\}/)`, by hand: compiling that expression (and tiering
 * it up on its second use) was a measurable part of a hook's own time.
 */
export function splitTemplate(template: string): string[] {
  const out: string[] = [];
  let text = 0;
  let open = template.indexOf('{');
  while (open !== -1) {
    const close = template.indexOf('}', open + 1);
    if (close === -1) break;
    const key = template.slice(open + 1, close);
    if (KEYS.has(key)) {
      out.push(template.slice(text, open), key);
      text = close + 1;
      open = template.indexOf('{', text);
    } else {
      open = template.indexOf('{', open + 1);
    }
  }
  out.push(template.slice(text));
  return out;
}

function parts(template: string): string[] {
  let p = compiled.get(template);
  if (!p) {
    p = splitTemplate(template);
    if (compiled.size < 10_000) compiled.set(template, p);
  }
  return p;
}

export function renderTemplate(template: string | null, ctx: TemplateContext): string | null {
  if (template === null) return null;
  const p = parts(template);
  if (p.length === 1) return template;
  let out = '';
  for (let i = 0; i < p.length; i++) out += i % 2 === 1 ? (ctx[p[i] as keyof TemplateContext] ?? '') : p[i];
  return out;
}

/** `/^[A-Za-z0-9_@%+=:,./~^-]+$/.test(w)`, without a regular expression (see splitTemplate). */
function isPlainWord(w: string): boolean {
  if (w === '') return false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && '_@%+=:,./~^-'.indexOf(w.charAt(i)) === -1) return false;
  }
  return true;
}

/**
 * argv as a person would type it: words with blanks or quotes are single-quoted; run-time
 * words (`$GIT`, `$(…)`) keep their source text.
 */
export function displayCommand(argv: readonly string[], dynamic: readonly number[] = []): string {
  const dyn = dynamic.length > 0 ? new Set(dynamic) : null; // linear for thousands of run-time words
  return shorten(
    argv
      .map((w, i) => {
        const shown = w.includes('://') ? withoutUrlSecrets(w) : w;
        return isPlainWord(shown) || dyn?.has(i) === true ? shown : `'${shown.replaceAll("'", `'\\''`)}'`;
      })
      .join(' '),
  );
}

/**
 * A word with URLs, without their user, password and query (`postgres://u:pw@db/app?x=1` →
 * `postgres://db/app`): messages quote commands, and a connection string's secrets never go
 * into one (nor into the audit record, which keeps the messages).
 */
export function withoutUrlSecrets(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#'"]*@)?([^\s?#'"]*)(\?[^\s#'"]*)?/g, (_m, scheme: string, _user, rest: string) => `${scheme}${rest}`);
}

export function shorten(text: string): string {
  return text.length > MAX_COMMAND_CHARS ? `${text.slice(0, MAX_COMMAND_CHARS - 1)}…` : text;
}
