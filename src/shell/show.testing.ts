/** Test helpers: analysis results in one compact, readable line per command. */
import { analyzeCommandLine, type ShellAnalyzeOptions } from './index.ts';
import { ShellParseError, type ShellCommand } from './types.ts';

/** `[via > via] argv…` with `?` before an opaque command; a word that is empty or holds blanks is shown as ⟨word⟩. */
export function fmt(c: ShellCommand): string {
  const via = c.via.length > 0 ? `[${c.via.join(' > ')}] ` : '';
  const argv = c.argv.map((a) => (a === '' || /\s/.test(a) ? `⟨${a}⟩` : a)).join(' ');
  return via + (c.opaque ? '?' : '') + argv;
}

/** Commands with words (a redirection alone, `> f`, is reported with an empty argv for its path). */
export function show(text: string, opts?: ShellAnalyzeOptions): string[] {
  return analyzeCommandLine(text, opts)
    .filter((c) => c.argv.length > 0)
    .map(fmt);
}

/** The error code analysis throws for `text`, or `ok`. Anything but ShellParseError is rethrown. */
export function errorCode(text: string, opts?: ShellAnalyzeOptions): string {
  try {
    analyzeCommandLine(text, opts);
    return 'ok';
  } catch (e) {
    if (e instanceof ShellParseError) return e.code;
    throw e;
  }
}
