/**
 * After an action, the builtin packs' nudges never contradict what the policy allowed before
 * it: a command allowed before it runs is not followed by "do not <that command>".
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POLICY_IO_VERSION, type Trigger } from '../core/contract.ts';
import { evaluate } from '../core/evaluate.ts';
import { resolvePaths } from '../paths.ts';
import { loadPolicyReport } from './runtime.ts';

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-after-'));
afterAll(() => fs.rmSync(configHome, { recursive: true, force: true }));

const COMMANDS = ['git push', 'git push origin main', 'git status', 'git fetch', 'git pull', 'git log', 'git diff', 'gh pr create', 'gh pr view 1'];

describe('after-action nudges agree with what was allowed', () => {
  it.each(['baseline', 'strict'] as const)('%s', async (tier) => {
    const paths = resolvePaths({ env: { BUCKLER_CONFIG_HOME: configHome }, platform: process.platform, home: configHome });
    const { policy } = await loadPolicyReport(paths, { tier, examples: false });
    const decide = (command: string, trigger: Trigger) => evaluate({ policy_io_version: POLICY_IO_VERSION, trigger, shell: { command } }, policy);
    let checked = 0;
    for (const command of COMMANDS) {
      if (decide(command, 'pre_shell_exec').decision !== 'allow') continue;
      checked++;
      const sub = command.split(' ')[1]!;
      for (const trigger of ['post_tool_success', 'post_tool_failure'] as const) {
        const out = decide(command, trigger);
        const text = [out.user_message, out.agent_message, out.additional_context].join('\n');
        expect(text, `${command} (${trigger}, rule ${out.rule})`).not.toMatch(new RegExp(`\\b(do not|don't|never)\\b[^.;]*\\b${sub}`, 'i'));
      }
    }
    expect(checked).toBeGreaterThan(3);
  });
});
