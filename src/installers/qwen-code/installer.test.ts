import { describe, expect, it } from 'vitest';
import { qwenCodeInstaller as qwen } from './installer.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver qwen-code";
const theirs = { matcher: '^run_shell_command$', hooks: [{ type: 'command', command: './audit.sh' }] };
const handler = { type: 'command', name: 'buckler', command: CMD, timeout: 10000 };

describe('qwen-code installer', () => {
  it('writes a 10 000 timeout (10 s whether Qwen reads ms or s) and matches both shell names', () => {
    const { value } = qwen.wire({ hooks: { PreToolUse: [theirs] } }, CMD);
    expect(value).toEqual({
      hooks: {
        PreToolUse: [theirs, { matcher: '^(run_shell_command|Bash|write_file|edit|replace|read_file|mcp__.+)$', hooks: [handler] }],
        PostToolUse: [{ matcher: '^(run_shell_command|Bash)$', hooks: [handler] }],
      },
    });
    expect(qwen.unwire(value).value).toEqual({ hooks: { PreToolUse: [theirs] } });
  });

  it('warns about disableAllHooks and declares it as an off switch', () => {
    expect(qwen.warnings({ disableAllHooks: true })[0]).toContain('disableAllHooks');
    expect(qwen.warnings({})).toEqual([]);
    expect(qwen.offSwitches.map((s) => s.key)).toEqual(['disableAllHooks']);
  });
});
