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

/**
 * Splits an `env -S` string the way env does (quotes, backslash escapes); `${VAR}` is expanded
 * by env at run time, so a word holding it is dynamic. Null when the string is not understood.
 */
export function splitEnvString(s: string): Array<{ value: string; dynamic: boolean }> | null {
  const out: Array<{ value: string; dynamic: boolean }> = [];
  let cur = '';
  let inWord = false;
  let dynamic = false;
  let i = 0;
  const push = (): void => {
    if (inWord) out.push({ value: cur, dynamic });
    cur = '';
    inWord = false;
    dynamic = false;
  };
  const ESC: Record<string, string> = { f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', _: ' ', '\\': '\\', '"': '"', "'": "'", '#': '#', $: '$' };
  while (i < s.length) {
    const c = s.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n') {
      push();
      i++;
    } else if (c === '#' && !inWord) {
      break;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end === -1) return null;
      cur += s.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        const d = s.charAt(i);
        if (d === '') return null;
        if (d === '"') break;
        if (d === '\\') {
          const e = ESC[s.charAt(i + 1)];
          if (e === undefined) return null;
          cur += e;
          i += 2;
        } else if (d === '$' && s.charAt(i + 1) === '{') {
          const end = s.indexOf('}', i);
          if (end === -1) return null;
          cur += s.slice(i, end + 1);
          dynamic = true;
          i = end + 1;
        } else {
          cur += d;
          i++;
        }
      }
      i++;
    } else if (c === '\\') {
      const n = s.charAt(i + 1);
      if (n === 'c') break;
      const e = ESC[n];
      if (e === undefined) return null;
      cur += e;
      inWord = true;
      i += 2;
    } else if (c === '$' && s.charAt(i + 1) === '{') {
      const end = s.indexOf('}', i);
      if (end === -1) return null;
      cur += s.slice(i, end + 1);
      dynamic = true;
      inWord = true;
      i = end + 1;
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  push();
  return out;
}
