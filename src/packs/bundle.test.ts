/**
 * The bundle format (bundle.ts): what verifies, and each reason a bundle is refused, as a
 * table; keys and versions. Keys are generated per run (node:crypto), nothing is stored.
 */
import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BundleRefused,
  compareVersions,
  createBundle,
  generateKeys,
  readPrivateKey,
  SIGNATURE_CONTEXT,
  trustedKeyOf,
  verifyBundle,
  type RefusalReason,
} from './bundle.ts';
import { parseConfig } from './config.ts';

const team = generateKeys();
const other = generateKeys();
const teamKey = readPrivateKey(team.privatePem);
const PACK = 'pack: acme\nversion: "1"\nrules: []\n';
const make = (over: Partial<Parameters<typeof createBundle>[0]> = {}): string =>
  createBundle({ name: 'acme', version: '1.2.0', files: { 'acme.yaml': PACK }, privateKeys: [teamKey], ...over });

type Doc = { buckler_bundle: unknown; manifest: string; signatures: { key: string; sig: string }[]; files: Record<string, string> };
const edit = (f: (d: Doc) => void): string => {
  const d = JSON.parse(make()) as Doc;
  f(d);
  return JSON.stringify(d);
};

function refusal(text: string, trusted = [team.publicKey]): RefusalReason | 'accepted' {
  try {
    verifyBundle(text, trusted);
    return 'accepted';
  } catch (e) {
    if (e instanceof BundleRefused) return e.reason;
    throw e;
  }
}

describe('verifyBundle', () => {
  it('accepts a bundle signed by a trusted key, with its files, manifest and digest', () => {
    const v = verifyBundle(make(), [other.publicKey, team.publicKey]);
    expect(v.key).toBe(team.publicKey);
    expect(v.manifest).toMatchObject({ bundle_format: 1, name: 'acme', version: '1.2.0', pack_format: '1' });
    expect(v.files).toEqual([{ path: 'acme.yaml', text: PACK }]);
    expect(v.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each<[string, string, RefusalReason, RegExp]>([
    ['no trusted key at all', make(), 'untrusted-key', /signed by no trusted key/],
    ['signed by another key', make({ privateKeys: [readPrivateKey(other.privatePem)] }), 'untrusted-key', /signed by no trusted key/],
    ['a file changed after signing', edit((d) => (d.files['acme.yaml'] = `${PACK}# x\n`)), 'content-mismatch', /"acme.yaml" differs/],
    ['a file added after signing', edit((d) => (d.files['extra.yaml'] = PACK)), 'content-mismatch', /"extra.yaml" is not in the manifest/],
    ['a file removed after signing', edit((d) => delete d.files['acme.yaml']), 'content-mismatch', /"acme.yaml" is missing/],
    ['the manifest changed after signing', edit((d) => (d.manifest = d.manifest.replace('1.2.0', '9.0.0'))), 'bad-signature', /bad signature/],
    ['the signature swapped for another key claiming to be trusted', edit((d) => (d.signatures[0]!.sig = Buffer.alloc(64).toString('base64'))), 'bad-signature', /bad signature/],
    ['a newer pack format', make({ packFormat: '2' }), 'pack-format', /needs pack format "2"; this Buckler reads pack format "1"/],
    ['a newer bundle format', edit((d) => (d.buckler_bundle = 2)), 'malformed', /bundle format 2 is not 1/],
    ['not JSON', '{"buckler_bundle": 1', 'malformed', /not JSON/],
    ['no signature', edit((d) => (d.signatures = [])), 'malformed', /no signature/],
  ])('%s: refused (%s)', (_what, text, reason, message) => {
    const trusted = _what === 'no trusted key at all' ? [] : [team.publicKey];
    expect(refusal(text, trusted)).toBe(reason);
    expect(() => verifyBundle(text, trusted)).toThrow(message);
  });

  it('a signature over the same bytes without the context prefix does not verify', async () => {
    const { sign } = await import('node:crypto');
    const d = JSON.parse(make()) as Doc;
    d.signatures[0]!.sig = sign(null, Buffer.from(d.manifest), createPrivateKey(team.privatePem)).toString('base64');
    expect(SIGNATURE_CONTEXT).toBe('buckler-bundle-signature-v1\n');
    expect(refusal(JSON.stringify(d))).toBe('bad-signature');
  });

  it('several signatures: one by a trusted key is enough (key rotation on the publishing side)', () => {
    const both = make({ privateKeys: [readPrivateKey(other.privatePem), teamKey] });
    expect(verifyBundle(both, [team.publicKey]).key).toBe(team.publicKey);
    expect(verifyBundle(both, [other.publicKey]).key).toBe(other.publicKey);
  });
});

describe('createBundle', () => {
  it.each([
    [{ name: '../x' }, /bundle name/],
    [{ version: '1.2.0-beta' }, /bundle version/],
    [{ files: { 'sub/dir.yaml': PACK } }, /plain \*\.yaml/],
    [{ files: {} }, /at least one pack file/],
    [{ privateKeys: [] }, /private key/],
  ])('refuses %o', (over, message) => {
    expect(() => make(over as Partial<Parameters<typeof createBundle>[0]>)).toThrow(message);
  });
});

describe('keys and versions', () => {
  it('trusted-key entries: the key, then an optional comment', () => {
    expect(trustedKeyOf(`${team.publicKey} laptop key`)).toBe(team.publicKey);
    expect(trustedKeyOf(team.publicKey.slice(0, -1))).toBeNull();
    expect(trustedKeyOf('ssh-ed25519 AAAA')).toBeNull();
  });

  it('readPrivateKey wants an Ed25519 PEM key', () => {
    expect(() => readPrivateKey('nope')).toThrow(/not a PEM private key/);
  });

  it.each([
    ['1.10.0', '1.9.3', 1],
    ['1.2', '1.2.0', 0],
    ['2.0.0', '10.0.0', -1],
  ])('%s vs %s', (a, b, want) => {
    expect(compareVersions(a, b)).toBe(want);
  });

  it('config.toml [bundles] trusted_keys: keys kept, malformed entries warned about', () => {
    const { config, problems } = parseConfig(`[bundles]\ntrusted_keys = ["${team.publicKey} team", "nope", 3, "${team.publicKey}"]\n`, 'config.toml');
    expect(config.trusted_keys).toEqual([team.publicKey]);
    expect(problems.map((p) => p.message)).toEqual([
      'bundles.trusted_keys: "nope" is not an "ed25519:<43 base64url characters>" key (ignored)',
      'bundles.trusted_keys: 3 is not an "ed25519:<43 base64url characters>" key (ignored)',
    ]);
    expect(parseConfig('[bundles]\ntrusted_keys = "x"\n', 'c').problems[0]?.message).toMatch(/must be a list/);
    expect(parseConfig('[core]\ntier = "baseline"\n', 'c').config.trusted_keys).toBeUndefined();
  });
});
