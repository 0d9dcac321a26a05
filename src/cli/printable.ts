/**
 * The one escaping of text a person-facing listing prints (`log`, `stats`, `replay`, `trust`,
 * `allow --list`): a project path, a file name or a command must not drive the terminal.
 */

/** Control characters shown, not obeyed: a command must not drive the terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
