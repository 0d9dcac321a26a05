/**
 * Message templates: `{command}`, `{program}`, `{subcommand}`, `{pack}`, `{rule}` are replaced
 * in one pass, so a substituted value that itself contains `{…}` is never expanded again;
 * unknown placeholders stay as written.
 */

export interface TemplateContext {
  command: string;
  program: string;
  subcommand: string;
  pack: string;
  rule: string;
}

const PLACEHOLDER = /\{(command|program|subcommand|pack|rule)\}/g;
/** Long command lines are shortened in messages (the full line is in the input and the audit). */
export const MAX_COMMAND_CHARS = 200;

/** Templates split once into text and placeholder parts (odd indices are placeholder keys). */
const compiled = new Map<string, string[]>();

function parts(template: string): string[] {
  let p = compiled.get(template);
  if (!p) {
    p = template.split(PLACEHOLDER);
    if (compiled.size < 10_000) compiled.set(template, p);
  }
  return p;
}

export function renderTemplate(template: string | null, ctx: TemplateContext): string | null {
  if (template === null) return null;
  const p = parts(template);
  if (p.length === 1) return template;
  let out = '';
  for (let i = 0; i < p.length; i++) out += i % 2 === 1 ? ctx[p[i] as keyof TemplateContext] : p[i];
  return out;
}

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./~^-]+$/;

/**
 * argv as a person would type it: words with blanks or quotes are single-quoted; run-time
 * words (`$GIT`, `$(…)`) keep their source text.
 */
export function displayCommand(argv: readonly string[], dynamic: readonly number[] = []): string {
  return shorten(
    argv.map((w, i) => (PLAIN_WORD.test(w) || dynamic.includes(i) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' '),
  );
}

export function shorten(text: string): string {
  return text.length > MAX_COMMAND_CHARS ? `${text.slice(0, MAX_COMMAND_CHARS - 1)}…` : text;
}
