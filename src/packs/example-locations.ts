/**
 * The named locations (`context.locations`) rule examples stand in: what the CLI computes
 * (src/cli/locations.ts) for the fake home /home/dev on Linux with no BUCKLER_*, XDG_* or
 * harness variables set. A test there keeps the two equal; a harness added to the installers'
 * data changes both.
 */
export const EXAMPLE_LOCATIONS: Readonly<Record<string, string[]>> = {
  buckler_config: ['/home/dev/.config/buckler', '/home/dev/.config/buckler/**'],
  buckler_state: ['/home/dev/.local/state/buckler', '/home/dev/.local/state/buckler/**'],
  buckler_data: ['/home/dev/.local/share/buckler', '/home/dev/.local/share/buckler/**', '/home/dev/.local/bin/buckler'],
  harness_settings: [
    '/home/dev/.cursor/hooks.json',
    '.cursor/hooks.json',
    '/etc/cursor/hooks.json',
    '/home/dev/.claude/settings.json',
    '/home/dev/.claude/settings.local.json',
    '.claude/settings.json',
    '.claude/settings.local.json',
    '/etc/claude-code/managed-settings.json',
    '/home/dev/.codex/hooks.json',
    '/home/dev/.codex/config.toml',
    '.codex/hooks.json',
    '.codex/config.toml',
    '/home/dev/.gemini/settings.json',
    '.gemini/settings.json',
    '/etc/gemini-cli/settings.json',
    '/home/dev/.copilot/settings.json',
    '.github/copilot/settings.json',
    '.github/copilot/settings.local.json',
    '.github/hooks/*.json',
    '/home/dev/.factory/settings.json',
    '/home/dev/.factory/settings.local.json',
    '/home/dev/.factory/hooks.json',
    '.factory/settings.json',
    '.factory/settings.local.json',
    '.factory/hooks.json',
    '/home/dev/.qwen/settings.json',
    '.qwen/settings.json',
  ],
  harness_credentials: [
    '/home/dev/.config/cursor/auth.json',
    '/home/dev/.claude/.credentials.json',
    '/home/dev/.codex/auth.json',
    '/home/dev/.gemini/oauth_creds.json',
    '/home/dev/.copilot/config.json',
    '/home/dev/.factory/auth.json',
    '/home/dev/.qwen/oauth_creds.json',
  ],
  harness_trust: ['/home/dev/.claude.json', '/home/dev/.codex/config.toml', '/home/dev/.gemini/trustedFolders.json', '/home/dev/.copilot/config.json'],
};
