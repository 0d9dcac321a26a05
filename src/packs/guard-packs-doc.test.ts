/**
 * docs/packs.md's agent-secrets and agent-tamper tables are checked against the pack files:
 * every rule of the pack is named in exactly one row, every rule a row names exists, and the
 * row's baseline and strict decisions are what its rules give in each tier (the most severe;
 * allow when none applies).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEVERITY, type Decision } from '../core/contract.ts';
import { parseYaml } from './yaml.ts';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const docs = readFileSync(path.join(ROOT, 'docs', 'packs.md'), 'utf8');

describe.each(['agent-secrets', 'agent-tamper'])('docs/packs.md %s table', (id) => {
  const pack = parseYaml(readFileSync(path.join(ROOT, 'packs', `${id}.yaml`), 'utf8'), `${id}.yaml`).doc as {
    rules: Array<{ id: string; action: Decision; tier?: string }>;
  };
  const start = docs.indexOf(`### ${id}:`);
  const end = docs.slice(start + 5).search(/\n##+ /);
  const section = start < 0 ? '' : docs.slice(start, end < 0 ? undefined : start + 5 + end);
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| class') && !l.startsWith('| ---'))
    .map((l) => {
      const cells = l.split(' | ');
      const rules = [...(cells[3] ?? '').matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] as string);
      return { text: cells[0] ?? '', baseline: cells[1] as Decision, strict: cells[2] as Decision, rules };
    });

  it('has a section with rows', () => {
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('names every rule of the pack exactly once, and only rules of the pack', () => {
    expect(rows.flatMap((r) => r.rules).sort()).toEqual(pack.rules.map((r) => r.id).sort());
  });

  it('each row\'s decisions are its rules\'', () => {
    for (const row of rows) {
      const decide = (tier: 'baseline' | 'strict'): Decision => {
        let d: Decision = 'allow';
        for (const rid of row.rules) {
          const rule = pack.rules.find((r) => r.id === rid);
          if (rule === undefined || (tier === 'baseline' && (rule.tier ?? 'baseline') === 'strict')) continue;
          if (SEVERITY[rule.action] > SEVERITY[d]) d = rule.action;
        }
        return d;
      };
      expect([row.text.slice(0, 50), decide('baseline'), decide('strict')]).toEqual([row.text.slice(0, 50), row.baseline, row.strict]);
    }
  });
});
