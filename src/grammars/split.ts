/**
 * Splits an alias value into words the way git's `split_cmdline` does: blanks separate words,
 * single and double quotes group, a backslash escapes the next character (not inside '…').
 * An unterminated quote keeps what was read (git reports an error and runs nothing; reading
 * more than it would is the safe side).
 */
export function splitAliasWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}
