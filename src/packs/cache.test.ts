/** The cache's pure part: stamps change with every input; only a whole record for the stamp is used. */
import { describe, expect, it } from 'vitest';
import { POLICY_FORMAT } from '../core/policy.ts';
import { BUILTIN_GRAMMARS } from '../grammars/builtin.ts';
import { BUILTIN_TEXTS_ID } from '../grammars/builtin-texts.ts';
import { git } from '../grammars/git.ts';
import { CACHE_FORMAT, cacheFileName, cacheFileText, cacheRecordText, DamagedCacheError, readCacheFile, readCacheRecord, stampOf, type CachedLoad, type StampParts } from './cache.ts';

const st = (over: Partial<NonNullable<StampParts['code']['stat']>> = {}) => ({ ino: 7, size: 100, mtimeMs: 1000.5, ctimeMs: 1000.5, ...over });
const base = (): StampParts => ({
  code: { path: '/pkg/dist/buckler.cjs', stat: st() },
  config: { path: '/c/config.toml', stat: null },
  dirs: [
    { dir: '/pkg/packs', files: [{ path: '/pkg/packs/agent-gh.yaml', stat: st() }, { path: '/pkg/packs/agent-git.yaml', stat: st({ ino: 8 }) }] },
    { dir: '/c/rules.d', files: null },
  ],
  options: { tier: null, examples: true },
});

const loaded: CachedLoad = {
  policy: { policy_format: POLICY_FORMAT, tier: 'baseline', packs: [], rules: [
    { id: 'p/any', pack: 'p', triggers: ['pre_shell_exec'], action: 'ask', priority: 50, tier: 'baseline', shell_segments: [{ words_any: ['x'] }], tool_name: null, env: null, user_message: 'u', agent_message: 'a', additional_context: null },
    { id: 'p/r', pack: 'p', triggers: ['pre_shell_exec'], action: 'deny', priority: 50, tier: 'baseline', shell_segments: [{ program: ['git'] }], tool_name: null, env: null, user_message: 'u', agent_message: 'a', additional_context: null },
  ], grammars: {}, env_keys: ['BUCKLER_BYPASS'] },
  config: { tier: 'baseline', audit_log: false, packs: {} },
  warnings: ['w'],
};

/** A record's head (one JSON line) and its sections. */
const split = (record: string): [string, Buffer] => {
  const nl = record.indexOf('\n');
  return nl < 0 ? [record, Buffer.alloc(0)] : [record.slice(0, nl), Buffer.from(record.slice(nl + 1), 'latin1')];
};
const readRecord = (record: string, stamp: string) => {
  const [head, body] = split(record);
  return readCacheRecord(head, stamp, body);
};
/** Section `ref` ([start, length, digest]) of a record, as text. */
const sectionOf = (record: string, ref: [number, number, string]): string => split(record)[1].toString('latin1', ref[0], ref[0] + ref[1]);

describe('stampOf', () => {
  const changes: [string, (p: StampParts) => void][] = [
    ['a pack edited in place (ctime, mtime)', (p) => { p.dirs[0]!.files![0]!.stat = st({ mtimeMs: 2000, ctimeMs: 2000 }); }],
    ['a pack replaced by rename (inode)', (p) => { p.dirs[0]!.files![1]!.stat = st({ ino: 99 }); }],
    ['a pack grew (size)', (p) => { p.dirs[0]!.files![0]!.stat = st({ size: 101 }); }],
    ['a user pack added', (p) => { p.dirs[1]!.files = [{ path: '/c/rules.d/mine.yaml', stat: st() }]; }],
    ['the rules directory created empty', (p) => { p.dirs[1]!.files = []; }],
    ['a builtin pack removed', (p) => { p.dirs[0]!.files!.pop(); }],
    ['config.toml created', (p) => { p.config.stat = st(); }],
    ['the code upgraded', (p) => { p.code.stat = st({ mtimeMs: 5 }); }],
    ['another tier asked for', (p) => { p.options.tier = 'strict'; }],
    ['examples switched off', (p) => { p.options.examples = false; }],
    ['another config location', (p) => { p.config.path = '/d/config.toml'; }],
  ];
  it.each(changes)('changes when %s', (_, change) => {
    const p = base();
    change(p);
    expect(stampOf(p)).not.toBe(stampOf(base()));
  });
  it('is stable for the same inputs', () => expect(stampOf(base())).toBe(stampOf(base())));
});

describe('cacheFileName', () => {
  it('is one of a few fixed names', () => {
    expect(cacheFileName({ tier: null, examples: true })).toBe('policy-config.json');
    expect(cacheFileName({ tier: 'strict', examples: true })).toBe('policy-strict.json');
    expect(cacheFileName({ tier: 'baseline', examples: false })).toBe('policy-baseline-noexamples.json');
  });
});

describe('readCacheRecord', () => {
  const stamp = stampOf(base());
  const record = cacheRecordText(stamp, loaded);
  const [good, body] = split(record);
  it('returns the load for a whole record with the same stamp', () => {
    expect(readCacheRecord(good, stamp, body)).toEqual(loaded);
  });
  it('misses on another stamp', () => expect(readCacheRecord(good, stamp + 'x', body)).toBeNull());
  it.each([0.2, 0.5, 0.9, 0.999])('misses on a record torn at %s of its length', (f) => {
    expect(readRecord(record.slice(0, Math.floor(record.length * f)), stamp)).toBeNull();
  });
  it('keeps in the head only the rules some entry of which names no program', () => {
    expect(JSON.parse(good).loaded.policy.rules.map((r: { id: string }) => r.id)).toEqual(['p/any']);
    expect(JSON.parse(good).sections.programs).toEqual({ git: [1] });
  });
  it('misses on a section changed after it was written', () => {
    const edited = Buffer.from(body.toString('latin1').replace('"deny"', '"allow"'), 'latin1');
    expect(readCacheRecord(good, stamp, edited)).toBeNull();
  });
  const corrupt: [string, (r: any) => void][] = [
    ['an older cache format', (r) => { r.cache_format = 0; }],
    ['an older policy format', (r) => { r.loaded.policy.policy_format = -1; }],
    ['rules not a list', (r) => { r.loaded.policy.rules = {}; }],
    ['a rule with an unknown action', (r) => { r.loaded.policy.rules[0].action = 'maybe'; }],
    ['a rule without an id', (r) => { delete r.loaded.policy.rules[0].id; }],
    ['a rule with segments of the wrong type', (r) => { r.loaded.policy.rules[0].shell_segments = ['git']; }],
    ['env_keys not strings', (r) => { r.loaded.policy.env_keys = [1]; }],
    ['config without audit_log', (r) => { delete r.loaded.config.audit_log; }],
    ['an unknown tier', (r) => { r.loaded.config.tier = 'lax'; }],
    ['warnings missing', (r) => { delete r.loaded.warnings; }],
    ['not an object', (r) => { r.loaded = [1]; }],
    ['grammars not an object', (r) => { r.loaded.policy.grammars = []; }],
    ['a grammar not stored as a section', (r) => { r.loaded.policy.grammars.git = { nested: true }; }],
    ['a grammar stored as a text', (r) => { r.loaded.policy.grammars.git = '{}'; }],
    ['a grammar section past the end', (r) => { r.loaded.policy.grammars.git = [0, 1, '0'.repeat(16)]; }],
    ['a rule section past the end', (r) => { r.sections.rules[1] = [0, body.length + 1, '0'.repeat(16)]; }],
    ['a program naming a rule kept in the head', (r) => { r.sections.programs.git = [0]; }],
    ['a rule section missing', (r) => { r.sections.rules.pop(); }],
    ['sections of another length', (r) => { r.sections.length += 1; }],
  ];
  it.each(corrupt)('misses on %s', (_, spoil) => {
    const r = JSON.parse(good);
    spoil(r);
    expect(readCacheRecord(JSON.stringify(r), stamp, body)).toBeNull();
  });
  it.each(['', 'null', '[]', '{', 'garbage'])('misses on %j', (text) => expect(readCacheRecord(text, stamp)).toBeNull());
});

describe('grammars in the cache record', () => {
  // A policy as the compiler makes it: every builtin program, one of them extended, one added.
  const extendedGit = { ...git, dashed: false };
  const full: CachedLoad = { ...loaded, policy: { ...loaded.policy, grammars: { ...BUILTIN_GRAMMARS, git: extendedGit, tool: { nested: true } } } };
  const stamp = stampOf(base());
  const text = cacheRecordText(stamp, full);

  it('stores only what differs from the builtin programs, one JSON text per program', () => {
    const rec = JSON.parse(split(text)[0]);
    expect(Object.keys(rec.loaded.policy.grammars).sort()).toEqual(['git', 'tool']);
    expect(sectionOf(text, rec.loaded.policy.grammars.git)).toBe(JSON.stringify(extendedGit));
    expect(sectionOf(text, rec.loaded.policy.grammars.tool)).toBe('{"nested":true}');
  });

  it('marks a builtin program the policy lacks with an empty text, and leaves it out when read', () => {
    const { rm: _rm, ...withoutRm } = BUILTIN_GRAMMARS;
    const lacking: CachedLoad = { ...loaded, policy: { ...loaded.policy, grammars: withoutRm } };
    const t = cacheRecordText(stamp, lacking);
    expect(JSON.parse(split(t)[0]).loaded.policy.grammars).toEqual({ rm: '' });
    const got = readRecord(t, stamp)!.policy.grammars;
    expect(Object.hasOwn(got, 'rm')).toBe(false);
    expect(Object.keys(got).sort()).toEqual(Object.keys(withoutRm).sort());
  });

  it('are parsed on first lookup only, then kept', () => {
    const got = readRecord(text, stamp)!.policy.grammars;
    expect(Object.keys(got).sort()).toEqual([...Object.keys(BUILTIN_GRAMMARS), 'tool'].sort());
    for (const name of ['git', 'tool', 'rm']) expect(Object.getOwnPropertyDescriptor(got, name)?.get, name).toBeTypeOf('function');
    expect(Object.hasOwn(got, 'git')).toBe(true);
    expect(got['git']).toEqual(extendedGit);
    expect(Object.getOwnPropertyDescriptor(got, 'git')).toMatchObject({ value: extendedGit, enumerable: true });
    expect(got['git']).toBe(got['git']);
    expect(got['rm']).toEqual(BUILTIN_GRAMMARS['rm']);
  });

  it('read back equal to what was written', () => {
    expect(readRecord(text, stamp)).toEqual(full);
  });

  it('a hook verifies a section when it first uses it: a damaged one fails loudly then, the others still read', () => {
    const ref = JSON.parse(split(text)[0]).loaded.policy.grammars.git as [number, number, string];
    const file = Buffer.from(cacheFileText(stamp, full), 'latin1');
    const at = file.indexOf('\n', file.indexOf('\n') + 1) + 1 + ref[0] + 3;
    file[at] = file[at] === 0x61 ? 0x62 : 0x61;
    expect(readCacheFile(file, stamp).kind).toBe('damaged');
    const verdict = readCacheFile(file, stamp, { lazy: true });
    expect(verdict.kind).toBe('hit');
    const got = (verdict as { loaded: CachedLoad }).loaded.policy;
    expect(() => got.grammars['git']).toThrow(DamagedCacheError);
    expect(() => got.grammars['git']).toThrow(/compiled-pack cache is damaged \(grammar of 'git'\); delete the cache directory/);
    expect(got.grammars['tool']).toEqual({ nested: true });
    expect(got.rule_buckets!.forProgram('git').map((r) => [r.rule.id, r.order])).toEqual([['p/r', 1]]);
  });

  it('a hook reads the rules of a program only when asked for them, and every rule when `rules` is read', () => {
    const file = Buffer.from(cacheFileText(stamp, full), 'latin1');
    const got = (readCacheFile(file, stamp, { lazy: true }) as { loaded: CachedLoad }).loaded.policy;
    expect(got.rule_buckets!.common.map((r) => [r.rule.id, r.order])).toEqual([['p/any', 0]]);
    expect(Object.getOwnPropertyDescriptor(got, 'rules')?.get).toBeTypeOf('function');
    expect(got.rule_buckets!.forProgram('rm')).toEqual([]);
    expect(got.rules.map((r) => r.id)).toEqual(['p/any', 'p/r']);
    expect(Object.getOwnPropertyDescriptor(got, 'rules')?.value).toBe(got.rules);
  });

  it('the stamp names the builtin programs the record is relative to', () => {
    expect(stamp.split('\n')[0]).toBe(`format\t${CACHE_FORMAT}\t${POLICY_FORMAT}\t${BUILTIN_TEXTS_ID}`);
  });
});

describe('readCacheFile: the digest binds the record to the stamp', () => {
  const stamp = stampOf(base());
  const file = Buffer.from(cacheFileText(stamp, loaded));
  it('a file as written is a hit', () => {
    expect(readCacheFile(file, stamp)).toEqual({ kind: 'hit', loaded });
  });
  it('is ASCII even for text that is not, and reads that text back unchanged', () => {
    const rule = { ...loaded.policy.rules[0]!, user_message: 'Blocked `{command}` … — ⏎ 😀 ü', agent_message: '\u2028 “quoted”' };
    const wide: CachedLoad = { ...loaded, policy: { ...loaded.policy, rules: [rule] } };
    const bytes = Buffer.from(cacheFileText(stamp, wide), 'utf8');
    expect(bytes.every((b) => b < 0x80)).toBe(true);
    expect(readCacheFile(bytes, stamp)).toEqual({ kind: 'hit', loaded: wide });
  });
  it('an intact file for other inputs is stale, not damaged', () => {
    const other = stampOf({ ...base(), options: { tier: 'strict', examples: true } });
    expect(readCacheFile(file, other)).toEqual({ kind: 'stale' });
  });
  it('every single changed byte of the record is refused', () => {
    const start = file.indexOf(0x0a) + 1;
    for (let i = start; i < file.length; i++) {
      const copy = Buffer.from(file);
      copy[i] = copy[i] === 0x61 ? 0x62 : 0x61;
      expect(readCacheFile(copy, stamp).kind, `byte ${i}`).toBe('damaged');
    }
  });
  it('a deny turned into an allow, or a changed digest, is damaged', () => {
    const edited = Buffer.from(file.toString('utf8').replace('"action":"deny"', '"action":"allow"'));
    expect(readCacheFile(edited, stamp)).toMatchObject({ kind: 'damaged', reason: expect.stringMatching(/digest mismatch/) });
    const text = file.toString('utf8');
    const digest = /digest=([0-9a-f]{16})/.exec(text)![1]!;
    const other = digest === '0'.repeat(16) ? '1'.repeat(16) : '0'.repeat(16);
    expect(readCacheFile(Buffer.from(text.replace(`digest=${digest}`, `digest=${other}`)), stamp).kind).toBe('damaged');
  });
  it.each([
    ['empty', ''],
    ['no header', cacheRecordText(stamp, loaded).replace(`"cache_format":${CACHE_FORMAT}`, `"cache_format" :${CACHE_FORMAT}`)],
    ['a header with no record', `buckler-policy-cache v${CACHE_FORMAT} digest=${'0'.repeat(16)}\n`],
    ['a header of a later format', `buckler-policy-cache v${CACHE_FORMAT + 1} digest=${'0'.repeat(16)}\n{}`],
  ])('%s is damaged', (_, text) => {
    expect(readCacheFile(Buffer.from(text), stamp).kind).toBe('damaged');
  });
  it('a file of an earlier format, with its header, is stale (replaced quietly after an upgrade)', () => {
    const older = `buckler-policy-cache v${CACHE_FORMAT - 1} digest=${'0'.repeat(16)}\n{"cache_format":${CACHE_FORMAT - 1}}`;
    expect(readCacheFile(Buffer.from(older), stamp)).toEqual({ kind: 'stale' });
  });
  it('a bare record of an earlier version is stale (replaced quietly after an upgrade)', () => {
    expect(readCacheFile(Buffer.from(cacheRecordText(stamp, loaded)), stamp)).toEqual({ kind: 'stale' });
  });
});
