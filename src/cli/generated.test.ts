/**
 * The blocks generated from the command table are what the table says now
 * (`node scripts/generate.mjs` rewrites them), and the rewriting itself.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentMayRun, GENERATED_FILES, readOnlyMatchers, regenerate } from './generated.ts';

describe('generated from the command table', () => {
  it.each(GENERATED_FILES)('%s is up to date (else: node scripts/generate.mjs)', (file) => {
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('BEGIN GENERATED');
    expect(regenerate(text)).toBe(text);
  });

  it('a stale block is rewritten, and only it', () => {
    const file = fs.readFileSync('packs/agent-tamper.yaml', 'utf8');
    const stale = file.replace('- { subcommand: pack list }\n', '');
    expect(stale).not.toBe(file);
    expect(regenerate(stale)).toBe(file);
    expect(regenerate('a\n# BEGIN GENERATED cli-commands\nold\n# END GENERATED cli-commands\nb')).toMatch(/^a\n# BEGIN GENERATED cli-commands\n```\nbuckler evaluate (.|\n)*```\n# END GENERATED cli-commands\nb$/);
  });

  it('refuses an unknown block and an unclosed one', () => {
    expect(() => regenerate('# BEGIN GENERATED nothing\n# END GENERATED nothing')).toThrow(/unknown generated block/);
    expect(() => regenerate('# BEGIN GENERATED cli-commands\n')).toThrow(/not closed/);
  });

  it('the read-only list decides by subcommand, with what changes state excluded', () => {
    const lines = readOnlyMatchers();
    expect(lines).toContain('- { subcommand: hooks status }');
    expect(lines).toContain('- { subcommand: check, flags_none: [--audit] }');
    expect(lines).toContain('- { subcommand: allow, flags_any: [--list], flags_none: [--revoke] }');
    expect(lines.some((l) => /subcommand: (hooks (merge|strip)|pack (install|update|rollback|remove)|allow|trust) \}/.test(l))).toBe(false);
    expect(agentMayRun()).toMatch(/^`buckler check`, .*`hooks status`.*`allow --list`.* and `completion`$/);
  });
});
