/**
 * A deny never tells the agent (or the person) that someone was asked: strict-tier denies that
 * share their match with a baseline ask must not reuse the ask's message ("the person has been
 * asked to confirm" when nothing was asked). Over every builtin pack, YAML aliases resolved.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPacksDir } from '../paths.ts';
import { parseYaml } from './yaml.ts';

interface RawRule {
  id: string;
  action: string;
  tier?: string;
  user_message?: string | null;
  agent_message?: string | null;
}

const dir = builtinPacksDir();
const rules = fs
  .readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .flatMap((f) => {
    const doc = parseYaml(fs.readFileSync(path.join(dir, f), 'utf8'), f).doc as { pack: string; rules: RawRule[] };
    return doc.rules.map((r) => ({ ...r, id: `${doc.pack}/${r.id}` }));
  });

/** Words that say a person was, or will be, asked. */
const ASKED = /\basked\b|\bconfirm/i;

describe('deny messages never claim someone was asked', () => {
  it('the check itself catches an ask-style message (not vacuous)', () => {
    expect(ASKED.test('the person has been asked to confirm')).toBe(true);
    expect(ASKED.test('the strict tier does not allow it and nobody was asked.')).toBe(true);
    expect(rules.filter((r) => r.action === 'deny' && r.tier === 'strict').length).toBeGreaterThan(10);
  });

  it.each(rules.filter((r) => r.action === 'deny' && r.tier === 'strict').map((r) => [r.id, r] as const))('%s', (_id, r) => {
    const said = `${r.user_message ?? ''}\n${r.agent_message ?? ''}`;
    const claims = said.replace(/nobody was asked/g, '');
    expect(claims, `${r.id} says someone was asked`).not.toMatch(ASKED);
  });
});
