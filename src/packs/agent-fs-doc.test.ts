/**
 * docs/packs.md's agent-fs table is checked against packs/agent-fs.yaml: every rule of the pack
 * is named in exactly one row, every rule a row names exists, and the row's baseline and strict
 * decisions are what its rules give in each tier (the most severe; allow when none applies).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEVERITY, type Decision } from '../core/contract.ts';
import { parseYaml } from './yaml.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const pack = parseYaml(readFileSync(path.join(ROOT, 'packs', 'agent-fs.yaml'), 'utf8'), 'agent-fs.yaml').doc as {
  rules: Array<{ id: string; action: Decision; tier?: string }>;
};
const docs = readFileSync(path.join(ROOT, 'docs', 'packs.md'), 'utf8');
const section = docs.slice(docs.indexOf('### agent-fs'), docs.indexOf('\n### ', docs.indexOf('### agent-fs') + 5));
const rows = section
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| class') && !l.startsWith('| ---'))
  .map((l) => {
    const cells = l.split(' | ');
    const rules = [...(cells[3] ?? '').matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] as string);
    return { text: cells[0] ?? '', baseline: cells[1] as Decision, strict: cells[2] as Decision, rules };
  });

describe('docs/packs.md agent-fs table', () => {
  it('has the rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });

  it('names every rule of the pack exactly once, and only rules of the pack', () => {
    const named = rows.flatMap((r) => r.rules);
    expect([...named].sort()).toEqual(pack.rules.map((r) => r.id).sort());
  });

  it.each(rows.map((r) => [r.text.slice(0, 60), r] as const))('%s: decisions are its rules\'', (_t, row) => {
    const decide = (tier: 'baseline' | 'strict'): Decision => {
      let d: Decision = 'allow';
      for (const id of row.rules) {
        const rule = pack.rules.find((r) => r.id === id);
        if (rule === undefined) continue;
        if (tier === 'baseline' && (rule.tier ?? 'baseline') === 'strict') continue;
        if (SEVERITY[rule.action] > SEVERITY[d]) d = rule.action;
      }
      return d;
    };
    expect(decide('baseline')).toBe(row.baseline);
    expect(decide('strict')).toBe(row.strict);
  });
});
