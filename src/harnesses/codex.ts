/** Codex CLI. Facts from the native binary of `@openai/codex` 0.169.0 (run end to end 2026-12-01 and 2026-12-03). */
import type { HarnessRecord } from './record.ts';

export const codex = {
  name: 'codex',
  title: 'Codex CLI',
  readFrom: '@openai/codex 0.169.0',
  home: { path: ['.codex'], variable: { name: 'CODEX_HOME', is: 'folder' } },
  scopes: {
    user: { base: 'harness_home', path: ['hooks.json'] },
    project: { base: 'project', path: ['.codex', 'hooks.json'] },
  },
  files: {
    // hooks.json in each config layer; config.toml holds `[features] hooks` and inline `[hooks]`.
    settings: [
      { base: 'harness_home', path: 'hooks.json' },
      { base: 'harness_home', path: 'config.toml' },
      { base: 'project', path: '.codex/hooks.json' },
      { base: 'project', path: '.codex/config.toml' },
    ],
    credentials: [{ base: 'harness_home', path: 'auth.json' }],
    // Per-hook trusted hashes (`[hooks.state."…"] trusted_hash`) and project trust live in config.toml.
    trust: [{ base: 'harness_home', path: 'config.toml' }],
  },
  // Binary strings: `/etc/codex/requirements.toml` (managed requirements: `[hooks]` with
  // `managed_dir`, `allow_managed_hooks_only`), `/etc/codex/config.toml` (a system config layer
  // the user's overrides), `/etc/codex/managed_config.toml` (legacy). macOS reads MDM instead.
  system: {
    files: { linux: '/etc/codex/requirements.toml' },
    hooks: 'managed hooks (requirements) run without the per-hook trust step, and allow_managed_hooks_only drops the others; the exact [hooks] shape is not yet verified in a real run',
    lockedDown: false,
  },
  ask: [
    { mode: 'every mode (interactive, exec, --dangerously-bypass-approvals-and-sandbox)', becomes: 'deny', note: "Codex runs the tool on a hook's ask, so Buckler answers ask with a deny" },
  ],
  // The CLI an agent could start from its shell: a nested agent (agent-tamper, generated block).
  cli: { programs: ['codex'], settingsVariables: ['CODEX_HOME'], settingsOptions: ['--config', '-c', '--profile', '-p'], approvalsOff: ['--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto'], approvalsOffWords: ['danger-full-access'] },
} as const satisfies HarnessRecord;
