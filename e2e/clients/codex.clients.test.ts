// Codex CLI 0.169.0 from npm, wired by `buckler hooks merge --harness codex` alone: no
// --dangerously-bypass-hook-trust. Codex skips a hook nobody trusted without a word, so every
// deny scenario below holds only because merge recorded the trust as Codex computes it; the
// first case compares that with what Codex's own app-server reports.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codexHookEntries } from '../../src/installers/codex/trust-entries.ts';
import { listHooks } from './codex-app-server.ts';
import { CODEX, ensureClient } from './harness.ts';
import { type Sandbox, makeSandbox } from './sandbox.ts';
import { clientSuite } from './suite.ts';

clientSuite(CODEX, 'Codex CLI 0.169.0');

describe('Codex CLI 0.169.0: the hook trust Buckler records is what Codex computes', () => {
  let bin = '';
  let sb: Sandbox | undefined;
  beforeAll(() => {
    bin = ensureClient('codex');
  });
  afterEach(() => {
    sb?.cleanup();
    sb = undefined;
  });

  it('after merge every Buckler entry is trusted with the key and currentHash Codex reports; a person\'s own hook stays untrusted; after strip nothing of Buckler\'s is left', async () => {
    sb = makeSandbox();
    CODEX.prepare(sb, 'http://127.0.0.1:9');
    const hooksFile = CODEX.hooksFile(sb);
    // The person's own hook, before Buckler's: Buckler must not trust it.
    const theirs = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 5 }] }] } };
    fs.writeFileSync(hooksFile, `${JSON.stringify(theirs, null, 2)}\n`);
    const configBefore = fs.readFileSync(path.join(sb.home, '.codex', 'config.toml'), 'utf8');
    const merged = sb.buckler('hooks', 'merge', '--harness', 'codex');
    expect(merged.status, merged.stdout + merged.stderr).toBe(0);

    const env = { ...sb.env, ...CODEX.env(sb, '') };
    const listed = await listHooks(bin, sb.project, env);
    const value = JSON.parse(fs.readFileSync(hooksFile, 'utf8'));
    const ours = codexHookEntries(value, path.join(fs.realpathSync(path.dirname(hooksFile)), 'hooks.json'));
    expect(ours.filter((e) => e.own)).toHaveLength(2);
    for (const e of ours) {
      const l = listed.find((h) => h.key === e.key);
      expect(l, `${e.key} in ${JSON.stringify(listed)}`).toBeDefined();
      expect(l?.currentHash).toBe(e.hash);
      expect(l?.trustStatus).toBe(e.own ? 'trusted' : 'untrusted');
      expect(l?.enabled).toBe(true);
    }
    const status = sb.buckler('hooks', 'status', '--harness', 'codex');
    expect(status.status, status.stdout).toBe(0);

    const stripped = sb.buckler('hooks', 'strip', '--harness', 'codex');
    expect(stripped.status, stripped.stdout + stripped.stderr).toBe(0);
    expect(fs.readFileSync(path.join(sb.home, '.codex', 'config.toml'), 'utf8')).toBe(configBefore);
    const after = await listHooks(bin, sb.project, env);
    expect(after.map((h) => [h.key, h.trustStatus])).toEqual([[ours[0]?.key, 'untrusted']]);
  });
});
