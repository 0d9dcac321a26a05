/**
 * JSON with comments, as Gemini CLI, Qwen Code and Factory Droid read their settings files:
 * `//` and `/* … *\/` comments anywhere whitespace may stand, nothing else (no trailing commas,
 * no single quotes). Gemini CLI and Qwen Code strip the comments and `JSON.parse` the rest
 * (strip-json-comments); Droid parses with jsonc-parser's defaults, which also refuse a trailing
 * comma. Two readings of one text:
 *
 * - `parseJsonc`: the value, exactly as those harnesses get it (comments blanked, then
 *   `JSON.parse`, so repeated keys and number spellings read the same);
 * - `jsoncTree`: where every value, property and item sits in the text (offsets), for
 *   jsonc-edit.ts to change one entry without touching the bytes around it.
 *
 * Only installer commands load this module; the hook never does.
 */

/** A value in the text: [start, end) offsets; `props` for an object, `items` for an array. */
export interface JNode {
  kind: 'object' | 'array' | 'scalar';
  start: number;
  end: number;
  props?: JProp[];
  items?: JNode[];
}

/** One property: from its key's opening quote to the end of its value. */
export interface JProp {
  key: string;
  start: number;
  end: number;
  value: JNode;
}

export class JsoncError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Line and column (1-based) of `offset`. */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 0x0a) {
      line++;
      last = i;
    }
  }
  return { line, col: offset - last };
}

/** Whether the text holds a comment (outside strings). */
export function hasComments(text: string): boolean {
  return stripComments(text) !== text;
}

/** The text with every comment replaced by spaces (line breaks kept), as strip-json-comments does. */
export function stripComments(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i);
      continue;
    }
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = commentEnd(text, i);
      out += text.slice(from, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
      from = i = end;
      continue;
    }
    i++;
  }
  return out + text.slice(from);
}

/** Offset after the string starting at `i` (its quote), or the text's end when unterminated. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  return text.length;
}

/** Offset after the comment starting at `i` (a line comment ends before its line break). */
function commentEnd(text: string, i: number): number {
  if (text[i + 1] === '/') {
    const nl = text.indexOf('\n', i);
    if (nl < 0) return text.length;
    return text[nl - 1] === '\r' ? nl - 1 : nl;
  }
  const close = text.indexOf('*/', i + 2);
  if (close < 0) throw new JsoncError('a /* comment is never closed', i);
  return close + 2;
}

/** Offset of the next character that is neither whitespace nor inside a comment. */
export function skipTrivia(text: string, i: number): number {
  while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) i = commentEnd(text, i);
    else break;
  }
  return i;
}

/** The value the harness reads: comments blanked, then JSON.parse. Throws JsoncError. */
export function parseJsonc(text: string): unknown {
  jsoncTree(text); // the structure, with positions for errors such as a trailing comma
  try {
    return JSON.parse(stripComments(text));
  } catch (e) {
    throw new JsoncError(e instanceof Error ? e.message : String(e), 0);
  }
}

/** The positions of every value in a JSONC text. Throws JsoncError at the first problem. */
export function jsoncTree(text: string): JNode {
  let i = 0;
  const fail = (what: string, at: number): never => {
    throw new JsoncError(what, at);
  };
  const value = (): JNode => {
    i = skipTrivia(text, i);
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const props: JProp[] = [];
      i = skipTrivia(text, i);
      if (text[i] === '}') return { kind: 'object', start, end: ++i, props };
      for (;;) {
        i = skipTrivia(text, i);
        if (text[i] !== '"') fail(text[i] === '}' ? 'a trailing comma before }' : 'expected a property name in double quotes', i);
        const keyStart = i;
        i = skipString(text, i);
        if (text[i - 1] !== '"' || i - 1 === keyStart) fail('a string is never closed', keyStart);
        const key = JSON.parse(text.slice(keyStart, i)) as string;
        i = skipTrivia(text, i);
        if (text[i] !== ':') fail('expected : after a property name', i);
        i++;
        const v = value();
        props.push({ key, start: keyStart, end: v.end, value: v });
        i = skipTrivia(text, i);
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return { kind: 'object', start, end: ++i, props };
        fail('expected , or } after a property', i);
      }
    }
    if (c === '[') {
      i++;
      const items: JNode[] = [];
      i = skipTrivia(text, i);
      if (text[i] === ']') return { kind: 'array', start, end: ++i, items };
      for (;;) {
        i = skipTrivia(text, i);
        if (text[i] === ']') fail('a trailing comma before ]', i);
        items.push(value());
        i = skipTrivia(text, i);
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return { kind: 'array', start, end: ++i, items };
        fail('expected , or ] after an item', i);
      }
    }
    if (c === '"') {
      i = skipString(text, i);
      if (text[i - 1] !== '"' || i - 1 === start) fail('a string is never closed', start);
      return { kind: 'scalar', start, end: i };
    }
    const m = /^(?:-?\d[\d.eE+-]*|true|false|null)/.exec(text.slice(i, i + 400));
    if (m === null) fail(i >= text.length ? 'the text ends where a value should be' : `unexpected ${JSON.stringify(text[i])}`, i);
    i += (m as RegExpExecArray)[0].length;
    return { kind: 'scalar', start, end: i };
  };
  const root = value();
  const after = skipTrivia(text, i);
  if (after < text.length) fail('unexpected text after the end', after);
  return root;
}
