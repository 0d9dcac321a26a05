/**
 * The harness records are consistent, and every generated block (harness lists in the docs,
 * scripts/setup.sh's harness data) is what the records give today: run
 * `node scripts/gen-docs.mjs` after changing a record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASH, BASH_BLOCKS, GENERATED_FILES, MARKDOWN, MARKDOWN_BLOCKS, rewriteBlocks } from './generated.ts';
import { HARNESS_NAMES } from '../adapters/registry.ts';
import { INSTALLERS } from '../installers/registry.ts';
import { HARNESSES, HARNESS_LIST, harnessNameList } from './index.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('harness records', () => {
  it.each(HARNESS_LIST)('%s: named as its key, with a user scope in its folder, files and modes', (name) => {
    const r = HARNESSES[name];
    expect(r.name).toBe(name);
    expect(r.scopes.user).toMatchObject({ base: 'harness_home' });
    expect(r.files.settings.length).toBeGreaterThan(0);
    expect(r.ask.length).toBeGreaterThan(0);
    expect(r.readFrom).toMatch(/\d+\.\d+/);
    // A managed scope is the system-level file: the record must name one.
    if ('managed' in r.scopes) expect(r.system).not.toBeNull();
  });

  it('every record has an adapter and an installer, and every adapter a record, in the same order', () => {
    expect([...HARNESS_NAMES]).toEqual([...HARNESS_LIST]);
    expect(Object.keys(INSTALLERS)).toEqual([...HARNESS_LIST]);
  });

  it('lists the names for help texts', () => {
    expect(harnessNameList()).toBe('cursor, claude-code, codex, gemini-cli, copilot-cli, factory-droid, qwen-code or opencode');
  });
});

describe('generated blocks', () => {
  it.each(GENERATED_FILES.map((g) => [g.file, g] as const))('%s is up to date (node scripts/gen-docs.mjs)', (file, g) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    expect(text).toContain(g.syntax === BASH ? '# generated: ' : '<!-- generated: ');
    expect(rewriteBlocks(text, g.blocks, g.syntax)).toBe(text);
  });

  it('the check fails on a stale block, an unknown block and an unclosed one', () => {
    const stale = 'NAME is <!-- generated: harness-names -->`cursor` or `codex`<!-- end --> here';
    const fresh = rewriteBlocks(stale, MARKDOWN_BLOCKS, MARKDOWN);
    expect(fresh).not.toBe(stale);
    expect(fresh).toBe(`NAME is <!-- generated: harness-names -->${HARNESS_LIST.map((n) => `\`${n}\``).slice(0, -1).join(', ')} or \`opencode\`<!-- end --> here`);
    expect(rewriteBlocks(fresh, MARKDOWN_BLOCKS, MARKDOWN)).toBe(fresh);
    expect(() => rewriteBlocks('<!-- generated: nope -->x<!-- end -->', MARKDOWN_BLOCKS, MARKDOWN)).toThrow(/unknown generated block 'nope'/);
    expect(() => rewriteBlocks('<!-- generated: harness-names -->x', MARKDOWN_BLOCKS, MARKDOWN)).toThrow(/not closed/);
    const bash = 'a\n# generated: harnesses\nBK_HARNESSES=(cursor)\n# end generated\nb';
    expect(rewriteBlocks(bash, BASH_BLOCKS, BASH)).toContain(`BK_HARNESSES=(${HARNESS_LIST.join(' ')})`);
  });

  it('every harness appears in every list block of every doc', () => {
    for (const g of GENERATED_FILES.filter((f) => f.syntax === MARKDOWN)) {
      const text = fs.readFileSync(path.join(ROOT, g.file), 'utf8');
      for (const m of text.matchAll(/<!-- generated: ([\w-]+) -->([\s\S]*?)<!-- end -->/g)) {
        if (m[1] === 'harness-homes') expect(m[2]!.split('; ')).toHaveLength(HARNESS_LIST.length);
        else for (const name of HARNESS_LIST) expect(m[2], `${g.file} ${m[1]}`).toContain(name);
      }
    }
  });
});
