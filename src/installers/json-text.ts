/**
 * JSON text in and out, keeping the file's own style: indent (spaces or a tab), line ending,
 * trailing newline and byte-order mark. A file written as `JSON.stringify(value, null, indent)`
 * plus a newline — what editors and most tools produce — comes back byte-for-byte.
 */

export interface JsonStyle {
  /** Indent unit; '' means the file is on one line (compact). */
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
  bom: boolean;
}

export const DEFAULT_STYLE: JsonStyle = { indent: '  ', eol: '\n', finalNewline: true, bom: false };

export type JsonObject = { [key: string]: unknown };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The style of an existing JSON text (BOM already counted by the caller when present). */
export function detectStyle(text: string, bom: boolean): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = text.endsWith('\n');
  const body = text.trimEnd();
  let indent = '';
  if (body.includes('\n')) {
    const m = /\n([ \t]+)\S/.exec(body);
    indent = m ? (m[1] as string) : '  ';
    if (indent.includes('\t')) indent = '\t';
  }
  return { indent, eol, finalNewline, bom };
}

export function serialize(value: unknown, style: JsonStyle): string {
  let text = JSON.stringify(value, null, style.indent);
  if (style.eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  if (style.finalNewline) text += style.eol;
  return (style.bom ? '\uFEFF' : '') + text;
}

/** The text without whitespace outside strings: equal for two texts that differ only in layout. */
export function withoutLayout(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') {
      out += c;
    }
  }
  return out;
}

/**
 * Whether re-serialising `value` changes more than layout: duplicate keys, number spellings
 * (`1.0`, `1e3`, big integers), escapes (`\u00e9`, `\/`).
 */
export function rewritesContent(text: string, value: unknown): boolean {
  return withoutLayout(text) !== JSON.stringify(value);
}

/** Deep equality that also requires the same key order (so equal values serialise equally). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
