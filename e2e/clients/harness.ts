/**
 * What a real-client test needs to know about one harness: how to run its CLI headless against
 * the fake model, what its shell tool call looks like, and what to write before Buckler's own
 * installer wires it (the model provider settings a person would have).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type ClientName, ensureClient } from './clients.ts';
import { type Dialect, type ToolCall, anthropic, gemini, openaiChat, openaiResponses } from './fake-model.ts';
import type { Sandbox } from './sandbox.ts';

export interface HarnessRun {
  client: ClientName;
  /** Buckler's name for the harness (`buckler hooks merge --harness <name>`). */
  harness: string;
  dialect: Dialect;
  /** The model's call of the harness's shell tool. */
  shell(command: string): ToolCall;
  /** Its own file-read tool reading `file` (absent: the harness reads files through the shell only). */
  read?(file: string): ToolCall;
  /** Its own file-edit tool making `file` hold `content` (`current`: what it holds now, absent for a new file). */
  write?(file: string, content: string, current: string | undefined): ToolCall;
  /** Settings the person has before Buckler is installed (the fake model provider, …). */
  prepare(sb: Sandbox, modelUrl: string): void;
  /** The file Buckler's installer writes into, to check the wiring. */
  hooksFile(sb: Sandbox): string;
  argv(bin: string): [string, string[]];
  env(sb: Sandbox, modelUrl: string): Record<string, string>;
  /** The wall-clock bound of one client run (default: suite.ts). */
  timeoutMs?: number;
  /** Scenarios this harness cannot run, with the reason. */
  unsupported?: Record<string, string>;
}

const PROMPT = 'Run the scripted commands.';

export const CLAUDE_CODE: HarnessRun = {
  client: 'claude-code',
  harness: 'claude-code',
  dialect: anthropic,
  shell: (command) => ({ name: 'Bash', input: { command, description: 'scripted' } }),
  read: (file_path) => ({ name: 'Read', input: { file_path } }),
  write: (file_path, content) => ({ name: 'Write', input: { file_path, content } }),
  prepare: () => {},
  hooksFile: (sb) => path.join(sb.home, '.claude', 'settings.json'),
  argv: (bin) => [bin, ['-p', PROMPT, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions']],
  env: (_sb, url) => ({
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-ant-fake',
    // real-clients.md: no telemetry, no updater, no traffic but the model's.
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    // Root may use bypass mode only in a sandbox; bypass leaves the decision to hooks alone.
    IS_SANDBOX: '1',
  }),
};

export const CODEX: HarnessRun = {
  client: 'codex',
  harness: 'codex',
  dialect: openaiResponses,
  shell: (cmd) => ({ name: 'exec_command', input: { cmd } }),
  // No file-read tool (reads go through the shell). Its file edits are `apply_patch` patches,
  // which it takes from the shell tool too (`apply_patch <<'EOF'`) and runs as its own tool.
  write: (file, content, current) => {
    const body = content.replace(/\n$/, '').split('\n').map((l) => `+${l}`);
    const was = (current ?? '').replace(/\n$/, '').split('\n').map((l) => `-${l}`);
    const op = current === undefined ? [`*** Add File: ${file}`, ...body] : [`*** Update File: ${file}`, '@@', ...was, ...body];
    const patch = ['*** Begin Patch', ...op, '*** End Patch'];
    return { name: 'exec_command', input: { cmd: `apply_patch <<'EOF'\n${patch.join('\n')}\nEOF\n` } };
  },
  prepare(sb, url) {
    const dir = path.join(sb.home, '.codex');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'config.toml'),
      [
        'model = "gpt-fake"',
        'model_provider = "fake"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        '',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_KEY"',
        '',
      ].join('\n'),
    );
  },
  hooksFile: (sb) => path.join(sb.home, '.codex', 'hooks.json'),
  // No --dangerously-bypass-hook-trust: Codex runs the hooks because `buckler hooks merge`
  // recorded their trust in config.toml, as it does for a person.
  argv: (bin) => [bin, ['exec', '--skip-git-repo-check', PROMPT]],
  env: () => ({ FAKE_KEY: 'fake' }),
};

export const GEMINI_CLI: HarnessRun = {
  client: 'gemini-cli',
  harness: 'gemini-cli',
  dialect: gemini,
  shell: (command) => ({ name: 'run_shell_command', input: { command } }),
  read: (file_path) => ({ name: 'read_file', input: { file_path } }),
  write: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
  prepare(sb) {
    const dir = path.join(sb.home, '.gemini');
    fs.mkdirSync(dir, { recursive: true });
    // The home as a workspace directory too: else Gemini's own file tools refuse every path in
    // it ("Path not in workspace") before any hook runs, and the protection steps that read the
    // key or edit the hook settings through them would show Gemini's check, not Buckler's.
    const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, context: { includeDirectories: [sb.home] } };
    fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  },
  hooksFile: (sb) => path.join(sb.home, '.gemini', 'settings.json'),
  // Without --yolo a headless run offers no shell tool at all.
  argv: (bin) => [bin, ['-p', PROMPT, '--yolo', '-m', 'gemini-2.5-flash']],
  env: (_sb, url) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'fake', GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
  unsupported: {
    // Gemini CLI 0.61.0 reads additionalContext from AfterTool only (executeToolWithHooks);
    // BeforeTool has no channel to the model, and this nudge is a rule on the command before it runs.
    'a nudge reaches the model and the command still runs': 'Gemini CLI has no way to add context before a tool runs',
  },
};

export const COPILOT_CLI: HarnessRun = {
  client: 'copilot-cli',
  harness: 'copilot-cli',
  dialect: openaiResponses,
  shell: (command) => ({ name: 'bash', input: { command, description: 'scripted' } }),
  read: (p) => ({ name: 'view', input: { path: p } }),
  write: (p, content, current) =>
    current === undefined ? { name: 'create', input: { path: p, file_text: content } } : { name: 'edit', input: { path: p, old_str: current, new_str: content } },
  prepare(sb) {
    fs.mkdirSync(path.join(sb.home, '.copilot'), { recursive: true });
  },
  hooksFile: (sb) => path.join(sb.home, '.copilot', 'settings.json'),
  argv: (bin) => [bin, ['-p', PROMPT, '--allow-all-tools']],
  env: (sb, url) => ({
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_WIRE_API: 'responses',
    COPILOT_PROVIDER_API_KEY: 'fake',
    COPILOT_MODEL: 'gpt-5.1',
    COPILOT_HOME: path.join(sb.home, '.copilot'),
  }),
};

export const QWEN_CODE: HarnessRun = {
  client: 'qwen-code',
  harness: 'qwen-code',
  dialect: openaiChat,
  shell: (command) => ({ name: 'run_shell_command', input: { command, is_background: false } }),
  read: (file_path) => ({ name: 'read_file', input: { file_path } }),
  write: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
  prepare(sb) {
    const dir = path.join(sb.home, '.qwen');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'openai' } } }, null, 2)}\n`);
  },
  hooksFile: (sb) => path.join(sb.home, '.qwen', 'settings.json'),
  // --yolo: no approval prompt in a headless run, so the decision is the hooks' alone.
  argv: (bin) => [bin, ['-p', PROMPT, '--yolo']],
  env: (_sb, url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'fake', OPENAI_MODEL: 'qwen-fake' }),
  unsupported: {
    // 0.24.4's scheduler takes PreToolUse additionalContext from firePreToolUseHook but only
    // records that it was there (`hasAdditionalContext`); PostToolUse's does reach the model.
    'a nudge reaches the model and the command still runs': 'Qwen Code 0.24.4 drops additionalContext from PreToolUse',
  },
};

export const FACTORY_DROID: HarnessRun = {
  client: 'factory-droid',
  harness: 'factory-droid',
  dialect: openaiChat,
  shell: (command) => ({ name: 'Execute', input: { summary: 'scripted', command } }),
  read: (file_path) => ({ name: 'Read', input: { file_path } }),
  write: (file_path, content, current) =>
    current === undefined ? { name: 'Create', input: { file_path, content } } : { name: 'Edit', input: { file_path, old_str: current, new_str: content } },
  prepare(sb, url) {
    const dir = path.join(sb.home, '.factory');
    fs.mkdirSync(dir, { recursive: true });
    // A bring-your-own-key model: no Factory login, no traffic but the model's.
    const model = { model: 'fake', displayName: 'Fake', provider: 'generic-chat-completion-api', baseUrl: `${url}/v1`, apiKey: 'fake', maxOutputTokens: 1000 };
    fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify({ customModels: [model] }, null, 2)}\n`);
  },
  hooksFile: (sb) => path.join(sb.home, '.factory', 'settings.json'),
  // --skip-permissions-unsafe: no approval step, so the decision is the hooks' alone.
  argv: (bin) => [bin, ['exec', '-m', 'custom:Fake-0', '--skip-permissions-unsafe', PROMPT]],
  env: () => ({}),
  unsupported: {
    // The binary adds PreToolUse additionalContext as an llm_only system message through the
    // session UI's `updateAction`; in a `droid exec` run it never reached the model.
    'a nudge reaches the model and the command still runs': 'droid exec 0.225.2 does not pass PreToolUse additionalContext to the model',
  },
};

/**
 * The person's settings of OpenCode and its forks: a custom OpenAI-compatible provider pointing at
 * the fake model, in `dir/file` (plus `extra` top-level keys). At start these clients run
 * `npm install` of their plugin package in each config folder whose node_modules or lock file
 * lacks it (OpenCode's Npm.install, "background dependency install"): the registry, and seconds
 * of waiting. Said to be present (`dep`), it is skipped; Buckler's plugin imports nothing but
 * node:child_process.
 */
function opencodeStyleConfig(dir: string, file: string, url: string, extra: Record<string, unknown>, dep: Record<string, string>): void {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const provider = {
    npm: '@ai-sdk/openai-compatible',
    name: 'Fake',
    options: { baseURL: `${url}/v1`, apiKey: 'fake' },
    models: { 'fake-model': { name: 'Fake', tool_call: true } },
  };
  const config = { ...extra, autoupdate: false, share: 'disabled', model: 'fake/fake-model', provider: { fake: provider } };
  fs.writeFileSync(path.join(dir, file), `${JSON.stringify(config, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ dependencies: dep })}\n`);
  fs.writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify({ packages: { '': { dependencies: dep } } })}\n`);
}

/**
 * OpenCode 1.18.33: no command hooks; `buckler hooks merge --harness opencode` writes Buckler's
 * plugin into `~/.config/opencode/plugins/`. The person's settings: a custom OpenAI-compatible
 * provider in `~/.config/opencode/opencode.json`. `opencode run` asks no approval for `bash`
 * (its default permission is allow), so the decision is the plugin's alone.
 */
export const OPENCODE: HarnessRun = {
  client: 'opencode',
  harness: 'opencode',
  dialect: openaiChat,
  shell: (command) => ({ name: 'bash', input: { command, description: 'scripted' } }),
  read: (filePath) => ({ name: 'read', input: { filePath } }),
  write: (filePath, content) => ({ name: 'write', input: { filePath, content } }),
  prepare(sb, url) {
    // Its most permissive mode: no ask for paths outside the project either (an ask is
    // auto-rejected in `opencode run`, which ends the run), so Buckler's plugin alone decides.
    const permission = { external_directory: 'allow' };
    opencodeStyleConfig(path.join(sb.home, '.config', 'opencode'), 'opencode.json', url, { $schema: 'https://opencode.ai/config.json', permission }, { '@opencode-ai/plugin': '1.18.33' });
  },
  hooksFile: (sb) => path.join(sb.home, '.config', 'opencode', 'plugins', 'buckler.js'),
  argv: (bin) => [bin, ['run', '-m', 'fake/fake-model', PROMPT]],
  env: () => ({ OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_SHARE: '1' }),
};

/**
 * Kilo Code CLI 7.7.9, an OpenCode fork: `buckler hooks merge --harness kilo-code` writes the
 * same plugin into `~/.config/kilo/plugins/`. The person's settings: a custom OpenAI-compatible
 * provider in `~/.config/kilo/kilo.json`. `kilo run --auto` is its most permissive headless
 * mode (it approves every ask Kilo itself would raise), so the decision is the plugin's alone.
 */
export const KILO_CODE: HarnessRun = {
  client: 'kilo-code',
  harness: 'kilo-code',
  dialect: openaiChat,
  shell: (command) => ({ name: 'bash', input: { command, description: 'scripted' } }),
  read: (filePath) => ({ name: 'read', input: { filePath } }),
  write: (filePath, content) => ({ name: 'write', input: { filePath, content } }),
  prepare(sb, url) {
    opencodeStyleConfig(path.join(sb.home, '.config', 'kilo'), 'kilo.json', url, {}, { '@kilocode/plugin': '7.7.9' });
  },
  hooksFile: (sb) => path.join(sb.home, '.config', 'kilo', 'plugins', 'buckler.js'),
  // Its Bun binary took minutes to reach the model on a loaded 2-core machine.
  timeoutMs: 900_000,
  argv: (bin) => [bin, ['run', '--auto', '-m', 'fake/fake-model', PROMPT]],
  // No traffic but the model's: no updater, model list, LSP download, sharing, telemetry,
  // codebase indexing or session upload (each otherwise tries the network and waits).
  env: () => ({
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_TELEMETRY_LEVEL: 'off',
    KILO_DISABLE_CODEBASE_INDEXING: '1',
    KILO_DISABLE_SESSION_INGEST: '1',
    KILO_DISABLE_PRESENCE: '1',
  }),
};

export { ensureClient };
