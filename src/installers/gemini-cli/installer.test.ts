import { describe, it, expect } from 'vitest';
import { geminiCliInstaller as gemini } from './installer.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver gemini-cli";
const mine = { matcher: 'write_file', hooks: [{ type: 'command', command: 'npx prettier --write', timeout: 5000 }] };
const handler = { type: 'command', name: 'buckler', command: CMD, timeout: 10000 };
const before = { matcher: '^(run_shell_command|read_file|read_many_files|write_file|replace|mcp_.+)$', hooks: [handler] };
const after = { matcher: '^run_shell_command$', hooks: [handler] };

describe('gemini-cli wire', () => {
  it('adds BeforeTool and AfterTool groups, timeout in milliseconds, named for hooksConfig.disabled', () => {
    const { value } = gemini.wire(gemini.emptyConfig(), CMD);
    expect(value).toEqual({ hooks: { BeforeTool: [before], AfterTool: [after] } });
  });

  it('keeps the settings keys inside hooks and every other key in place', () => {
    const start = { security: { auth: { selectedType: 'gemini-api-key' } }, hooks: { enabled: true, disabled: ['lint'], BeforeTool: [mine] } };
    const { value } = gemini.wire(start, CMD);
    expect(value).toEqual({ security: start.security, hooks: { enabled: true, disabled: ['lint'], BeforeTool: [mine, before], AfterTool: [after] } });
    expect(gemini.unwire(value).value).toEqual(start);
    expect(gemini.wire(value, CMD).changes).toEqual([]);
  });

  it('a settings key inside hooks is not an event list, so it is not a problem', () => {
    expect(gemini.problem({ hooks: { enabled: false, notifications: true } })).toBeNull();
    expect(gemini.problem({ hooks: { BeforeTool: {} } })).toMatch(/"hooks.BeforeTool" must be a list/);
  });
});

describe('gemini-cli warnings', () => {
  it.each([
    [{ hooksConfig: { enabled: false } }, /runs none of its hooks/],
    [{ hooksConfig: { disabled: ['buckler'] } }, /skips Buckler's hooks/],
    [{ hooks: { disabled: ['buckler'] } }, /skips Buckler's hooks/],
    [{ security: { folderTrust: { enabled: true } } }, /folders you trust/],
  ])('%j', (value, message) => {
    expect(gemini.warnings(value).join('\n')).toMatch(message);
  });
  it('says nothing about an ordinary settings file', () => {
    expect(gemini.warnings({ hooksConfig: { enabled: true, disabled: ['lint'] } })).toEqual([]);
  });
});
