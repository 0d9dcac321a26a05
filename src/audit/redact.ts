/**
 * Hides secrets in a command line before it is written to the audit log, and says what kinds
 * it hid (a decision record admits what it hid). Pure.
 *
 * Two kinds of detectors: word-level (assignments `KEY=value`, options `--token X`, `-u
 * user:pass` for curl, `-pSECRET` for mysql) on the shell words of each simple command, and
 * text-level (Authorization and secret headers, `Bearer`/`Basic` credentials, passwords in URLs,
 * private-key blocks, well-known token shapes) on the raw text. Each yields raw spans; they
 * are merged and each merged span becomes `[REDACTED]`. A value that only names a variable
 * (`$GITHUB_TOKEN`) is kept: it is not the secret.
 */
import { isVariableReference, scanSegments, valueSpan, type Segment, type Word } from './shell-words.ts';

export const REDACTED = '[REDACTED]';

export type RedactionKind =
  | 'authorization_header'
  | 'secret_header'
  | 'bearer_token'
  | 'basic_auth'
  | 'url_password'
  | 'user_password'
  | 'secret_assignment'
  | 'secret_option'
  | 'password_option'
  | 'private_key'
  | 'github_token'
  | 'gitlab_token'
  | 'aws_access_key'
  | 'sk_api_key'
  | 'slack_token'
  | 'npm_token'
  | 'google_api_key'
  | 'stripe_key'
  | 'jwt';

export interface Redaction {
  text: string;
  /** Distinct kinds found, sorted. Empty when nothing was hidden. */
  kinds: RedactionKind[];
  /** Number of spans replaced (after merging overlaps). */
  count: number;
}

interface Span {
  start: number;
  end: number;
  kind: RedactionKind;
}

// ---- names that look secret -------------------------------------------------------------

/** Split `AWS_SECRET_ACCESS_KEY`, `--client-secret`, `apiToken` into lower-case parts. */
function nameParts(name: string): string[] {
  return name
    .replace(/^-+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_.]+/)
    .filter(Boolean);
}

/**
 * Last part ends with one of these: `PGPASSWORD`, `GITHUB_TOKEN`. Not `tokens`: `--max-tokens`
 * is a number, not a secret.
 */
const SECRET_SUFFIX = /(token|secrets?|password|passwd|passphrase|credentials?|apikey|accesskey|privatekey|secretkey)$/;
/** Last part is exactly one of these: `DB_PASS`, `MYSQL_PWD`, `--auth`, openssl `-passin`. */
const SECRET_WORD = new Set(['pass', 'pwd', 'pw', 'auth', 'cookie', 'storepass', 'keypass', 'passin', 'passout']);
/** Last two parts: `AWS_SECRET_ACCESS_KEY`, `X_API_KEY`. */
const SECRET_PAIR = new Set([
  'api_key',
  'access_key',
  'private_key',
  'secret_key',
  'signing_key',
  'encryption_key',
  'master_key',
  'license_key',
  'session_key',
  'client_secret',
]);
/** Whole names that look secret but are not. */
const NOT_SECRET = new Set(['pwd', 'oldpwd']);
/** First parts that turn a secret-looking option into a switch: `--no-password`, `--with-token`. */
const SWITCH_PREFIX = new Set(['no', 'with', 'without', 'use', 'ask', 'prompt', 'skip']);

/**
 * Whether a variable or option name names a secret. Decided by its LAST part, so
 * `TOKEN_FILE`, `--password-stdin`, `SECRET_NAME`, `--auth-type` and `TOKENIZERS_PARALLELISM`
 * are not secrets while `GITHUB_TOKEN`, `--client-secret` and `DB_PASS` are.
 */
export function isSecretName(name: string): boolean {
  const parts = nameParts(name);
  const last = parts[parts.length - 1];
  if (last === undefined || NOT_SECRET.has(parts.join('_')) || SWITCH_PREFIX.has(parts[0] as string)) return false;
  if (SECRET_SUFFIX.test(last) || SECRET_WORD.has(last)) return true;
  const pair = parts.slice(-2).join('_');
  return SECRET_PAIR.has(pair);
}

// ---- word-level detectors ----------------------------------------------------------------

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
/** curl's options that take `user:password`. */
const CURL_USER_OPTIONS = new Set(['-u', '--user', '-U', '--proxy-user']);
const MYSQL = /^(mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mariadb|mariadb-dump|mariadb-admin)$/;
/** Programs whose bare `--password` is a switch (prompt), not followed by the password. */
const PASSWORD_SWITCH = /^(mysql\w*|mariadb[\w-]*|psql|pg_dump|pg_dumpall|pg_restore|createdb|dropdb|vacuumdb|reindexdb|clusterdb)$/;
const REGISTRY_LOGIN = /^(docker|podman|buildah|skopeo|nerdctl|helm|oras)$/;

function baseName(word: string): string {
  const i = word.lastIndexOf('/');
  return i >= 0 ? word.slice(i + 1) : word;
}

function addValue(spans: Span[], word: Word, from: number, kind: RedactionKind): void {
  const value = word.value.slice(from);
  if (value === '' || isVariableReference(value)) return;
  const span = valueSpan(word, from);
  if (span) spans.push({ start: span[0], end: span[1], kind });
}

/** `KEY=value` at `word.value[at]` with a secret-looking key: hide the value. */
function assignmentAt(spans: Span[], word: Word, at: number): boolean {
  const m = ASSIGNMENT.exec(word.value.slice(at));
  if (!m || !isSecretName(m[1] as string)) return false;
  addValue(spans, word, at + (m[0] as string).length, 'secret_assignment');
  return true;
}

/** Single-dash long options that take a secret (keytool, openssl, …): exact names only. */
const SINGLE_DASH_SECRET = new Set([
  'pass', 'password', 'passwd', 'token', 'secret', 'apikey', 'storepass', 'keypass', 'passin', 'passout',
  'srcstorepass', 'deststorepass', 'srckeypass', 'destkeypass',
]);

/** `--name` (any secret-looking name) or `-name` (exact names): an option whose value is secret. */
function isSecretOption(name: string): boolean {
  if (name.startsWith('--')) return name.length > 2 && isSecretName(name);
  return SINGLE_DASH_SECRET.has(name.slice(1));
}

function segmentSpans(seg: Segment, spans: Span[]): void {
  const programs = new Set(seg.map((w) => baseName(w.value)));
  const curl = programs.has('curl');
  const httpie = programs.has('http') || programs.has('https');
  const mysql = [...programs].some((p) => MYSQL.test(p));
  const passwordSwitch = [...programs].some((p) => PASSWORD_SWITCH.test(p));
  const passwordP =
    programs.has('sshpass') || ([...programs].some((p) => REGISTRY_LOGIN.test(p)) && programs.has('login'));
  for (let i = 0; i < seg.length; i++) {
    const word = seg[i] as Word;
    const v = word.value;
    const next = seg[i + 1];
    // KEY=value (also `export KEY=…`, `env KEY=…`, `docker run -e KEY=…`, `--build-arg KEY=…`).
    if (assignmentAt(spans, word, 0)) continue;
    if (!v.startsWith('-') || v === '-' || v === '--') continue;
    // mysql -pSECRET (attached only: `-p db` prompts and names a database)
    if (mysql && /^-p./.test(v)) {
      addValue(spans, word, 2, 'password_option');
      continue;
    }
    // sshpass -p SECRET, docker login -p SECRET
    if (passwordP && (v === '-p' || /^-p./.test(v))) {
      if (v !== '-p') addValue(spans, word, 2, 'password_option');
      else if (next) {
        addValue(spans, next, 0, 'password_option');
        i++;
      }
      continue;
    }
    const eq = v.indexOf('=');
    const name = eq > 0 ? v.slice(0, eq) : v;
    // curl -u user:pass, --user=user:pass, -uuser:pass; httpie -a user:pass
    if (curl || httpie) {
      let value: Word | undefined;
      let from = 0;
      if (curl && CURL_USER_OPTIONS.has(name) && eq > 0) (value = word), (from = eq + 1);
      else if ((curl && CURL_USER_OPTIONS.has(v)) || (httpie && v === '-a')) value = next;
      else if (curl && /^-[uU]./.test(v)) (value = word), (from = 2);
      if (value) {
        const colon = value.value.indexOf(':', from);
        if (colon >= 0) addValue(spans, value, colon + 1, 'user_password');
        if (value === next) i++;
        continue;
      }
    }
    // --token=X, --password X, -storepass X, -passin pass:X
    if (isSecretOption(name)) {
      if (eq > 0) addValue(spans, word, eq + 1, 'secret_option');
      else if (next && !/^[-<>]/.test(next.value) && !(passwordSwitch && /^--?password$/.test(name))) {
        addValue(spans, next, 0, 'secret_option');
        i++;
      }
      continue;
    }
    // --from-literal=password=X, --env=API_TOKEN=X
    if (eq > 0) assignmentAt(spans, word, eq + 1);
  }
}

// ---- text-level detectors ----------------------------------------------------------------

/** Where a credential that starts at `i` ends: the closing quote, or whitespace when unquoted. */
function credentialEnd(text: string, i: number, quote: string): number {
  let j = i;
  if (quote) {
    while (j < text.length && text[j] !== quote && text[j] !== '\n') j++;
  } else {
    while (j < text.length && !/[\s;&|()<>'"]/.test(text[j] as string)) j++;
  }
  return j;
}

/** The quote character open at `at` in `text` ('' when none), by a quick left-to-right scan. */
function quoteAt(text: string, at: number): string {
  let q = '';
  for (let i = 0; i < at; i++) {
    const c = text[i];
    if (q === '') {
      if (c === '\\') i++;
      else if (c === "'" || c === '"') q = c;
    } else if (q === '"' && c === '\\') i++;
    else if (c === q) q = '';
  }
  return q;
}

const AUTH_HEADER = /\b(?:proxy-)?authorization\s*:\s*(?:(bearer|basic|token|digest|negotiate|ntlm|apikey|aws4-hmac-sha256)\s+)?/gi;
const SECRET_HEADER =
  /(?<![A-Za-z0-9-])(x-[a-z0-9-]*(?:key|token|secret|auth|password|session)[a-z0-9-]*|api-?key|private-token|cookie)\s*:\s*/gi;
const BEARER = /\bbearer\s+([A-Za-z0-9._~+/-]+=*)/gi;
const BASIC = /\bbasic\s+([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi;
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:'"]+:([^\s/@'"]+)@/gi;
const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----([\s\S]*?)(?=-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/** [kind, shape, literal hints]: a shape is only tried when the text holds one of its hints. */
const TOKEN_SHAPES: [RedactionKind, RegExp, string[]][] = [
  ['github_token', /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g, ['gh', 'github_pat_']],
  ['gitlab_token', /(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,}/g, ['glpat-']],
  ['aws_access_key', /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Za-z])/g, ['AKIA', 'ASIA', 'ABIA', 'ACCA']],
  ['sk_api_key', /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g, ['sk-']],
  ['slack_token', /(?<![A-Za-z0-9_])xox[abposr]-[A-Za-z0-9-]{10,}/g, ['xox']],
  ['npm_token', /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36,}/g, ['npm_']],
  ['google_api_key', /(?<![A-Za-z0-9_])AIza[0-9A-Za-z_-]{35}/g, ['AIza']],
  ['stripe_key', /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/g, ['_live_', '_test_']],
  ['jwt', /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, ['eyJ']],
];

/** Looks like a credential rather than a word of prose: has a digit, or is long. */
function tokenLike(s: string): boolean {
  return s.length >= 8 && (/\d/.test(s) || s.length >= 20);
}

/** base64 of `user:password` in printable ASCII. */
function basicCredential(s: string): boolean {
  if (s.length % 4 !== 0) return false;
  const decoded = Buffer.from(s, 'base64').toString('latin1');
  return decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded);
}

/**
 * Every regular expression is guarded by a plain substring test: a hook is a fresh process, and
 * an ordinary command then compiles and runs none of them (the cold cost is in the regexes).
 */
function textSpans(text: string, spans: Span[]): void {
  const lower = text.toLowerCase();
  if (lower.includes('authorization')) {
    for (const m of text.matchAll(AUTH_HEADER)) {
      const start = (m.index as number) + (m[0] as string).length;
      if (text[start] === '$') continue;
      const end = credentialEnd(text, start, quoteAt(text, m.index as number));
      if (end > start) spans.push({ start, end, kind: 'authorization_header' });
    }
  }
  if (text.includes(':') && /x-|api|token|cookie/.test(lower)) {
    for (const m of text.matchAll(SECRET_HEADER)) {
      const start = (m.index as number) + (m[0] as string).length;
      if (text[start] === '$') continue;
      const end = credentialEnd(text, start, quoteAt(text, m.index as number));
      if (end > start) spans.push({ start, end, kind: 'secret_header' });
    }
  }
  if (lower.includes('bearer')) {
    for (const m of text.matchAll(BEARER)) {
      const cred = m[1] as string;
      if (!tokenLike(cred)) continue;
      const start = (m.index as number) + (m[0] as string).length - cred.length;
      spans.push({ start, end: start + cred.length, kind: 'bearer_token' });
    }
  }
  if (lower.includes('basic')) {
    for (const m of text.matchAll(BASIC)) {
      const cred = m[1] as string;
      if (!basicCredential(cred)) continue;
      const start = (m.index as number) + (m[0] as string).length - cred.length;
      spans.push({ start, end: start + cred.length, kind: 'basic_auth' });
    }
  }
  if (text.includes('://') && text.includes('@')) {
    for (const m of text.matchAll(URL_PASSWORD)) {
      const pass = m[1] as string;
      if (isVariableReference(pass)) continue;
      const start = (m.index as number) + (m[0] as string).length - 1 - pass.length;
      spans.push({ start, end: start + pass.length, kind: 'url_password' });
    }
  }
  if (text.includes('PRIVATE KEY-----')) {
    for (const m of text.matchAll(PRIVATE_KEY)) {
      const body = m[2] as string;
      if (body.trim() === '') continue;
      const start = (m.index as number) + (m[0] as string).length - body.length;
      spans.push({ start, end: start + body.length, kind: 'private_key' });
    }
  }
  for (const [kind, re, hints] of TOKEN_SHAPES) {
    if (!hints.some((h) => text.includes(h))) continue;
    for (const m of text.matchAll(re)) {
      spans.push({ start: m.index as number, end: (m.index as number) + (m[0] as string).length, kind });
    }
  }
}

// ---- putting it together -----------------------------------------------------------------

export function redactSecrets(text: string): Redaction {
  const spans: Span[] = [];
  for (const seg of scanSegments(text)) segmentSpans(seg, spans);
  textSpans(text, spans);
  if (spans.length === 0) return { text, kinds: [], count: 0 };
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const kinds = new Set<RedactionKind>();
  let out = '';
  let at = 0;
  let count = 0;
  for (let i = 0; i < spans.length; ) {
    const first = spans[i] as Span;
    let end = first.end;
    kinds.add(first.kind);
    let j = i + 1;
    for (; j < spans.length && (spans[j] as Span).start < end; j++) {
      end = Math.max(end, (spans[j] as Span).end);
      kinds.add((spans[j] as Span).kind);
    }
    out += text.slice(at, first.start) + REDACTED;
    at = end;
    count++;
    i = j;
  }
  out += text.slice(at);
  return { text: out, kinds: [...kinds].sort(), count };
}
