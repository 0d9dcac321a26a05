/**
 * docs/packs.md's tables of the protection packs against the pack files: every row names rules
 * that exist, with the decision the row gives in each tier (a rule of the strict tier only where
 * the strict column differs), and every rule of the pack is in a row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPacksDir } from '../paths.ts';
import { parseYaml } from './yaml.ts';

const docs = fs.readFileSync(path.join(builtinPacksDir(), '..', 'docs', 'packs.md'), 'utf8');

interface RawRule {
  id: string;
  action: string;
  tier?: string;
}

/** The 4-column table (class | baseline | strict | rules) under `### <pack>…`. */
function rows(pack: string): Array<{ baseline: string; strict: string; rules: string[] }> {
  const start = docs.search(new RegExp(`^### ${pack}\\b`, 'm'));
  expect(start, `docs/packs.md has a section "### ${pack}"`).toBeGreaterThanOrEqual(0);
  const rest = docs.slice(start + 4);
  const end = rest.search(/^#{2,3} /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const out: Array<{ baseline: string; strict: string; rules: string[] }> = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| class') || line.startsWith('| ---')) continue;
    // Cells split at `|` not escaped as `\|`.
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    if (cells.length !== 4) continue;
    out.push({ baseline: cells[1] ?? '', strict: cells[2] ?? '', rules: [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '') });
  }
  return out;
}

describe.each(['agent-worktree', 'agent-remote-exec'])('docs/packs.md table of %s', (pack) => {
  const doc = parseYaml(fs.readFileSync(path.join(builtinPacksDir(), `${pack}.yaml`), 'utf8'), `${pack}.yaml`).doc as { rules: RawRule[] };
  const byId = new Map(doc.rules.map((r) => [r.id, r]));
  const table = rows(pack);

  it('has rows', () => {
    expect(table.length).toBeGreaterThan(0);
  });

  it('names existing rules with the decision of each tier', () => {
    for (const row of table) {
      const rules = row.rules.map((id) => {
        const r = byId.get(id);
        expect(r, `${pack}/${id} in the pack`).toBeDefined();
        return r as RawRule;
      });
      const baseline = rules.filter((r) => (r.tier ?? 'baseline') === 'baseline');
      const strict = rules.filter((r) => r.tier === 'strict');
      expect(baseline.map((r) => r.action), `${row.rules.join(', ')}: baseline`).toEqual([row.baseline]);
      // In the strict tier both load; the more severe action wins a tie of priorities.
      expect(strict.length > 0 ? strict[0]?.action : row.baseline, `${row.rules.join(', ')}: strict`).toBe(row.strict);
    }
  });

  it('lists every rule of the pack', () => {
    const listed = new Set(table.flatMap((r) => r.rules));
    expect([...byId.keys()].filter((id) => !listed.has(id))).toEqual([]);
  });
});
