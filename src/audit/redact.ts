/**
 * Hides secrets in a command line before it is written to the audit log, and says what kinds
 * it hid (a decision record admits what it hid). Pure.
 *
 * Two kinds of detectors. Word-level, on the shell words of each simple command (also inside
 * `$(…)` and backquotes): assignments `KEY=value`, options `--token X`, `-u user:pass` for curl,
 * `-pSECRET` for mysql, settings `aws configure set aws_secret_access_key X`, and a value echoed
 * into `docker login --password-stdin`. Text-level, on the raw text: the `SHAPES` table below
 * (headers, `Bearer`/`Basic` credentials, passwords in URLs, private-key blocks, `.npmrc`
 * tokens, connection strings, and the token formats of common services). Each yields raw spans;
 * they are merged and each merged span becomes `[REDACTED]`. A value that only names a variable
 * (`$GITHUB_TOKEN`) is kept: it is not the secret. Every shape has its own test
 * (redact.test.ts checks that none is missing).
 */
import { isVariableReference, scanSegments, valueSpan, type Segment, type Word } from './shell-words.ts';

export const REDACTED = '[REDACTED]';

export type RedactionKind =
  | 'authorization_header'
  | 'secret_header'
  | 'bearer_token'
  | 'basic_auth'
  | 'url_password'
  | 'database_url_secret'
  | 'user_password'
  | 'secret_assignment'
  | 'secret_option'
  | 'password_option'
  | 'secret_setting'
  | 'stdin_password'
  | 'npmrc_auth'
  | 'connection_string_secret'
  | 'private_key'
  | 'github_token'
  | 'gitlab_token'
  | 'aws_access_key'
  | 'sk_api_key'
  | 'slack_token'
  | 'slack_webhook'
  | 'npm_token'
  | 'pypi_token'
  | 'google_api_key'
  | 'google_oauth'
  | 'stripe_key'
  | 'huggingface_token'
  | 'digitalocean_token'
  | 'sendgrid_key'
  | 'shopify_token'
  | 'atlassian_token'
  | 'docker_hub_token'
  | 'vault_token'
  | 'databricks_token'
  | 'postman_key'
  | 'linear_key'
  | 'grafana_token'
  | 'newrelic_key'
  | 'age_secret_key'
  | 'telegram_bot_token'
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
export function nameParts(name: string): string[] {
  // What `name.replace(/^-+/, '').replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
  // .split(/[-_.]+/).filter(Boolean)` gives, in one pass and without regular expressions, which
  // a deny's audit record would compile in every hook (a property test checks the two agree).
  const parts: string[] = [];
  let i = 0;
  while (i < name.length && name[i] === '-') i++;
  let part = '';
  let prev = -1;
  for (; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 45 || c === 95 || c === 46) {
      if (part !== '') parts.push(part);
      part = '';
      prev = c;
      continue;
    }
    const upper = c >= 65 && c <= 90;
    if (upper && ((prev >= 97 && prev <= 122) || (prev >= 48 && prev <= 57)) && part !== '') {
      parts.push(part);
      part = '';
    }
    part += name[i]!.toLowerCase();
    prev = c;
  }
  if (part !== '') parts.push(part);
  return parts;
}

const SECRET_SUFFIXES = ['token', 'secret', 'secrets', 'password', 'passwd', 'passphrase', 'credential', 'credentials', 'apikey', 'accesskey', 'privatekey', 'secretkey'];

/**
 * Last part ends with one of these: `PGPASSWORD`, `GITHUB_TOKEN`. Not `tokens`: `--max-tokens`
 * is a number, not a secret.
 */
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
/** Parts that make a name secret wherever they stand (`*_SECRET_*`). */
const SECRET_MIDDLE = new Set(['secret', 'secrets', 'password', 'passwd', 'passphrase', 'token', 'apikey', 'privatekey', 'secretkey']);
/** Last parts that name something about a secret rather than the secret: `SECRET_NAME`, `TOKEN_PATH`. */
const ABOUT_A_SECRET = new Set([
  'name', 'names', 'file', 'files', 'path', 'paths', 'dir', 'id', 'ids', 'arn', 'ref', 'refs', 'type', 'kind', 'env',
  'url', 'uri', 'length', 'len', 'count', 'ttl', 'expiry', 'expires', 'version', 'provider', 'store', 'mode', 'format',
  'header', 'prefix', 'location', 'region', 'required', 'enabled', 'disabled', 'policy', 'rotation', 'source', 'label',
  'stdin', 'prompt', 'command', 'cmd', 'helper', 'hint', 'reset', 'min', 'max', 'expired', 'strength',
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
  if (SECRET_SUFFIXES.some((x) => last.endsWith(x)) || SECRET_WORD.has(last)) return true;
  const pair = parts.slice(-2).join('_');
  if (SECRET_PAIR.has(pair)) return true;
  // `APP_SECRET_B64`, `STRIPE_SECRET_KEY_LIVE`, `DB_PASSWORD_PROD`: a secret word in the middle,
  // unless the last part says the value is about the secret (`SECRET_NAME`, `TOKEN_FILE`).
  return !ABOUT_A_SECRET.has(last) && parts.slice(0, -1).some((p) => SECRET_MIDDLE.has(p));
}

// ---- word-level detectors ----------------------------------------------------------------

/**
 * The audit record is written on every deny: the checks run on each word are hand-written
 * rather than regular expressions, which V8 compiles on their first use in every hook process
 * (about 0.2 ms for the handful a deny used; docs/performance.md). A property test checks each
 * against the expression it replaces.
 */
function isNameChar(c: number, first: boolean): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (!first && c >= 48 && c <= 57);
}

/** `\w*` (or `[\w-]*` with `dash`) from `from` to the end of `s`. */
function isWordChars(s: string, from: number, dash: boolean): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isNameChar(c, false) && !(dash && c === 45)) return false;
  }
  return true;
}

/** The NAME of `NAME=…` at the start of `s` (`/^([A-Za-z_][A-Za-z0-9_]*)=/`), or null. */
export function assignmentName(s: string): string | null {
  let i = 0;
  while (i < s.length && isNameChar(s.charCodeAt(i), i === 0)) i++;
  return i > 0 && s.charCodeAt(i) === 61 ? s.slice(0, i) : null;
}

/** curl's options that take `user:password`. */
const CURL_USER_OPTIONS = new Set(['-u', '--user', '-U', '--proxy-user']);
const MYSQL = new Set(['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlshow', 'mysqlcheck', 'mysqlpump', 'mariadb', 'mariadb-dump', 'mariadb-admin']);
/** Programs whose bare `--password` is a switch (prompt), not followed by the password. */
const PASSWORD_SWITCH_NAMES = new Set(['psql', 'pg_dump', 'pg_dumpall', 'pg_restore', 'createdb', 'dropdb', 'vacuumdb', 'reindexdb', 'clusterdb']);
/** `/^(mysql\w*|mariadb[\w-]*|psql|pg_dump|…)$/`, without a regular expression (see `isWordChars`). */
export function isPasswordSwitchProgram(p: string): boolean {
  if (PASSWORD_SWITCH_NAMES.has(p)) return true;
  if (p.startsWith('mysql')) return isWordChars(p, 5, false);
  if (p.startsWith('mariadb')) return isWordChars(p, 7, true);
  return false;
}
const REGISTRY_LOGIN = new Set(['docker', 'podman', 'buildah', 'skopeo', 'nerdctl', 'helm', 'oras']);

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
  const name = assignmentName(word.value.slice(at));
  if (name === null || !isSecretName(name)) return false;
  addValue(spans, word, at + name.length + 1, 'secret_assignment');
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

/** Words after which `NAME VALUE` sets a setting: `aws configure set`, `npm config set`, `git config`. */
const SETTERS = new Set(['set', 'config', 'config:set', 'config:add']);

/** `aws configure set aws_secret_access_key X`, `git config user.password X`: hide X. */
function settingSpans(seg: Segment, spans: Span[]): void {
  const at = seg.findIndex((w) => SETTERS.has(w.value));
  if (at < 0) return;
  for (let i = at + 1; i < seg.length - 1; i++) {
    const name = (seg[i] as Word).value;
    if (name.startsWith('-') || name.includes('=') || !isSecretName(name)) continue;
    const value = seg[i + 1] as Word;
    if (value.value.startsWith('-')) continue;
    addValue(spans, value, 0, 'secret_setting');
    i++;
  }
}

/** Options that make a program read a password or token from stdin. */
const STDIN_SECRET_FLAGS = new Set(['--password-stdin', '--pass-stdin', '--with-token', '--token-stdin']);

/**
 * `echo SECRET | docker login --password-stdin`, `printf %s SECRET | gh auth login --with-token`:
 * what echo or printf prints is the secret.
 */
function stdinSecretSpans(seg: Segment, next: Segment | undefined, spans: Span[]): void {
  if (!seg.pipe || next === undefined || !next.some((w) => STDIN_SECRET_FLAGS.has(w.value))) return;
  let i = 0;
  while (i < seg.length && assignmentName((seg[i] as Word).value) !== null) i++;
  const program = seg[i] === undefined ? '' : baseName((seg[i] as Word).value);
  if (program !== 'echo' && program !== 'printf') return;
  const args = seg.slice(i + 1).filter((w) => !/^-[neE]+$/.test(w.value));
  // printf FORMAT ARG…: the format is not the secret when arguments follow it.
  const from = program === 'printf' && args.length > 1 && (args[0] as Word).value.includes('%') ? 1 : 0;
  for (const w of args.slice(from)) addValue(spans, w, 0, 'stdin_password');
}

function segmentSpans(seg: Segment, spans: Span[]): void {
  settingSpans(seg, spans);
  const programs = new Set(seg.map((w) => baseName(w.value)));
  const curl = programs.has('curl');
  const httpie = programs.has('http') || programs.has('https');
  const mysql = [...programs].some((p) => MYSQL.has(p));
  const passwordSwitch = [...programs].some((p) => isPasswordSwitchProgram(p));
  const passwordP =
    programs.has('sshpass') || ([...programs].some((p) => REGISTRY_LOGIN.has(p)) && programs.has('login'));
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

/**
 * One text-level shape: where to look (a cheap substring test first: a hook is a fresh process,
 * and an ordinary command then compiles and runs none of the regular expressions), what to
 * match, and which part of the match is the secret.
 */
export interface Shape {
  kind: RedactionKind;
  /** The shape is tried only when the text holds one of these (in the lower-cased text if `nocase`). */
  hints: readonly string[];
  nocase?: boolean;
  /** Global. */
  re: RegExp;
  /**
   * The secret: a capture group's text (`group`, default the whole match), or `rest`: from the
   * end of the match to the closing quote (or whitespace when unquoted), for headers.
   */
  secret?: { group: number } | 'rest';
  /** A further test of the secret's text (say, that it looks like a credential, not a word). */
  accept?: (value: string) => boolean;
}

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

const notVariable = (v: string): boolean => !isVariableReference(v);
/** Not preceded by a character that would make the match part of a longer word. */
const B = '(?<![A-Za-z0-9_])';

/** Every text-level shape, most specific first (overlaps merge, so order only affects `kinds`). */
export const SHAPES: readonly Shape[] = [
  // Headers and credentials in HTTP clients
  { kind: 'authorization_header', hints: ['authorization'], nocase: true, secret: 'rest',
    re: /\b(?:proxy-)?authorization\s*:\s*(?:(bearer|basic|token|digest|negotiate|ntlm|apikey|aws4-hmac-sha256)\s+)?/gi },
  { kind: 'secret_header', hints: ['x-', 'api', 'token', 'cookie'], nocase: true, secret: 'rest',
    re: /(?<![A-Za-z0-9-])(x-[a-z0-9-]*(?:key|token|secret|auth|password|session)[a-z0-9-]*|api-?key|private-token|cookie)\s*:\s*/gi },
  { kind: 'bearer_token', hints: ['bearer'], nocase: true, secret: { group: 1 }, accept: tokenLike, re: /\bbearer\s+([A-Za-z0-9._~+/-]+=*)/gi },
  { kind: 'basic_auth', hints: ['basic'], nocase: true, secret: { group: 1 }, accept: basicCredential,
    re: /\bbasic\s+([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi },
  { kind: 'url_password', hints: ['://'], secret: { group: 1 }, accept: notVariable, re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/@:'"]+:([^\s/@'"]+)@/gi },
  // A database URL's user and query (`postgres://u:pw@db/app?password=…`): never recorded.
  { kind: 'database_url_secret', hints: ['://'], secret: { group: 1 }, accept: notVariable,
    re: /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|sqlserver|cockroachdb|clickhouse):\/\/([^\s/@'"]+)@/gi },
  { kind: 'database_url_secret', hints: ['://'], secret: { group: 1 }, accept: notVariable,
    re: /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|sqlserver|cockroachdb|clickhouse):\/\/[^\s?'"]*\?([^\s'"#]+)/gi },
  { kind: 'private_key', hints: ['PRIVATE KEY-----'], secret: { group: 2 }, accept: (v) => v.trim() !== '',
    re: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----([\s\S]*?)(?=-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  // Settings files written from the command line
  { kind: 'npmrc_auth', hints: [':_auth', ':_password'], secret: { group: 1 }, accept: notVariable,
    re: /:_(?:authToken|auth|password)\s*=\s*["']?([^\s"';&|]+)/g },
  // Azure storage and service bus, ADO.NET / SQL Server: `…;AccountKey=…;`, `…;Password=…;`
  { kind: 'connection_string_secret', hints: ['AccountKey=', 'SharedAccessKey=', 'Password=', 'Pwd='], secret: { group: 1 }, accept: notVariable,
    re: /(?<![A-Za-z-])(?:AccountKey|SharedAccessKey|Password|Pwd)=([^;\s'"]+)/g },
  // Token formats of common services
  { kind: 'github_token', hints: ['gh', 'github_pat_'], re: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`, 'g') },
  { kind: 'gitlab_token', hints: ['gl'], re: new RegExp(`${B}gl(?:pat|dt|rt|ptt|cbt|ft|imt|oas|agent)-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'aws_access_key', hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![0-9A-Za-z])/g },
  // OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…), DeepSeek and others
  { kind: 'sk_api_key', hints: ['sk-'], re: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack_token', hints: ['xox'], re: new RegExp(`${B}xox[abposre]-[A-Za-z0-9-]{10,}`, 'g') },
  { kind: 'slack_webhook', hints: ['hooks.slack.com/'], re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g },
  { kind: 'npm_token', hints: ['npm_'], re: new RegExp(`${B}npm_[A-Za-z0-9]{36,}`, 'g') },
  { kind: 'pypi_token', hints: ['pypi-'], re: new RegExp(`${B}pypi-[A-Za-z0-9_-]{50,}`, 'g') },
  { kind: 'google_api_key', hints: ['AIza'], re: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}`, 'g') },
  // OAuth client secrets, access tokens and refresh tokens
  { kind: 'google_oauth', hints: ['GOCSPX-', 'ya29.', '1//0'], re: new RegExp(`${B}(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\\.[A-Za-z0-9_-]{20,}|1//0[A-Za-z0-9_-]{30,})`, 'g') },
  { kind: 'stripe_key', hints: ['_live_', '_test_', 'whsec_'], re: new RegExp(`${B}(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{24,})`, 'g') },
  { kind: 'huggingface_token', hints: ['hf_'], re: new RegExp(`${B}hf_[A-Za-z0-9]{30,}`, 'g') },
  { kind: 'digitalocean_token', hints: ['do'], re: new RegExp(`${B}do[opr]_v1_[a-f0-9]{64}`, 'g') },
  { kind: 'sendgrid_key', hints: ['SG.'], re: new RegExp(`${B}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{30,}`, 'g') },
  { kind: 'shopify_token', hints: ['shp'], re: new RegExp(`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, 'g') },
  { kind: 'atlassian_token', hints: ['ATATT'], re: new RegExp(`${B}ATATT[A-Za-z0-9_=-]{40,}`, 'g') },
  { kind: 'docker_hub_token', hints: ['dckr_'], re: new RegExp(`${B}dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'vault_token', hints: ['hvs.', 'hvb.'], re: new RegExp(`${B}hv[sb]\\.[A-Za-z0-9_-]{24,}`, 'g') },
  { kind: 'databricks_token', hints: ['dapi'], re: new RegExp(`${B}dapi[a-f0-9]{32}(?:-\\d)?`, 'g') },
  { kind: 'postman_key', hints: ['PMAK-'], re: new RegExp(`${B}PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, 'g') },
  { kind: 'linear_key', hints: ['lin_'], re: new RegExp(`${B}lin_(?:api|oauth)_[A-Za-z0-9]{32,}`, 'g') },
  { kind: 'grafana_token', hints: ['glsa_', 'glc_'], re: new RegExp(`${B}(?:glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})`, 'g') },
  { kind: 'newrelic_key', hints: ['NRAK-', 'NRII-'], re: new RegExp(`${B}NR(?:AK|II)-[A-Z0-9]{27}`, 'g') },
  { kind: 'age_secret_key', hints: ['AGE-SECRET-KEY-1'], re: /AGE-SECRET-KEY-1[0-9A-Z]{58}/g },
  { kind: 'telegram_bot_token', hints: [':AA'], re: /(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  { kind: 'jwt', hints: ['eyJ'], re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g },
];

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

function textSpans(text: string, spans: Span[]): void {
  let lower: string | undefined;
  for (const shape of SHAPES) {
    const hay = shape.nocase ? (lower ??= text.toLowerCase()) : text;
    if (!shape.hints.some((h) => hay.includes(h))) continue;
    for (const m of text.matchAll(shape.re)) {
      const at = m.index as number;
      const whole = m[0] as string;
      let start: number;
      let end: number;
      if (shape.secret === 'rest') {
        start = at + whole.length;
        if (text[start] === '$') continue;
        end = credentialEnd(text, start, quoteAt(text, at));
      } else {
        const group = shape.secret?.group ?? 0;
        const value = m[group];
        if (value === undefined) continue;
        // The group's position: groups here are always the match's last part but for private keys.
        start = group === 0 ? at : at + whole.lastIndexOf(value);
        end = start + value.length;
      }
      if (end <= start || (shape.accept && !shape.accept(text.slice(start, end)))) continue;
      spans.push({ start, end, kind: shape.kind });
    }
  }
}

/**
 * The bodies of `$(…)` and `` `…` `` (raw offsets), at any depth: an assignment inside one
 * (`out=$(API_TOKEN=x curl …)`) is a word of the inner command, not of the outer one.
 */
function substitutionBodies(text: string): [number, number][] {
  const bodies: [number, number][] = [];
  let single = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") single = !single;
    if (single) continue;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '$' && text[i + 1] === '(' && text[i + 2] !== '(') {
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')') depth--;
      }
      bodies.push([i + 2, depth === 0 ? j - 1 : text.length]);
    } else if (c === '`') {
      const close = text.indexOf('`', i + 1);
      const end = close < 0 ? text.length : close;
      bodies.push([i + 1, end]);
      i = end;
    }
  }
  return bodies;
}

function wordSpans(text: string, offset: number, spans: Span[]): void {
  const segments = scanSegments(text);
  const found: Span[] = [];
  for (let k = 0; k < segments.length; k++) {
    segmentSpans(segments[k] as Segment, found);
    stdinSecretSpans(segments[k] as Segment, segments[k + 1], found);
  }
  for (const sp of found) spans.push({ start: sp.start + offset, end: sp.end + offset, kind: sp.kind });
}

// ---- putting it together -----------------------------------------------------------------

export function redactSecrets(text: string): Redaction {
  const spans: Span[] = [];
  wordSpans(text, 0, spans);
  if (text.includes('$(') || text.includes('`')) {
    for (const [start, end] of substitutionBodies(text)) wordSpans(text.slice(start, end), start, spans);
  }
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
