/**
 * What a real-client test needs to know about one harness: how to run its CLI headless against
 * the fake model, what its shell tool call looks like, and what to write before Buckler's own
 * installer wires it (the model provider settings a person would have).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type ClientName, ensureClient } from './clients.ts';
import { type Dialect, type ToolCall, anthropic, gemini, openaiResponses } from './fake-model.ts';
import type { Sandbox } from './sandbox.ts';

export interface HarnessRun {
  client: ClientName;
  /** Buckler's name for the harness (`buckler hooks merge --harness <name>`). */
  harness: string;
  dialect: Dialect;
  /** The model's call of the harness's shell tool. */
  shell(command: string): ToolCall;
  /** Settings the person has before Buckler is installed (the fake model provider, …). */
  prepare(sb: Sandbox, modelUrl: string): void;
  /** The file Buckler's installer writes into, to check the wiring. */
  hooksFile(sb: Sandbox): string;
  argv(bin: string): [string, string[]];
  env(sb: Sandbox, modelUrl: string): Record<string, string>;
  /** Scenarios this harness cannot run, with the reason. */
  unsupported?: Record<string, string>;
}

const PROMPT = 'Run the scripted commands.';

export const CLAUDE_CODE: HarnessRun = {
  client: 'claude-code',
  harness: 'claude-code',
  dialect: anthropic,
  shell: (command) => ({ name: 'Bash', input: { command, description: 'scripted' } }),
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
  // Hook trust is the person's step (`buckler hooks status` reports it); a test run skips it.
  argv: (bin) => [bin, ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', PROMPT]],
  env: () => ({ FAKE_KEY: 'fake' }),
};

export const GEMINI_CLI: HarnessRun = {
  client: 'gemini-cli',
  harness: 'gemini-cli',
  dialect: gemini,
  shell: (command) => ({ name: 'run_shell_command', input: { command } }),
  prepare(sb) {
    const dir = path.join(sb.home, '.gemini');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)}\n`);
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

export { ensureClient };
