/**
 * Test and benchmark data: a realistic shell script (every kind of statement) of about `bytes`
 * bytes, whole statements only, never longer than `bytes` (a "64 KB" script stays under the
 * 64 KiB cap). Used by src/shell/work.test.ts and bench/inprocess.ts.
 */
export function realisticScript(bytes: number): string {
  const parts = [
    'set -euo pipefail',
    'for f in "$@"; do\n  if [ -f "$f" ]; then echo "file: $f"; else echo "skip $f" >&2; fi\ndone',
    'case "$1" in\n  build) npm run build ;;\n  test|check) npm test -- --run ;;\n  *) echo "usage: $0 build|test" ;;\nesac',
    'out=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)',
    'cat <<EOF > version.txt\nversion: $out\nbuilt: $(date -u +%FT%TZ)\nEOF',
    'while read -r line; do printf \'%s\\n\' "${line//foo/bar}"; done < input.txt',
    'deploy() {\n  local target=${1:-staging}\n  rsync -az --delete ./dist/ "deploy@$target:/srv/app/" && echo done\n}',
    'find . -type f -name "*.log" -mtime +7 -exec rm -f {} +',
    'git log --oneline -10 | awk \'{print $1}\' | xargs -n1 git show --stat',
  ];
  let s = '';
  for (let i = 0; ; i++) {
    const next = `${parts[i % parts.length]}\n`;
    if (s.length + next.length > bytes) return s;
    s += next;
  }
}
