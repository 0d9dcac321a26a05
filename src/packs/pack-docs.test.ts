/**
 * docs/packs.md documents every builtin pack, checked against the pack files: each pack has a
 * row in the overview table and a section (`### <pack>…`) whose tables name its rules; every
 * rule a table names exists, with the decision the table gives in each tier; every rule of the
 * pack is named (in its tables, or as `pack/rule` in the text for the few that tables do not
 * fit: the rules for commands whose program is known only at run time).
 *
 * Two table shapes: `class | baseline | strict | rules` (a row's decision in a tier is the most
 * severe action of its rules loaded in that tier; allow when none), and `class | decision` with
 * the rule id in parentheses at the end of the class (agent-git, agent-gh: a section per tier).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEVERITY, type Decision } from '../core/contract.ts';
import { builtinPacksDir } from '../paths.ts';
import { parseYaml } from './yaml.ts';

const docs = fs.readFileSync(path.join(builtinPacksDir(), '..', 'docs', 'packs.md'), 'utf8');
const packIds = fs
  .readdirSync(builtinPacksDir())
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length))
  .sort();

interface RawRule {
  id: string;
  action: Decision;
  tier?: string;
}

/** Table cells, split at `|` not escaped as `\|`. */
const cellsOf = (line: string): string[] =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());

/** The sections `### <pack>, …` / `### <pack>: …` up to the next heading of level 2 or 3. */
function sections(pack: string): Array<{ title: string; body: string }> {
  const out: Array<{ title: string; body: string }> = [];
  const re = new RegExp(`^### ${pack}(?=[,:\\s])(.*)$`, 'gm');
  for (const m of docs.matchAll(re)) {
    const rest = docs.slice((m.index ?? 0) + m[0].length);
    const end = rest.search(/^#{2,3} /m);
    out.push({ title: m[0], body: end < 0 ? rest : rest.slice(0, end) });
  }
  return out;
}

interface Row {
  text: string;
  baseline: Decision;
  strict: Decision;
  rules: string[];
}

function tableRows(pack: string, rules: readonly RawRule[]): Row[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const rows: Row[] = [];
  for (const { title, body } of sections(pack)) {
    const strictSection = /strict tier/.test(title);
    for (const line of body.split('\n')) {
      if (!line.startsWith('| ') || line.startsWith('| class') || line.startsWith('| ---')) continue;
      const cells = cellsOf(line);
      if (cells.length === 4) {
        const ids = [...(cells[3] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
        rows.push({ text: cells[0] ?? '', baseline: cells[1] as Decision, strict: cells[2] as Decision, rules: ids });
      } else if (cells.length === 2) {
        const id = /\(`([a-z0-9-]+)`\)\s*$/.exec(cells[0] ?? '')?.[1];
        const decision = (cells[1] ?? '').split(/[\s:]/)[0] as Decision;
        expect(id, `${pack}: "${cells[0]}" ends with its rule id in parentheses`).toBeDefined();
        const rule = byId.get(id as string);
        // A row of the strict section holds in the strict tier only; of a baseline section, in both.
        rows.push({ text: cells[0] ?? '', baseline: strictSection ? 'allow' : decision, strict: decision, rules: [id as string] });
        if (rule !== undefined) expect([id, rule.tier ?? 'baseline'], `${pack}/${id}: the section's tier`).toEqual([id, strictSection ? 'strict' : 'baseline']);
      }
    }
  }
  return rows;
}

describe.each(packIds)('docs/packs.md documents %s', (pack) => {
  const doc = parseYaml(fs.readFileSync(path.join(builtinPacksDir(), `${pack}.yaml`), 'utf8'), `${pack}.yaml`).doc as { rules: RawRule[] };
  const byId = new Map(doc.rules.map((r) => [r.id, r]));
  const rows = tableRows(pack, doc.rules);

  it('in the overview table and in a section with a table', () => {
    expect(docs).toMatch(new RegExp(`^\\| \\[${pack}\\]\\(#${pack}[a-z0-9-]*\\) \\|`, 'm'));
    expect(sections(pack).length).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('each row names rules of the pack, and its decisions are theirs', () => {
    for (const row of rows) {
      // A row without rules is what no rule stops (`recursive delete inside the project`).
      if (row.rules.length === 0) expect([row.text.slice(0, 60), row.baseline, row.strict]).toEqual([row.text.slice(0, 60), 'allow', 'allow']);
      for (const id of row.rules) expect(byId.has(id), `${pack}/${id} (named in docs/packs.md) is a rule of the pack`).toBe(true);
      const decide = (tier: 'baseline' | 'strict'): Decision => {
        let d: Decision = 'allow';
        for (const id of row.rules) {
          const rule = byId.get(id);
          if (rule === undefined || (tier === 'baseline' && (rule.tier ?? 'baseline') === 'strict')) continue;
          if (SEVERITY[rule.action] > SEVERITY[d]) d = rule.action;
        }
        return d;
      };
      expect([row.text.slice(0, 60), decide('baseline'), decide('strict')]).toEqual([row.text.slice(0, 60), row.baseline, row.strict]);
    }
  });

  it('names every rule of the pack', () => {
    const named = new Set(rows.flatMap((r) => r.rules));
    const missing = [...byId.keys()].filter((id) => !named.has(id) && !docs.includes(`\`${pack}/${id}\``));
    expect(missing).toEqual([]);
  });
});

it('the overview table lists exactly the builtin packs', () => {
  const listed = [...docs.matchAll(/^\| \[([a-z0-9-]+)\]\(#/gm)].map((m) => m[1]).sort();
  expect(listed).toEqual(packIds);
});
