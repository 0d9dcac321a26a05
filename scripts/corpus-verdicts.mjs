#!/usr/bin/env node
// Precomputes the oracles' answers for the shell corpus (src/shell/testdata/shell-snippets.json),
// so the differential test (src/shell/corpus.test.ts) needs neither bash nor a slow oracle:
//  - bash-verdicts.json: `bash -n` accept/reject per snippet;
//  - mvdan-calls.json: the words of every command (CallExpr) mvdan-sh finds, as raw parts.
// Usage: node scripts/corpus-verdicts.mjs          (rewrite both files)
//        node scripts/corpus-verdicts.mjs --check  (exit 1 when a stored file is stale)
//        node scripts/corpus-verdicts.mjs --fuzz 3000 [--seed 7]
//             random token soup: our parser vs live `bash -n` (prints the agreement and differences)
//        node scripts/corpus-verdicts.mjs --bench
//             throughput: µs per one-line command, ms per 20 KB script, slowest corpus/real input
// The last two bundle src/shell with esbuild into a temporary file first.
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
const HEREDOC_EOF = /warning: here-document at line \d+ delimited by end-of-file|warning: command substitution: \d+ unterminated here-document/;

function bashVerdict(file) {
  const r = spawnSync('bash', ['-n', file], { encoding: 'utf8', env: { PATH: process.env.PATH, LC_ALL: 'C' }, timeout: 10_000 });
  const lines = (r.stderr ?? '').split('\n').filter((l) => l.trim() !== '' && !HEREDOC_EOF.test(l));
  return { accept: r.status === 0 && lines.length === 0, note: lines[0]?.split(file).join('<snippet>') ?? '' };
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

const MODE = process.argv.includes('--fuzz') ? 'fuzz' : process.argv.includes('--bench') ? 'bench' : 'verdicts';
const argValue = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? dflt : Number(process.argv[i + 1]);
};

/** Bundles src/shell into a temporary ESM file and imports it. */
async function loadShell() {
  const { build } = await import('esbuild');
  const dirTmp = mkdtempSync(join(tmpdir(), 'buckler-shell-'));
  const entry = join(dirTmp, 'entry.ts');
  const root = new URL('../src/shell/', import.meta.url).pathname;
  writeFileSync(entry, `export { analyzeCommandLine } from '${root}index.ts';\nexport { Parser } from '${root}parser.ts';\nexport { ShellParseError } from '${root}types.ts';\n`);
  const out = join(dirTmp, 'shell.mjs');
  await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'esm', logLevel: 'error' });
  const mod = await import(out);
  rmSync(dirTmp, { recursive: true, force: true });
  return mod;
}

const parses = (shell, text) => {
  try {
    shell.Parser.parse(text, 0, { maxDepth: 8, maxNesting: 64, nesting: 0 }, 0);
    return 'accept';
  } catch (e) {
    if (e instanceof shell.ShellParseError) return 'reject';
    throw e;
  }
};

const FUZZ_TOKENS = ['git', ' push', ' --force', 'a', ' b', 'EOF', 'x=1', ' ', '\t', '\n', ';', '&&', '||', '|', '&', '(', ')', '{ ', ' }', '$(', '$((', '))', '<(', '>', '<', '<<', '<<-', '<<<', '2>&1', "'", '"', "$'", '`', '\\', '#', '$', '${', '}', '[[ ', ' ]]', '((', 'if ', 'then ', 'fi', 'for ', ' in ', 'do ', 'done', 'while ', 'case ', 'esac', ';;', 'function ', 'time ', '! ', '=~', '*', '[', ']', '\\\n', '{a,b}', '$x', 'f()', '=', ',', ':'];

async function fuzz() {
  const fc = (await import('fast-check')).default;
  const shell = await loadShell();
  const n = argValue('--fuzz', 3000);
  const seed = argValue('--seed', 7);
  const soup = fc.array(fc.constantFrom(...FUZZ_TOKENS), { maxLength: 30 }).map((a) => a.join(''));
  const tmp = mkdtempSync(join(tmpdir(), 'buckler-fuzz-'));
  let agree = 0;
  let slowest = { ms: 0, text: '' };
  const diffs = [];
  for (const text of fc.sample(soup, { numRuns: n, seed })) {
    const t0 = performance.now();
    const ours = parses(shell, text);
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, text };
    writeFileSync(join(tmp, 's.sh'), text);
    const v = bashVerdict(join(tmp, 's.sh'));
    if ((v.accept ? 'accept' : 'reject') === ours) agree++;
    else diffs.push(`bash=${v.accept ? 'accept' : 'reject'} ours=${ours} ${JSON.stringify(text)} ${v.note}`);
  }
  rmSync(tmp, { recursive: true, force: true });
  console.log(`fuzz seed ${seed}: agreement with bash -n ${agree}/${n}; slowest ${slowest.ms.toFixed(2)} ms ${JSON.stringify(slowest.text)}`);
  for (const d of diffs) console.log(d);
}

async function bench() {
  const shell = await loadShell();
  const typical = 'git -C ../repo commit -m "fix: thing" && git push origin main 2>&1 | tail -n 5';
  const loop = (fn, ms) => {
    for (let i = 0; i < 500; i++) fn();
    let ops = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      for (let i = 0; i < 50; i++) fn();
      ops += 50;
    }
    return ((performance.now() - t0) * 1000) / ops;
  };
  const oneLine = [1, 2, 3].map(() => loop(() => shell.analyzeCommandLine(typical), 500)).sort((a, b) => a - b)[1];
  const block = ['set -euo pipefail', 'for f in "$@"; do\n  if [ -f "$f" ]; then echo "file: $f"; else echo "skip" >&2; fi\ndone',
    'case "$1" in\n  build) npm run build ;;\n  *) echo "usage: $0" ;;\nesac', 'out=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)',
    'cat <<EOF > v.txt\nversion: $out\nEOF', 'while read -r l; do printf \'%s\\n\' "${l//a/b}"; done < in.txt',
    'deploy() {\n  local t=${1:-staging}\n  rsync -az ./dist/ "deploy@$t:/srv/" && echo done\n}', 'find . -name "*.log" -exec rm -f {} +'].join('\n');
  let script20 = '';
  while (script20.length < 20_000) script20 += block + '\n';
  const twenty = [1, 2, 3].map(() => loop(() => shell.analyzeCommandLine(script20), 1000) / 1000).sort((a, b) => a - b)[1];
  // Slowest single input over the corpus and the real scripts on this machine (each parsed once, warm).
  const inputs = [];
  for (const set of ['mvdan_filetests', 'mvdan_errcases', 'ts_corpus']) corpus[set].forEach((e) => inputs.push(snippetSource(set, e)));
  const found = spawnSync('sh', ['-c', "find /usr/bin /usr/sbin /usr/share /etc -type f -size -64k 2>/dev/null | xargs grep -lE '^#!.*\\b(ba)?sh\\b' 2>/dev/null"], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const files = found.stdout.split('\n').filter(Boolean);
  for (const f of files) {
    try {
      inputs.push(readFileSync(f, 'latin1'));
    } catch {}
  }
  for (const t of inputs) parses(shell, t);
  let slowest = { ms: 0, text: '' };
  let bytes = 0;
  const t0 = performance.now();
  for (const t of inputs) {
    const s = performance.now();
    parses(shell, t);
    const ms = performance.now() - s;
    bytes += t.length;
    if (ms > slowest.ms) slowest = { ms, text: t };
  }
  const total = performance.now() - t0;
  console.log(`one-line command (${typical.length} chars), parse + unwrap: ${oneLine.toFixed(1)} µs`);
  console.log(`20 KB script (${script20.length} chars), parse + unwrap: ${twenty.toFixed(2)} ms`);
  console.log(`${inputs.length} inputs (${files.length} real scripts), ${(bytes / 1e6).toFixed(2)} MB parsed in ${total.toFixed(0)} ms (${(bytes / 1e3 / total).toFixed(1)} MB/s)`);
  console.log(`slowest input: ${slowest.ms.toFixed(2)} ms, ${slowest.text.length} chars, starting ${JSON.stringify(slowest.text.slice(0, 60))}`);
}

if (MODE === 'fuzz') {
  await fuzz();
  process.exit(0);
}
if (MODE === 'bench') {
  await bench();
  process.exit(0);
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
