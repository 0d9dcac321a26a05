// The trust store follows merge and strip on real files (Codex's config.toml), in-process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply.ts';
import { codexInstaller } from './codex/installer.ts';
import { claudeCodeInstaller } from './claude-code/installer.ts';
import { InstallerError } from './errors.ts';
import { readMergePlan, readStripPlan } from './planner.ts';
import { canonicalHooksFile, syncTrust, trustProblems } from './trust-apply.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver codex";
const PERSON = '# mine\nmodel = "gpt-fake"\n\n[model_providers.fake]\nname = "fake"\n';

let home: string;
let hooks: string;
let config: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-trust-'));
  hooks = path.join(home, 'hooks.json');
  config = path.join(home, 'config.toml');
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function merge(dryRun = false) {
  const plan = readMergePlan(codexInstaller, hooks, CMD);
  if (!dryRun) applyPlan(plan);
  return syncTrust(codexInstaller, plan, home, null, dryRun);
}
function strip() {
  const plan = readStripPlan(codexInstaller, hooks);
  applyPlan(plan);
  return syncTrust(codexInstaller, plan, home, null, false);
}
const value = () => JSON.parse(fs.readFileSync(hooks, 'utf8'));

describe('syncTrust (Codex)', () => {
  it('merge records trust in the existing config.toml, keeping its bytes; strip gives them back', () => {
    fs.writeFileSync(config, PERSON);
    const t = merge();
    expect(t?.file).toBe(config);
    expect(t?.notes).toHaveLength(2);
    expect(t?.problems).toEqual([]);
    const text = fs.readFileSync(config, 'utf8');
    expect(text.startsWith(PERSON)).toBe(true);
    expect(text).toContain(`[hooks.state."${canonicalHooksFile(hooks)}:pre_tool_use:0:0"]`);
    expect(trustProblems(codexInstaller, hooks, value(), home, null)).toEqual([]);
    // A second merge changes nothing.
    expect(merge()?.notes).toEqual([]);
    expect(fs.readFileSync(config, 'utf8')).toBe(text);
    strip();
    expect(fs.readFileSync(config, 'utf8')).toBe(PERSON);
  });

  it('a dry run says what it would record and writes nothing', () => {
    fs.writeFileSync(config, PERSON);
    const t = merge(true);
    expect(t?.notes).toHaveLength(2);
    expect(fs.readFileSync(config, 'utf8')).toBe(PERSON);
    expect(fs.existsSync(hooks)).toBe(false);
  });

  it('creates config.toml when there is none, and strip removes it again', () => {
    merge();
    expect(fs.existsSync(config)).toBe(true);
    strip();
    expect(fs.readdirSync(home)).toEqual([]);
  });

  it('a config.toml that is not TOML is left alone and named in the error', () => {
    fs.writeFileSync(config, 'model = \n');
    expect(() => merge()).toThrow(InstallerError);
    expect(() => merge()).toThrow(/config\.toml: is not valid TOML/);
    expect(fs.readFileSync(config, 'utf8')).toBe('model = \n');
  });

  it('reports the entries Codex would skip when the trust is gone or stale', () => {
    merge();
    fs.writeFileSync(config, PERSON);
    expect(trustProblems(codexInstaller, hooks, value(), home, null)).toEqual([
      expect.stringContaining('PreToolUse hook'),
      expect.stringContaining('PostToolUse hook'),
    ]);
  });

  it('does nothing for a harness without a trust store', () => {
    const file = path.join(home, 'settings.json');
    const plan = readMergePlan(claudeCodeInstaller, file, "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver claude-code");
    expect(syncTrust(claudeCodeInstaller, plan, home, null, true)).toBeNull();
    expect(trustProblems(claudeCodeInstaller, file, {}, home, null)).toEqual([]);
  });
});
