/**
 * `buckler scan --format sarif`: the findings as one SARIF 2.1.0 log (OASIS Static Analysis
 * Results Interchange Format), as code-scanning services read it: one run, Buckler as the tool
 * with every rule that found something, each finding a result with its rule, level, message and
 * place (a path relative to the scanned directory, `%SRCROOT%`). The schema it is checked
 * against in the tests: ./sarif-2.1.0.schema.json (README.md beside it).
 */
import { pathToFileURL } from 'node:url';
import type { Finding } from './decide.ts';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

export function sarifLog(findings: readonly Finding[], root: string, version: string): object {
  const rules = [...new Set(findings.map((f) => f.rule))].sort();
  const index = new Map(rules.map((r, i) => [r, i]));
  const base = pathToFileURL(root.endsWith('/') ? root : `${root}/`).href;
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Buckler',
            version,
            rules: rules.map((id) => ({ id, shortDescription: { text: `Buckler rule ${id}` } })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: base } },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: index.get(f.rule) as number,
          level: f.level,
          message: { text: `${f.message} (${f.where}: ${f.command})` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: encodeURI(f.file), uriBaseId: '%SRCROOT%' },
                region: { startLine: f.line, startColumn: f.column },
              },
            },
          ],
          properties: { decision: f.decision },
        })),
      },
    ],
  };
}
