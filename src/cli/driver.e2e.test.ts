/**
 * End to end: spawn the built `node dist/buckler.cjs --driver X` with native payloads on stdin,
 * for every fixture of every registered harness, the default-pack commands, the operator bypass
 * and a bad-input matrix. Policies come from temporary config homes (BUCKLER_CONFIG_HOME); the
 * test packs written there exist only to decide the reference fixtures and are not shipped.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../adapters/registry.ts';
import { deviations, expectFixtureShape, fixtureSets, readFixture } from '../adapters/testing.ts';
import { ROOT } from './build.testing.ts';
import { buckler, e2eDir, homeEnv, singleReply, type Ran } from './e2e.testing.ts';

const tmp = e2eDir('buckler-e2e-');

/** Config homes: the builtin packs plus fixture-deciding test packs; nudge-everything; allow-everything. */
const HOMES = { deny: '', nudge: '', allow: '', defaults: '' };

const DENY_PACK = `pack: e2e-fixtures
version: "1"
rules:
  - id: pipe-into-shell
    trigger: [pre_shell_exec, pre_shell_tool]
    match: { shell_segments: [ { program: sh } ] }
    action: deny
    user_message: "Blocked by policy SHELL-003: piping a downloaded script into a shell is not allowed."
    agent_message: "Policy SHELL-003 forbids {command}. Download the script, show it to the user, and ask first."
  - id: protected-workflows
    trigger: pre_shell_tool
    match: { tool_name: Write }
    action: deny
    user_message: "Blocked by policy FILE-020: CI workflow files are protected."
    agent_message: "Policy FILE-020 protects .github/workflows/. Describe the change for a human to apply."
  - id: secret-reads
    trigger: pre_shell_tool
    match: { tool_name: Read }
    action: deny
    user_message: "Blocked by policy FILE-030: reading secrets."
    agent_message: "Policy FILE-030 keeps secrets out of the model's context. Ask the user for the value you need."
  - id: mcp-sql-cursor
    trigger: pre_shell_tool
    match: { tool_name: "MCP:execute_sql" }
    action: deny
    user_message: "Blocked by policy MCP-010: destructive SQL through the postgres MCP server."
    agent_message: "Policy MCP-010 blocks DROP/TRUNCATE via MCP. Propose a migration file instead."
  - id: mcp-sql-claude
    trigger: pre_shell_tool
    match: { tool_name: mcp__postgres__execute_sql }
    action: deny
    user_message: "Blocked by policy MCP-010: destructive SQL through MCP."
    agent_message: "Policy MCP-010 blocks DROP/TRUNCATE via MCP. Propose a migration file instead."
  - id: protected-file-0
    trigger: pre_shell_tool
    match: { tool_name: apply_patch }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: protected-file-1
    trigger: pre_shell_tool
    match: { tool_name: write_file }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: protected-file-2
    trigger: pre_shell_tool
    match: { tool_name: create }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: protected-file-3
    trigger: pre_shell_tool
    match: { tool_name: Create }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: protected-file-4
    trigger: pre_shell_tool
    match: { tool_name: Edit }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: protected-file-5
    trigger: pre_shell_tool
    match: { tool_name: ApplyPatch }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: protected-file-6
    trigger: pre_shell_tool
    match: { tool_name: read_file }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: mcp-sql-gemini
    trigger: pre_shell_tool
    match: { tool_name: mcp_postgres_execute_sql }
    action: deny
    user_message: "Blocked by policy MCP-010: destructive SQL through MCP."
    agent_message: "Policy MCP-010 blocks DROP/TRUNCATE via MCP. Propose a migration file instead."
  - id: opencode-write
    trigger: pre_shell_tool
    match: { tool_name: write }
    action: deny
    user_message: "Blocked by policy FILE-021: .env files are protected."
    agent_message: "Policy FILE-021 protects .env files. Ask the user to change them."
  - id: opencode-grep
    trigger: pre_shell_tool
    match: { tool_name: grep }
    action: deny
    user_message: "Blocked by policy FILE-030: searching secrets."
    agent_message: "Policy FILE-030 keeps secrets out of the model's context."
  - id: mcp-merge-opencode
    trigger: pre_shell_tool
    match: { tool_name: github_merge_pull_request }
    action: deny
    user_message: "Blocked by policy MCP-020: merging needs the person."
    agent_message: "Policy MCP-020: ask the user to merge."
  - id: other-events
    trigger: unknown_harness_event
    action: deny
    priority: 10
    user_message: "Blocked by the e2e test pack."
    agent_message: "The e2e test pack blocks this event."
`;

const NUDGE_PACK = `pack: e2e-nudge
version: "1"
rules:
  - id: remind
    trigger: [pre_shell_exec, pre_shell_tool, post_tool_success, post_tool_failure]
    action: nudge
    additional_context: "Reminder (policy GIT-005): run the test suite before pushing."
`;

/** Every builtin pack switched off. */
const NO_BUILTINS = `[packs]
${readdirSync(path.join(ROOT, 'packs'))
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => `${f.replace(/\.ya?ml$/, '')} = { enabled = false }\n`)
  .join('')}`;

function home(name: keyof typeof HOMES, files: Record<string, string>): void {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'rules.d'), { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(path.join(dir, f), text);
  HOMES[name] = dir;
}

beforeAll(() => {
  home('deny', { 'rules.d/e2e-fixtures.yaml': DENY_PACK });
  home('nudge', { 'config.toml': NO_BUILTINS, 'rules.d/e2e-nudge.yaml': NUDGE_PACK });
  home('allow', { 'config.toml': NO_BUILTINS });
  home('defaults', {});
});

type Hook = Ran;

const hook = (args: string[], stdin: string | Buffer, env: Record<string, string> = {}, config = HOMES.defaults): Hook =>
  buckler(args, { stdin, env: homeEnv(tmp, { BUCKLER_CONFIG_HOME: config, ...env }), maxBuffer: 64 << 20 });

/** Exit 0 and nothing or exactly one JSON object on stdout; returns it (null for nothing). */
function reply(h: Hook): Record<string, unknown> | null {
  expect(h.status, h.stderr).toBe(0);
  expect(h.stdout).not.toMatch(/\n\s+at /); // no stack trace
  return singleReply(h.stdout);
}

function blocks(harness: string, h: Hook): boolean {
  return (ADAPTERS[harness] as (typeof ADAPTERS)[string]).isBlocking({ stdout: reply(h), exitCode: h.status ?? -1 });
}

function isPassReply(r: Record<string, unknown> | null): boolean {
  return r === null || Object.keys(r).length === 0;
}

const HARNESSES = Object.keys(ADAPTERS);

describe.each(HARNESSES)('every %s fixture through the built driver', (harness) => {
  const devs = deviations(harness);
  const sets = fixtureSets(harness);
  for (const set of sets) {
    const stdin = JSON.stringify(readFixture(harness, set.input));
    for (const [kind, file] of Object.entries(set.replies)) {
      it(`${set.input} → ${file}`, () => {
        const h = hook(['--driver', harness], stdin, {}, kind === 'deny' ? HOMES.deny : HOMES.nudge);
        const got = reply(h);
        expect(got, h.stderr).not.toBeNull();
        expectFixtureShape(got as Record<string, unknown>, readFixture(harness, file) as Record<string, unknown>, devs[file], expect);
        expect(blocks(harness, h)).toBe(kind === 'deny');
      });
    }
    it(`${set.input} with nothing to object to → no opinion`, () => {
      expect(isPassReply(reply(hook(['--driver', harness], stdin, {}, HOMES.allow)))).toBe(true);
    });
  }
});

describe('--event: Copilot CLI native payloads name no event', () => {
  const raw = readFixture('copilot-cli', 'preToolUse.input.json') as Record<string, unknown>;
  const { hookName: _named, ...unnamed } = raw;
  it('the installed command passes it, and the force push is denied in Copilot shape', () => {
    const h = hook(['--driver', 'copilot-cli', '--event', 'preToolUse'], JSON.stringify(unnamed));
    expect(reply(h)).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('force') });
  });
  it('without it the payload cannot be read: denied, saying why', () => {
    const h = hook(['--driver', 'copilot-cli'], JSON.stringify(unnamed));
    expect(reply(h)).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('--event') });
  });
  it('after an action, a failure is no opinion', () => {
    const h = hook(['--driver', 'copilot-cli', '--event', 'postToolUse'], '{not json');
    expect(isPassReply(reply(h))).toBe(true);
  });
});

describe('the builtin packs through each harness', () => {
  it('a Cursor post-tool git command gets the agent-git nudge as additional_context', () => {
    const h = hook(['--driver', 'cursor'], JSON.stringify(readFixture('cursor', 'postToolUse.input.json')));
    const got = reply(h);
    expect(Object.keys(got ?? {})).toEqual(['additional_context']);
    expect(String(got?.additional_context)).not.toBe('');
  });
  it('a Claude Code post-tool git command gets it as hookSpecificOutput.additionalContext', () => {
    const h = hook(['--driver', 'claude-code'], JSON.stringify(readFixture('claude-code', 'PostToolUse.input.json')));
    expect(reply(h)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: expect.any(String) } });
  });
  it('a Claude Code Read reaches the policy before it runs (pre_shell_tool), and so do Cursor file reads and MCP calls', () => {
    const read = hook(['--driver', 'claude-code'], JSON.stringify(readFixture('claude-code', 'PreToolUse-Read.input.json')), {}, HOMES.deny);
    expect(reply(read)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('FILE-030') } });
    const cursorRead = hook(['--driver', 'cursor'], JSON.stringify(readFixture('cursor', 'beforeReadFile.input.json')), {}, HOMES.deny);
    expect(reply(cursorRead)).toMatchObject({ permission: 'deny', user_message: expect.stringContaining('FILE-030') });
    const mcp = hook(['--driver', 'cursor'], JSON.stringify(readFixture('cursor', 'beforeMCPExecution.input.json')), {}, HOMES.deny);
    expect(reply(mcp)).toMatchObject({ permission: 'deny', user_message: expect.stringContaining('MCP-010') });
  });
  it('a file-tool event with no readable path fails closed, saying why', () => {
    const raw = { ...(readFixture('claude-code', 'PreToolUse-Read.input.json') as object), tool_input: { limit: 1 } };
    const got = reply(hook(['--driver', 'claude-code'], JSON.stringify(raw), {}, HOMES.allow));
    expect(got).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.stringify(got)).toContain('file_path');
  });
  it('BUCKLER_DRIVER picks the harness when --driver is absent', () => {
    const h = hook([], JSON.stringify(readFixture('claude-code', 'PreToolUse.input.json')), { BUCKLER_DRIVER: 'claude-code' }, HOMES.deny);
    expect(reply(h)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });
});

// Bash commands from the default-pack spec (../shared/spec/default-packs.md), baseline tier.
const SPEC: [string, 'allow' | 'deny' | 'ask' | 'nudge'][] = [
  ['git commit -m x', 'deny'],
  ['git commit --amend', 'deny'],
  ['git commit -a -m x', 'deny'],
  ['git commit -F -', 'deny'],
  ['git -C dir commit -m x', 'deny'],
  ['git -c user.name=x commit -m x', 'deny'],
  ['git --git-dir=.git commit -m x', 'deny'],
  ['git --work-tree . commit -m x', 'deny'],
  ['git --no-pager commit -m x', 'deny'],
  ['git add . && git commit -m x', 'deny'],
  ['sudo git commit -m x', 'deny'],
  ["bash -c 'git commit -m x'", 'deny'],
  ['git push -f', 'deny'],
  ['git push --force origin main', 'deny'],
  ['git push -uf origin x', 'deny'],
  ['git push -fu origin x', 'deny'],
  ['git push -vf', 'deny'],
  ['git push origin +main', 'deny'],
  ['git push origin +HEAD:refs/heads/main', 'deny'],
  ['git push -d origin x', 'deny'],
  ['git push --delete origin x', 'deny'],
  ['git push origin :branch', 'deny'],
  ['git push origin :refs/tags/v1', 'deny'],
  ['git push --prune origin', 'deny'],
  ['git push --mirror', 'deny'],
  ['git remote remove origin', 'deny'],
  ['git remote rm origin', 'deny'],
  ['git push --force-with-lease', 'nudge'],
  ['git push --force-with-lease=main:abc123 origin main', 'nudge'],
  ['git add .', 'nudge'],
  ['git add -p', 'nudge'],
  ['gh repo delete o/r', 'deny'],
  ['gh repo archive o/r', 'deny'],
  ['gh release delete v1', 'deny'],
  ['gh release delete-asset v1 a.zip', 'deny'],
  ['gh pr close 42 --delete-branch', 'deny'],
  ['gh pr close 42 -d', 'deny'],
  ['gh api -X DELETE /repos/o/r', 'deny'],
  ['gh api -XDELETE /repos/o/r', 'deny'],
  ['gh api --method delete /repos/o/r', 'deny'],
  ['gh api --method=DELETE /repos/o/r', 'deny'],
  ['gh secret remove TOKEN', 'deny'],
  ['gh secret delete TOKEN', 'deny'],
  ['gh ssh-key delete 1', 'deny'],
  ['gh gpg-key delete 1', 'deny'],
  ["echo 'unterminated", 'deny'],
  ['git log --grep=commit', 'allow'],
  ['git branch commit-review', 'allow'],
  ['git commit-graph write', 'allow'],
  ["echo 'git commit'", 'allow'],
  ["grep -rn 'git push --force' docs/", 'allow'],
  ["cat <<'EOF'\ngit commit -m x\nEOF", 'allow'],
  ['ls # git commit', 'allow'],
  ['git fetch --prune', 'allow'],
  ['git push', 'allow'],
  ['git push -u origin x', 'allow'],
  ['git push --tags', 'allow'],
  ['git push -o ci.skip origin main', 'allow'],
  ['gh pr close 42', 'allow'],
  ['gh api /repos/o/r', 'allow'],
  ['gh api -X POST /repos/o/r/issues', 'allow'],
  // agent-worktree (docs/packs.md): a hard reset asks the person first.
  ['git reset --hard', 'ask'],
  ['git merge main', 'allow'],
  ['git rebase main', 'allow'],
];

function claudeDecision(r: Record<string, unknown> | null): string {
  if (r === null) return 'allow';
  const s = r.hookSpecificOutput as Record<string, unknown> | undefined;
  if (s?.permissionDecision === 'deny' || s?.permissionDecision === 'ask') return s.permissionDecision;
  if (typeof s?.additionalContext === 'string') return 'nudge';
  return `unexpected ${JSON.stringify(r)}`;
}

describe('default-pack commands decide the same through --driver claude-code as through buckler evaluate', () => {
  it.each(SPEC)('%j → %s', (command, want) => {
    const payload = {
      session_id: 's',
      transcript_path: '/t.jsonl',
      cwd: tmp,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command },
      tool_use_id: 'toolu_1',
    };
    const viaHook = claudeDecision(reply(hook(['--driver', 'claude-code'], JSON.stringify(payload))));
    const evalRun = hook(['evaluate'], JSON.stringify({ policy_io_version: '1', trigger: 'pre_shell_tool', shell: { command, cwd: tmp } }));
    expect(evalRun.status, evalRun.stderr).toBe(0);
    const viaEvaluate = (JSON.parse(evalRun.stdout) as { decision: string }).decision;
    expect(viaHook).toBe(viaEvaluate);
    expect(viaHook).toBe(want);
  });
});

const PAYLOADS = {
  cursor: {
    pre: (command: unknown) => ({ hook_event_name: 'beforeShellExecution', command, cwd: '/p', workspace_roots: ['/p'] }),
    post: (command: unknown) => ({ hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: { command }, cwd: '/p' }),
  },
  'claude-code': {
    pre: (command: unknown) => ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command } }),
    post: (command: unknown) => ({ hook_event_name: 'PostToolUse', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command } }),
  },
} as const;

describe.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('the operator bypass through %s', (harness) => {
  const pre = (command: string) => JSON.stringify(PAYLOADS[harness].pre(command));
  it('git commit is denied without it', () => {
    expect(blocks(harness, hook(['--driver', harness], pre('git commit -m x')))).toBe(true);
  });
  it('BUCKLER_BYPASS=1 in the hook environment allows it (no opinion)', () => {
    expect(isPassReply(reply(hook(['--driver', harness], pre('git commit -m x'), { BUCKLER_BYPASS: '1' })))).toBe(true);
  });
  it('RETHUNK_ALLOW_SHELL=1 (the older name) too', () => {
    expect(isPassReply(reply(hook(['--driver', harness], pre('git commit -m x'), { RETHUNK_ALLOW_SHELL: '1' })))).toBe(true);
  });
  it.each(['0', ''])('BUCKLER_BYPASS=%j does not', (v) => {
    expect(blocks(harness, hook(['--driver', harness], pre('git commit -m x'), { BUCKLER_BYPASS: v }))).toBe(true);
  });
  it.each(['BUCKLER_BYPASS=1 git commit -m x', 'env BUCKLER_BYPASS=1 git commit -m x', 'export BUCKLER_BYPASS=1; git commit -m x'])(
    'written in the command (%j) it does not',
    (command) => {
      expect(blocks(harness, hook(['--driver', harness], pre(command)))).toBe(true);
    },
  );
});

describe.each(Object.keys(PAYLOADS) as (keyof typeof PAYLOADS)[])('bad input through %s: one valid reply, deny before, pass after', (harness) => {
  const P = PAYLOADS[harness];
  const big = `echo ${'a'.repeat(10 * 1024 * 1024)}`;
  const cases: [string, 'deny' | 'pass', string | Buffer][] = [
    ['empty stdin', 'deny', ''],
    ['invalid JSON', 'deny', '{"hook_event_name": '],
    ['a JSON array', 'deny', JSON.stringify([P.pre('ls')])],
    ['a 10 MB command before', 'deny', JSON.stringify(P.pre(big))],
    ['a 10 MB command after', 'pass', JSON.stringify(P.post(big))],
    [
      'invalid UTF-8 before',
      'deny',
      Buffer.concat([Buffer.from(JSON.stringify(P.pre('ls')).slice(0, -2)), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    ],
    ['wrong field types before', 'deny', JSON.stringify(P.pre(['git', 'commit']))],
    ['wrong field types after', 'pass', JSON.stringify(P.post(42))],
    ['truncated JSON after', 'pass', JSON.stringify(P.post('git push')).slice(0, -4)],
    // An unknown event carrying a tool call and no result is a pre-action (shared/spec/default-packs.md):
    // Claude Code's names the tool (tool_name, tool_input); Cursor's shell event carries none.
    ['an unknown event', harness === 'claude-code' ? 'deny' : 'pass', JSON.stringify({ ...P.pre('git commit -m x'), hook_event_name: 'somethingNewEvent' })],
    ['an unknown event with a result', 'pass', JSON.stringify({ ...P.post('git commit -m x'), hook_event_name: 'somethingNewEvent', tool_response: { stdout: '' } })],
    ['a PolicyInput with policy_io_version "2"', 'deny', JSON.stringify({ policy_io_version: '2', trigger: 'pre_shell_exec', shell: { command: 'ls' } })],
  ];
  it.each(cases)('%s → %s', (_name, want, stdin) => {
    const h = hook(['--driver', harness], stdin);
    const r = reply(h);
    if (want === 'deny') {
      expect(blocks(harness, h), h.stdout).toBe(true);
      expect(h.stdout.length).toBeLessThan(4096); // says why, without echoing the payload
    } else {
      expect(isPassReply(r), h.stdout).toBe(true);
    }
  });
  it('an unknown driver name still answers with a deny the harness understands', () => {
    const h = hook(['--driver', `${harness}-typo`], JSON.stringify(P.pre('ls')));
    expect(blocks(harness, h)).toBe(true);
    expect(h.stdout).toContain(`unknown driver '${harness}-typo'`);
  });
});
