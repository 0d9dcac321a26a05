#!/usr/bin/env node
// Precomputes the oracles' answers for the shell corpus (src/shell/testdata/shell-snippets.json),
// so the differential test (src/shell/corpus.test.ts) needs neither bash nor a slow oracle:
//  - bash-verdicts.json: `bash -n` accept/reject per snippet;
//  - mvdan-calls.json: the words of every command (CallExpr) mvdan-sh finds, as raw parts.
// Usage: node scripts/corpus-verdicts.mjs          (rewrite both files)
//        node scripts/corpus-verdicts.mjs --check  (exit 1 when a stored file is stale)
// A snippet is "accept" when `bash -n` exits 0 and prints nothing except the here-document
// end-of-file warning (bash 5.2 prints some `[[ … ]]` errors yet exits 0: those are "reject").
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = new URL('../src/shell/testdata/', import.meta.url);
const corpus = JSON.parse(readFileSync(new URL('shell-snippets.json', dir), 'utf8'));
const outFile = new URL('bash-verdicts.json', dir);

/** The shell source of a corpus entry (tree-sitter entries carry their expected tree after `---`). */
export function snippetSource(set, entry) {
  if (set !== 'ts_corpus') return entry;
  const i = entry.src.search(/\n\n---\n\n\(/);
  return i === -1 ? entry.src : entry.src.slice(0, i);
}

const sha = (s) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const HEREDOC_EOF = /warning: here-document at line \d+ delimited by end-of-file/;

function bashVerdict(file) {
  const r = spawnSync('bash', ['-n', file], { encoding: 'utf8', env: { PATH: process.env.PATH, LC_ALL: 'C' }, timeout: 10_000 });
  const lines = (r.stderr ?? '').split('\n').filter((l) => l.trim() !== '' && !HEREDOC_EOF.test(l));
  return { accept: r.status === 0 && lines.length === 0, note: lines[0]?.replace(file, '<snippet>') ?? '' };
}

/** One mvdan-sh word as raw parts: [kind, value?, flag?]; `*` = a run-time part. */
export function mvdanCalls(syntax, src) {
  const file = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(src, 'snippet.sh');
  const calls = [];
  const parts = (ps) =>
    ps.map((p) => {
      const t = syntax.NodeType(p);
      if (t === 'Lit') return ['Lit', p.Value];
      if (t === 'SglQuoted') return ['Sgl', p.Value, p.Dollar === true];
      if (t === 'DblQuoted') return ['Dbl', parts(p.Parts)];
      return ['*'];
    });
  syntax.Walk(file, (n) => {
    if (n !== null && syntax.NodeType(n) === 'CallExpr' && n.Args.length > 0) calls.push(n.Args.map((w) => parts(w.Parts)));
    return true;
  });
  return calls;
}

function mvdanAll() {
  const { syntax } = createRequire(import.meta.url)('mvdan-sh');
  const out = [];
  for (const set of ['mvdan_filetests', 'mvdan_errcases', 'ts_corpus']) {
    corpus[set].forEach((entry, index) => {
      const src = snippetSource(set, entry);
      try {
        out.push({ set, index, sha: sha(src), calls: mvdanCalls(syntax, src) });
      } catch (e) {
        // GopherJS errors are not Errors: their text comes from e.Error().
        out.push({ set, index, sha: sha(src), error: typeof e?.Error === 'function' ? e.Error() : String(e) });
      }
    });
  }
  return JSON.stringify({ generator: 'scripts/corpus-verdicts.mjs', oracle: 'mvdan-sh@0.10.1', entries: out }) + '\n';
}

const version = spawnSync('bash', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
const tmp = mkdtempSync(join(tmpdir(), 'buckler-verdicts-'));
const entries = [];
try {
  for (const set of ['mvdan_filetests', 'mvdan_errcases', 'ts_corpus']) {
    corpus[set].forEach((entry, index) => {
      const src = snippetSource(set, entry);
      const file = join(tmp, 'snippet.sh');
      writeFileSync(file, src);
      const v = bashVerdict(file);
      entries.push({ set, index, sha: sha(src), bash: v.accept ? 'accept' : 'reject', ...(v.accept ? {} : { note: v.note }) });
    });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const json = JSON.stringify({ generator: 'scripts/corpus-verdicts.mjs', bash: version, entries }, null, 1) + '\n';
const mvdanFile = new URL('mvdan-calls.json', dir);
const mvdanJson = mvdanAll();
if (process.argv.includes('--check')) {
  const stale = readFileSync(outFile, 'utf8') !== json || readFileSync(mvdanFile, 'utf8') !== mvdanJson;
  console.log(stale ? 'stored oracle answers are stale: run node scripts/corpus-verdicts.mjs' : 'stored oracle answers are up to date');
  process.exit(stale ? 1 : 0);
}
writeFileSync(outFile, json);
writeFileSync(mvdanFile, mvdanJson);
const acc = entries.filter((e) => e.bash === 'accept').length;
console.log(`${entries.length} snippets: ${acc} accepted, ${entries.length - acc} rejected by ${version}`);
