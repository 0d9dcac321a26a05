/**
 * The builtin packs as shipped: they load without a single problem (examples included), every
 * rule carries both kinds of examples, every message a blocking or nudging rule needs is there,
 * and no message names a particular company's tools.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinPacksDir } from '../paths.ts';
import { resolvePaths } from '../paths.ts';
import { loadPolicyReport } from './runtime.ts';
import { parseYaml } from './yaml.ts';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-builtin-'));
afterAll(() => fs.rmSync(configHome, { recursive: true, force: true }));

const dir = builtinPacksDir();
const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();

interface RawRule {
  id: string;
  action: string;
  tier?: string;
  user_message?: string | null;
  agent_message?: string | null;
  additional_context?: string | null;
  examples?: { match?: unknown[]; no_match?: unknown[] };
}
const packs = files.map((f) => {
  const text = fs.readFileSync(path.join(dir, f), 'utf8');
  const doc = parseYaml(text, f).doc as { pack: string; rules: RawRule[] };
  return { file: f, text, doc };
});

/** Names of companies and their products that messages must not use. */
const VENDORS = /github|gitlab|bitbucket|microsoft|google|amazon|aws|azure|cursor|claude|anthropic|openai|codex|copilot|gemini|windsurf|cline/i;

describe('builtin packs', () => {
  it('are the thirteen default packs, named after their files', async () => {
    expect(packs.map((p) => [p.file, p.doc.pack])).toEqual([
      ['agent-cloud.yaml', 'agent-cloud'],
      ['agent-containers.yaml', 'agent-containers'],
      ['agent-data.yaml', 'agent-data'],
      ['agent-fs.yaml', 'agent-fs'],
      ['agent-gh.yaml', 'agent-gh'],
      ['agent-git.yaml', 'agent-git'],
      ['agent-iac.yaml', 'agent-iac'],
      ['agent-k8s.yaml', 'agent-k8s'],
      ['agent-publish.yaml', 'agent-publish'],
      ['agent-remote-exec.yaml', 'agent-remote-exec'],
      ['agent-secrets.yaml', 'agent-secrets'],
      ['agent-tamper.yaml', 'agent-tamper'],
      ['agent-worktree.yaml', 'agent-worktree'],
    ]);
  });

  it.each(['baseline', 'strict'] as const)('load with no problem at all, examples included (%s)', async (tier) => {
    const r = await loadPolicyReport(resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: configHome }), { tier });
    expect(r.problems.map((p) => `${p.file}:${p.line} ${p.rule}: ${p.message}`)).toEqual([]);
    expect(r.checked).toBe(packs.reduce((n, p) => n + p.doc.rules.length, 0));
    const strict = packs.flatMap((p) => p.doc.rules).filter((x) => x.tier === 'strict').length;
    expect(r.policy.rules.length).toBe(r.checked - (tier === 'baseline' ? strict : 0));
  });

  const rules = packs.flatMap((p) => p.doc.rules.map((r) => [`${p.doc.pack}/${r.id}`, r] as const));
  it.each(rules)('%s has match and no_match examples and the messages its action needs', async (_id, r) => {
    expect(r.examples?.match?.length ?? 0).toBeGreaterThan(0);
    expect(r.examples?.no_match?.length ?? 0).toBeGreaterThan(0);
    if (r.action === 'deny' || r.action === 'ask') {
      expect(r.user_message?.trim()).toBeTruthy();
      expect(r.agent_message?.trim()).toBeTruthy();
    }
    if (r.action === 'nudge') expect(r.additional_context?.trim()).toBeTruthy();
    for (const m of [r.user_message, r.agent_message, r.additional_context]) {
      if (m) expect(m).not.toMatch(VENDORS);
    }
  });

  it('no pack text names a vendor outside comments about the program name', async () => {
    for (const p of packs) {
      // Program data is keyed by program names (`aws:`), which are no prose.
      const prose = p.text
        .replace(/^programs:\n(?:(?:[ #].*)?\n)*/m, '')
        .split('\n')
        .filter((l) => !/^\s*(-|#|program:|subcommand:)/.test(l))
        .join('\n');
      expect(prose, p.file).not.toMatch(VENDORS);
    }
  });
});
