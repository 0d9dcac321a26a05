/**
 * Decoding of bash ANSI-C quoting, `$'…'`: the text between the quotes → the string bash uses.
 * A NUL byte ends the string, as it does in bash (C strings).
 */

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

const isOctal = (c: string): boolean => c >= '0' && c <= '7' && c !== '';
const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

function readDigits(s: string, i: number, max: number, ok: (c: string) => boolean): string {
  let j = i;
  while (j < s.length && j - i < max && ok(s.charAt(j))) j++;
  return s.slice(i, j);
}

function fromCodePoint(cp: number): string {
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(cp);
}

/** `body` is the raw text between `$'` and the closing `'`. */
export function decodeAnsiC(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    const c = body.charAt(i);
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const n = body.charAt(i + 1);
    if (n === '') {
      out += '\\';
      i++;
      continue;
    }
    const simple = SIMPLE[n];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    if (isOctal(n)) {
      const d = readDigits(body, i + 1, 3, isOctal);
      out += String.fromCharCode(parseInt(d, 8) & 0xff);
      i += 1 + d.length;
      continue;
    }
    if (n === 'x' || n === 'u' || n === 'U') {
      const max = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const d = readDigits(body, i + 2, max, isHex);
      if (d === '') {
        out += '\\' + n;
      } else {
        out += n === 'x' ? String.fromCharCode(parseInt(d, 16)) : fromCodePoint(parseInt(d, 16));
      }
      i += 2 + d.length;
      continue;
    }
    if (n === 'c') {
      const x = body.charAt(i + 2);
      if (x === '') {
        out += '\\c';
        i += 2;
        continue;
      }
      // `\c\\` is one control character in bash; `\c?` is DEL.
      const skip = x === '\\' && body.charAt(i + 3) === '\\' ? 4 : 3;
      out += x === '?' ? '\x7f' : String.fromCharCode(x.toUpperCase().charCodeAt(0) & 0x1f);
      i += skip;
      continue;
    }
    out += '\\' + n;
    i += 2;
  }
  const nul = out.indexOf('\0');
  return nul === -1 ? out : out.slice(0, nul);
}
