/**
 * A forgiving shell-word scanner for redaction: splits a command line into words (quotes
 * removed) grouped by simple command, and remembers where each character of a word sits in
 * the raw text, so a redaction can replace exactly the secret and keep the quotes around it.
 *
 * Never throws: unbalanced quotes run to the end of the text. It is not the policy's parser
 * (src/shell decides what runs); it only has to find words well enough to hide secrets.
 */

export interface Word {
  /** The word with quotes and backslashes removed. */
  value: string;
  /** Raw offset of each character of `value`. */
  offsets: number[];
  start: number;
  end: number;
}

/** Words of one simple command (between `;`, `&`, `|`, newlines, parentheses). */
export type Segment = Word[] & {
  /** Its output is piped into the next segment (it ended with a single `|`). */
  pipe?: boolean;
};

const OPERATOR = new Set([';', '&', '|', '\n', '(', ')']);

export function scanSegments(text: string): Segment[] {
  const segments: Segment[] = [];
  let seg: Segment = [];
  // The word being read: raw offsets of its characters (null between words).
  let offsets: number[] | null = null;
  let start = 0;
  let end = 0;
  const endWord = (): void => {
    if (offsets === null) return;
    let value = '';
    for (const o of offsets) value += text[o] as string;
    seg.push({ value, offsets, start, end });
    offsets = null;
  };
  const endSegment = (at = -1): void => {
    endWord();
    if (seg.length) {
      if (at >= 0 && text[at] === '|' && text[at + 1] !== '|' && text[at - 1] !== '|') seg.pipe = true;
      segments.push(seg);
    }
    seg = [];
  };
  let depth = 0; // inside $( … ): operators there belong to the word
  let backquote = false; // likewise inside ` … `
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (offsets === null) {
      if (depth === 0 && !backquote && (c === 32 || c === 9 || c === 13)) continue;
      if (depth === 0 && !backquote && OPERATOR.has(text[i] as string)) {
        endSegment(i);
        continue;
      }
      offsets = [];
      start = i;
    }
    if (c === 39 /* ' */) {
      let j = i + 1;
      for (; j < text.length && text.charCodeAt(j) !== 39; j++) offsets.push(j);
      i = Math.min(j, text.length - 1);
    } else if (c === 34 /* " */) {
      let j = i + 1;
      for (; j < text.length && text.charCodeAt(j) !== 34; j++) {
        if (text.charCodeAt(j) === 92 && j + 1 < text.length && '"\\$`'.includes(text[j + 1] as string)) j++;
        offsets.push(j);
      }
      i = Math.min(j, text.length - 1);
    } else if (c === 92 /* \ */ && i + 1 < text.length) {
      i++;
      if (text.charCodeAt(i) !== 10) offsets.push(i); // backslash-newline: line continuation
    } else if (c === 36 /* $ */ && text.charCodeAt(i + 1) === 40) {
      depth++;
      offsets.push(i);
    } else if (c === 96 /* ` */) {
      backquote = !backquote;
      offsets.push(i);
    } else if (depth > 0 && c === 41 /* ) */) {
      depth--;
      offsets.push(i);
    } else if (depth === 0 && !backquote && (c === 32 || c === 9 || c === 13)) {
      end = i;
      endWord();
      continue;
    } else if (depth === 0 && !backquote && OPERATOR.has(text[i] as string)) {
      end = i;
      endSegment(i);
      continue;
    } else {
      offsets.push(i);
    }
    end = i + 1;
  }
  endSegment();
  return segments;
}

/** `$NAME`, `${NAME}`, `${NAME:-x}`: a reference to a secret, not the secret itself. */
export function isVariableReference(value: string): boolean {
  return /^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[^}]*\})$/.test(value);
}

/**
 * Raw span of `word.value.slice(from)` (to the word's last character), for replacement.
 * Quotes that close the word stay outside the span.
 */
export function valueSpan(word: Word, from: number): [number, number] | null {
  if (from >= word.value.length) return null;
  const start = word.offsets[from] as number;
  const end = (word.offsets[word.offsets.length - 1] as number) + 1;
  return [start, end];
}
