/**
 * Differential tests on inputs nobody wrote for this parser:
 *  - the corpus (mvdan/sh test inputs and error cases, tree-sitter-bash corpus) against stored
 *    `bash -n` verdicts (scripts/corpus-verdicts.mjs), and argv against mvdan-sh;
 *  - a bounded sample of real shell scripts found on this machine, against live `bash -n`.
 * Differences are allowed only when listed, with a reason, in testdata/known-disagreements.json.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeCommandLine } from './index.ts';
import { Parser } from './parser.ts';
import { MVDAN_CLAUSES, type RawPart, mvdanArgv, mvdanCalls, ourArgv } from './testdata/mvdan-argv.ts';
import { ShellParseError } from './types.ts';

type SetName = 'mvdan_filetests' | 'mvdan_errcases' | 'ts_corpus';
interface Verdict {
  set: SetName;
  index: number;
  sha: string;
  bash: 'accept' | 'reject';
}
interface Known {
  set: SetName;
  index: number;
  sha: string;
  reason: string;
}

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8'));
const corpus = read('shell-snippets.json') as Record<SetName, Array<string | { name: string; src: string }>>;
const verdicts = (read('bash-verdicts.json') as { entries: Verdict[] }).entries;
const known = read('known-disagreements.json') as { bash: Known[]; mvdan: Known[] };
const mvdan = (read('mvdan-calls.json') as { entries: Array<{ set: SetName; index: number; sha: string; calls?: RawPart[][][]; error?: string }> }).entries;

/** Same extraction as scripts/corpus-verdicts.mjs. */
function source(set: SetName, index: number): string {
  const e = corpus[set][index];
  if (typeof e === 'string') return e;
  if (e === undefined) throw new Error(`no corpus entry ${set}#${index}`);
  const i = e.src.search(/\n\n---\n\n\(/);
  return i === -1 ? e.src : e.src.slice(0, i);
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
const keyOf = (e: { set: string; index: number }): string => `${e.set}#${e.index}`;

function ourVerdict(src: string): 'accept' | 'reject' {
  try {
    Parser.parse(src, 0, { maxDepth: 8, maxNesting: 64, nesting: 0 }, 0);
    return 'accept';
  } catch (e) {
    if (e instanceof ShellParseError) return 'reject';
    throw e;
  }
}

describe('corpus vs bash -n', () => {
  it('has verdicts for every snippet, computed from the same text', () => {
    const total = corpus.mvdan_filetests.length + corpus.mvdan_errcases.length + corpus.ts_corpus.length;
    expect(verdicts.length).toBe(total);
    const stale = verdicts.filter((v) => sha(source(v.set, v.index)) !== v.sha).map(keyOf);
    expect(stale, 'run node scripts/corpus-verdicts.mjs').toEqual([]);
  });

  it('agrees with bash -n except for the reviewed list', () => {
    const listed = new Map(known.bash.map((k) => [keyOf(k), k]));
    const unexpected: string[] = [];
    const fixed: string[] = [];
    let agree = 0;
    for (const v of verdicts) {
      const src = source(v.set, v.index);
      const ours = ourVerdict(src);
      const k = listed.get(keyOf(v));
      if (ours === v.bash) {
        agree++;
        if (k !== undefined) fixed.push(keyOf(v));
      } else if (k === undefined || k.sha !== v.sha) {
        unexpected.push(`${keyOf(v)} bash=${v.bash} ours=${ours}: ${JSON.stringify(src).slice(0, 160)}`);
      }
    }
    expect(unexpected, 'new disagreements with bash -n').toEqual([]);
    expect(fixed, 'listed disagreements that no longer occur: remove them').toEqual([]);
    expect(agree).toBe(verdicts.length - known.bash.length);
  });
});

describe('corpus argv vs mvdan-sh', () => {
  it('stored mvdan-sh answers match the corpus and a live run of mvdan-sh', () => {
    expect(mvdan.length).toBe(verdicts.length);
    expect(mvdan.filter((m) => sha(source(m.set, m.index)) !== m.sha).map(keyOf), 'run node scripts/corpus-verdicts.mjs').toEqual([]);
    // Spot check: the stored answers are what mvdan-sh says (every 60th snippet).
    for (const m of mvdan.filter((_, i) => i % 60 === 0)) {
      let live: RawPart[][][] | { error: true };
      try {
        live = mvdanCalls(source(m.set, m.index));
      } catch {
        live = { error: true };
      }
      expect(live, keyOf(m)).toEqual(m.calls ?? { error: true });
    }
  });

  it('finds the same simple commands wherever both accept, except for the reviewed list', () => {
    const listed = new Map(known.mvdan.map((k) => [keyOf(k), k]));
    const unexpected: string[] = [];
    const fixed: string[] = [];
    const sorted = (l: string[][]): string =>
      l
        .filter((a) => !MVDAN_CLAUSES.has(a[0] ?? ''))
        .map((a) => JSON.stringify(a))
        .sort()
        .join('\n');
    let both = 0;
    let same = 0;
    for (const m of mvdan) {
      if (m.calls === undefined) continue;
      const src = source(m.set, m.index);
      let ours: string[][];
      try {
        ours = ourArgv(src);
      } catch {
        continue;
      }
      both++;
      const ok = sorted(ours) === sorted(mvdanArgv(m.calls));
      if (ok) same++;
      const k = listed.get(keyOf(m));
      if (ok && k !== undefined) fixed.push(keyOf(m));
      if (!ok && (k === undefined || k.sha !== m.sha)) {
        unexpected.push(`${keyOf(m)} ${JSON.stringify(src).slice(0, 120)}\n  ours:   ${sorted(ours)}\n  mvdan:  ${sorted(mvdanArgv(m.calls))}`);
      }
    }
    expect(unexpected, 'new argv differences with mvdan-sh').toEqual([]);
    expect(fixed, 'listed differences that no longer occur: remove them').toEqual([]);
    expect(same).toBe(both - known.mvdan.length);
  });
});

/** Real scripts on this machine: a bounded, deterministic sample, judged by live `bash -n`. */
function realScripts(limit: number): string[] {
  const found = spawnSync(
    'sh',
    ['-c', "find /usr/bin /usr/sbin /usr/share /etc -type f -size -64k 2>/dev/null | xargs grep -lE '^#!.*\\b(ba)?sh\\b' 2>/dev/null"],
    { encoding: 'utf8', timeout: 20_000, maxBuffer: 16 << 20 },
  );
  const files = (found.stdout ?? '').split('\n').filter((f) => f !== '').sort();
  const step = Math.max(1, Math.floor(files.length / limit));
  return files.filter((_, i) => i % step === 0).slice(0, limit);
}

const hasBash = spawnSync('bash', ['-c', 'exit 0']).status === 0;
const scripts = hasBash ? realScripts(40) : [];

describe.skipIf(scripts.length === 0)('real scripts vs live bash -n', () => {
  it(`agrees on a sample of ${scripts.length} scripts and analyses every accepted one`, () => {
    const disagreements: string[] = [];
    for (const file of scripts) {
      let text: string;
      try {
        text = readFileSync(file, 'latin1');
      } catch {
        continue;
      }
      const r = spawnSync('bash', ['-n', file], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LC_ALL: 'C' } });
      const errors = (r.stderr ?? '').split('\n').filter((l) => l.trim() !== '' && !/here-document at line \d+ delimited by end-of-file/.test(l));
      const bash = r.status === 0 && errors.length === 0 ? 'accept' : 'reject';
      const ours = ourVerdict(text);
      if (ours !== bash) disagreements.push(`${file}: bash=${bash} ours=${ours} ${errors[0] ?? ''}`);
      if (ours === 'accept') {
        // Whole analysis (unwrapping, nested scripts) must not fail where the parse succeeded,
        // except by the depth/size bounds.
        try {
          analyzeCommandLine(text, { maxBytes: 1 << 20 });
        } catch (e) {
          if (!(e instanceof ShellParseError) || (e.code !== 'too_deep' && e.code !== 'too_large')) {
            disagreements.push(`${file}: analysis failed: ${String(e)}`);
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
