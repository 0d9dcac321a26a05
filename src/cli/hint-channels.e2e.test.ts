/**
 * Issue 21, route 7 (what reaches whom), through the built hook for every adapter: the
 * `buckler allow …` hint of a deny or an ask before an action is written only where the person
 * alone reads it (Adapter.personOnly). Where the harness has no such channel for that decision
 * (OpenCode's and Kilo Code's thrown error, Copilot CLI's ask reason, Claude Code's ask reason
 * that the model receives in `-p`), it is left out of the reply, or moved to the person-only
 * `systemMessage` (Claude Code); the person finds the blocked command with `buckler log`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../adapters/registry.ts';
import { buckler, e2eDir, homeEnv } from './e2e.testing.ts';

const tmp = e2eDir('buckler-hint-channels-');
const project = path.join(tmp, 'proj');
beforeAll(() => {
  fs.mkdirSync(path.join(project, '.git'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'config', 'rules.d'), { recursive: true });
});

type Get = (reply: Record<string, any>) => unknown;
const pre = (r: Record<string, any>): unknown => r.hookSpecificOutput?.permissionDecisionReason;
const sys = (r: Record<string, any>): unknown => r.systemMessage;

/** Per adapter: what the model reads of a deny/ask, and the person-only channel (null: none). */
const CHANNELS: Record<string, { model: Get; person: Get | null }> = {
  cursor: { model: (r) => r.agent_message, person: (r) => r.user_message },
  'claude-code': { model: pre, person: sys },
  codex: { model: pre, person: sys },
  'copilot-cli': { model: (r) => r.permissionDecisionReason, person: null },
  'gemini-cli': { model: (r) => r.reason, person: sys },
  'qwen-code': { model: pre, person: sys },
  'factory-droid': { model: pre, person: sys },
  opencode: { model: (r) => r.reason, person: null },
  'kilo-code': { model: (r) => r.reason, person: null },
};

const DENY = 'git push --force origin main';
const ASK = 'terraform destroy';
const HINT = /buckler allow --project/;

describe('the buckler allow hint reaches the person only', () => {
  it('every adapter is in the table', () => {
    expect(Object.keys(CHANNELS).sort()).toEqual(Object.keys(ADAPTERS).sort());
  });

  it.each(Object.keys(ADAPTERS))('%s', (name) => {
    const adapter = ADAPTERS[name]!;
    const ch = CHANNELS[name]!;
    for (const [decision, command] of [['deny', DENY], ['ask', ASK]] as const) {
      const r = buckler(['--driver', name], { stdin: JSON.stringify(adapter.selfTestEvent(command, project)), env: homeEnv(tmp), cwd: project, timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      const reply = JSON.parse(r.stdout) as Record<string, any>;
      const model = ch.model(reply);
      expect(typeof model, `${name} ${decision}: ${r.stdout}`).toBe('string');
      // The model never reads the hint.
      expect([name, decision, HINT.test(model as string)]).toEqual([name, decision, false]);
      if (ch.person === null) {
        expect([name, decision, HINT.test(r.stdout)]).toEqual([name, decision, false]);
        continue;
      }
      // Where a person-only channel carries a message for this decision, it holds the hint.
      const person = ch.person(reply);
      if (typeof person === 'string') expect([name, decision, HINT.test(person)]).toEqual([name, decision, true]);
    }
  });

  it('what each adapter declares is what the tests above hold', () => {
    expect(ADAPTERS['opencode']!.personOnly.ask).toBe(false);
    expect(ADAPTERS['kilo-code']!.personOnly.ask).toBe(false);
    expect(ADAPTERS['copilot-cli']!.personOnly.ask).toBe(false);
    expect(ADAPTERS['claude-code']!.personOnly.ask).toBe(false);
    expect(ADAPTERS['cursor']!.personOnly).toEqual({ deny: true, ask: true });
  });
});
