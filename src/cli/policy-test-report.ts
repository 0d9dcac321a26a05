/**
 * What `buckler test` reports for machines: each case's outcome (`--json`), and the outcomes
 * as JUnit XML (`--junit FILE`), the report CI systems read (GitLab, Jenkins, actions that
 * publish test results): one `<testsuite>` per case file, one `<testcase>` per case, a
 * `<failure>` with expected and got for each case that failed.
 */
import type { Decision } from '../core/contract.ts';

/** One case's outcome (`--json`, `--junit`). */
export interface CaseResult {
  /** The case file as given. */
  file: string;
  line: number | null;
  name: string;
  ok: boolean;
  /** `rule` absent: any rule; null: no rule may decide. */
  expected: { decision: Decision; rule?: string | null };
  got: { decision: Decision; rule: string | null };
  /** How long deciding it took (after its policy was loaded). */
  ms: number;
  /** For a failed command-line case: the explain command that shows why. */
  why?: string;
}

/** Text for XML content or an attribute: markup escaped, characters XML 1.0 cannot hold dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function expectation(d: { decision: string; rule?: string | null }): string {
  return d.rule === undefined ? d.decision : `${d.decision} ${d.rule ?? '(no rule)'}`;
}

export function junitXml(results: readonly CaseResult[], files: readonly string[]): string {
  const failures = results.filter((r) => !r.ok).length;
  const total = results.reduce((n, r) => n + r.ms, 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="buckler test" tests="${results.length}" failures="${failures}" errors="0" time="${seconds(total)}">`];
  for (const file of files) {
    const mine = results.filter((r) => r.file === file);
    const failed = mine.filter((r) => !r.ok).length;
    out.push(`  <testsuite name="${xmlText(file)}" tests="${mine.length}" failures="${failed}" errors="0" skipped="0" time="${seconds(mine.reduce((n, r) => n + r.ms, 0))}">`);
    for (const r of mine) {
      const attrs = `name="${xmlText(r.name)}" classname="${xmlText(file)}" file="${xmlText(file)}"${r.line === null ? '' : ` line="${r.line}"`} time="${seconds(r.ms)}"`;
      if (r.ok) {
        out.push(`    <testcase ${attrs}/>`);
        continue;
      }
      const got = r.expected.rule === undefined ? r.got.decision : `${r.got.decision} ${r.got.rule ?? '(no rule)'}`;
      const body = [`expected ${expectation(r.expected)}`, `got      ${got}`, ...(r.why === undefined ? [] : [`why: ${r.why}`])].join('\n');
      out.push(`    <testcase ${attrs}>`, `      <failure type="mismatch" message="${xmlText(`expected ${expectation(r.expected)}, got ${got}`)}">${xmlText(body)}</failure>`, '    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
