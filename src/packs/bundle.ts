/**
 * Signed pack bundles (docs/pack-bundles.md): one file that carries one or more packs, a
 * manifest (name, version, the pack format it needs, a SHA-256 digest of each file) and one or
 * more detached Ed25519 signatures over the manifest. Made by `buckler pack sign`, checked by
 * `buckler pack install|update|rollback` and whenever the packs cache is compiled; never on a
 * warm hook (runtime.ts only stats the installed files there).
 *
 * Offline by construction: verification needs the bundle's bytes and the trusted public keys
 * from config.toml, nothing else. Node's own `node:crypto` does the signing (no dependency).
 *
 * The file, bundle format 1 (UTF-8 JSON; every field required unless noted):
 *
 *   {
 *     "buckler_bundle": 1,
 *     "manifest": "<manifest JSON, as a string: these exact bytes are what is signed>",
 *     "signatures": [ { "key": "ed25519:<base64url public key>", "sig": "<base64 signature>" } ],
 *     "files": { "<file name>": "<file text>", ... }
 *   }
 *
 *   manifest = { "bundle_format": 1, "name": N, "version": "x.y.z", "pack_format": "1",
 *                "files": [ { "path": "team.yaml", "size": <bytes>, "sha256": "<hex>" } ] }
 *
 *   signature = Ed25519(private key, "buckler-bundle-signature-v1\n" + manifest bytes)
 *
 * The prefix keeps a signature made for something else from ever passing as a bundle
 * signature. The manifest is kept as the signed text itself (not re-serialised), so no JSON
 * canonicalisation is involved.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { PACK_FORMAT } from './schema.ts';

const BUNDLE_FORMAT = 1;
export const SIGNATURE_CONTEXT = 'buckler-bundle-signature-v1\n';
/** A bundle larger than this is refused before it is parsed (also the download limit). */
export const MAX_BUNDLE_BYTES = 16 * 1024 * 1024;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const VERSION = /^\d{1,9}(\.\d{1,9}){0,3}$/;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\.ya?ml$/;
const KEY = /^ed25519:([A-Za-z0-9_-]{43})$/;

/** Why a bundle is refused: one word for scripts and tests, and a sentence for people. */
export type RefusalReason =
  | 'malformed'
  | 'untrusted-key'
  | 'bad-signature'
  | 'content-mismatch'
  | 'pack-format'
  | 'downgrade'
  | 'collision'
  | 'name-mismatch';

export class BundleRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface BundleManifest {
  bundle_format: number;
  name: string;
  version: string;
  pack_format: string;
  files: ManifestFile[];
}

export interface VerifiedBundle {
  manifest: BundleManifest;
  /** The trusted key whose signature verified. */
  key: string;
  /** File name → text, exactly the files the manifest lists, in manifest order. */
  files: { path: string; text: string }[];
  /** SHA-256 of the whole bundle file (hex): what `pack list` shows to compare machines. */
  digest: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

export const isBundleName = (s: string): boolean => NAME.test(s) && s !== '.' && s !== '..';
const isBundleVersion = (s: string): boolean => VERSION.test(s);

/** -1, 0 or 1, comparing dotted numbers (`1.10.0` > `1.9.3`): bundle versions, harness versions. */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** `ed25519:<base64url of the 32 raw bytes>`: the one-line form config.toml holds. */
export function publicKeyText(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new Error('not an Ed25519 key');
  return `ed25519:${jwk.x}`;
}

/** The key part of a trusted-key entry (`ed25519:… optional comment`), or null when malformed. */
export function trustedKeyOf(entry: string): string | null {
  const key = entry.trim().split(/\s+/)[0] ?? '';
  return KEY.test(key) ? key : null;
}

/** A short, stable name for a key in messages: `ed25519:` + its first 12 characters + `…`. */
export function shortKey(key: string): string {
  return key.length > 22 ? `${key.slice(0, 20)}…` : key;
}

function publicKeyObject(text: string): KeyObject {
  const m = KEY.exec(text);
  if (!m) throw new Error(`not an Ed25519 public key: ${text}`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: m[1] as string }, format: 'jwk' });
}

/** A new key pair: the private key as PKCS#8 PEM (the same form `openssl genpkey -algorithm ed25519` writes). */
export function generateKeys(): { privatePem: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey: publicKeyText(publicKey) };
}

/** A PKCS#8 PEM Ed25519 private key; throws with a readable message otherwise. */
export function readPrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (e) {
    throw new Error(`not a PEM private key (${e instanceof Error ? e.message : String(e)})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an Ed25519 key is needed, not ${key.asymmetricKeyType ?? 'this kind of key'}`);
  return key;
}

export interface BundleInput {
  name: string;
  version: string;
  /** Pack files: name → text. */
  files: Record<string, string>;
  privateKeys: KeyObject[];
  /** Defaults to the pack format of this Buckler. */
  packFormat?: string;
}

/** Builds a bundle file's text. Throws on an unusable name, version or file name. */
export function createBundle(input: BundleInput): string {
  if (!isBundleName(input.name)) throw new Error(`bundle name "${input.name}" must be letters, digits, "-", "_" or "." (at most 64)`);
  if (!isBundleVersion(input.version)) throw new Error(`bundle version "${input.version}" must be dotted numbers, like 1.4.0`);
  if (input.privateKeys.length === 0) throw new Error('at least one private key is needed');
  const names = Object.keys(input.files).sort();
  if (names.length === 0) throw new Error('a bundle needs at least one pack file (*.yaml)');
  for (const n of names) if (!FILE_NAME.test(n)) throw new Error(`file name "${n}" must be a plain *.yaml or *.yml name`);
  const manifest: BundleManifest = {
    bundle_format: BUNDLE_FORMAT,
    name: input.name,
    version: input.version,
    pack_format: input.packFormat ?? PACK_FORMAT,
    files: names.map((n) => ({ path: n, size: Buffer.byteLength(input.files[n]!, 'utf8'), sha256: sha256(input.files[n]!) })),
  };
  const manifestText = JSON.stringify(manifest);
  const signed = Buffer.from(SIGNATURE_CONTEXT + manifestText, 'utf8');
  const signatures = input.privateKeys.map((k) => ({
    key: publicKeyText(createPublicKey(k)),
    sig: sign(null, signed, k).toString('base64'),
  }));
  const files: Record<string, string> = {};
  for (const n of names) files[n] = input.files[n]!;
  return `${JSON.stringify({ buckler_bundle: BUNDLE_FORMAT, manifest: manifestText, signatures, files }, null, 1)}\n`;
}

function malformed(why: string): BundleRefused {
  return new BundleRefused('malformed', `not a usable pack bundle: ${why}`);
}

function readManifest(text: string): BundleManifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    throw malformed('the manifest is not JSON');
  }
  if (!isObject(m)) throw malformed('the manifest is not an object');
  if (m['bundle_format'] !== BUNDLE_FORMAT) throw malformed(`manifest bundle format ${JSON.stringify(m['bundle_format'])} is not ${BUNDLE_FORMAT}`);
  const { name, version, pack_format: packFormat, files } = m;
  if (typeof name !== 'string' || !isBundleName(name)) throw malformed('the manifest has no usable name');
  if (typeof version !== 'string' || !isBundleVersion(version)) throw malformed('the manifest has no usable version (dotted numbers)');
  if (typeof packFormat !== 'string' || packFormat === '') throw malformed('the manifest has no pack_format');
  if (!Array.isArray(files) || files.length === 0) throw malformed('the manifest lists no files');
  const seen = new Set<string>();
  const list: ManifestFile[] = files.map((f: unknown) => {
    if (!isObject(f) || typeof f['path'] !== 'string' || typeof f['sha256'] !== 'string' || typeof f['size'] !== 'number') {
      throw malformed('a manifest file entry needs path, size and sha256');
    }
    if (!FILE_NAME.test(f['path'])) throw malformed(`manifest file name "${f['path']}" is not a plain *.yaml name`);
    if (seen.has(f['path'])) throw malformed(`manifest lists "${f['path']}" twice`);
    seen.add(f['path']);
    return { path: f['path'], size: f['size'], sha256: f['sha256'] };
  });
  return { bundle_format: BUNDLE_FORMAT, name, version, pack_format: packFormat, files: list };
}

/**
 * Checks a bundle completely, in this order: its shape; a signature by a trusted key (the
 * content is not looked at before that); the content against the manifest; the pack format.
 * Throws `BundleRefused` naming the first reason found.
 */
export function verifyBundle(bytes: string | Uint8Array, trustedKeys: readonly string[]): VerifiedBundle {
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.length;
  if (size > MAX_BUNDLE_BYTES) throw malformed(`larger than ${MAX_BUNDLE_BYTES} bytes`);
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw malformed('not JSON');
  }
  if (!isObject(doc)) throw malformed('not a JSON object');
  if (doc['buckler_bundle'] !== BUNDLE_FORMAT) {
    throw malformed(`bundle format ${JSON.stringify(doc['buckler_bundle'] ?? null)} is not ${BUNDLE_FORMAT}, the one this Buckler reads`);
  }
  const manifestText = doc['manifest'];
  const sigs = doc['signatures'];
  const files = doc['files'];
  if (typeof manifestText !== 'string') throw malformed('no manifest');
  if (!Array.isArray(sigs) || sigs.length === 0) throw malformed('no signature');
  if (!isObject(files)) throw malformed('no files');

  // Signature first: nothing else in an unsigned or foreign bundle is worth believing.
  const trusted = new Set(trustedKeys);
  const signed = Buffer.from(SIGNATURE_CONTEXT + manifestText, 'utf8');
  const signers: string[] = [];
  let key: string | null = null;
  let badByTrusted = false;
  for (const s of sigs) {
    if (!isObject(s) || typeof s['key'] !== 'string' || typeof s['sig'] !== 'string') throw malformed('a signature needs key and sig');
    signers.push(s['key']);
    if (!trusted.has(s['key'])) continue;
    let ok = false;
    try {
      ok = verify(null, signed, publicKeyObject(s['key']), Buffer.from(s['sig'], 'base64'));
    } catch {
      ok = false;
    }
    if (ok) {
      key = s['key'];
      break;
    }
    badByTrusted = true;
  }
  if (key === null) {
    if (badByTrusted) throw new BundleRefused('bad-signature', 'bad signature: the signature of a trusted key does not match the manifest (altered, or damaged in transit)');
    throw new BundleRefused(
      'untrusted-key',
      `signed by no trusted key (signed by ${signers.map(shortKey).join(', ')}; trust a key with [bundles] trusted_keys in config.toml)`,
    );
  }

  const manifest = readManifest(manifestText);
  const out: VerifiedBundle['files'] = [];
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const name of Object.keys(files)) {
    if (!listed.has(name)) throw new BundleRefused('content-mismatch', `content does not match the manifest: "${name}" is not in the manifest`);
  }
  for (const f of manifest.files) {
    const t = files[f.path];
    if (typeof t !== 'string') throw new BundleRefused('content-mismatch', `content does not match the manifest: "${f.path}" is missing`);
    if (Buffer.byteLength(t, 'utf8') !== f.size || sha256(t) !== f.sha256) {
      throw new BundleRefused('content-mismatch', `content does not match the manifest: "${f.path}" differs from its signed digest`);
    }
    out.push({ path: f.path, text: t });
  }
  if (manifest.pack_format !== PACK_FORMAT) {
    throw new BundleRefused('pack-format', `needs pack format "${manifest.pack_format}"; this Buckler reads pack format "${PACK_FORMAT}" (update Buckler first)`);
  }
  return { manifest, key, files: out, digest: sha256(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes) };
}
