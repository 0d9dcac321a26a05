import { describe, it, expect } from 'vitest';
import { copilotCliInstaller as copilot, COPILOT_REPO_TRUST_NOTE } from './installer.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver copilot-cli";
const OLD = "'/usr/bin/node' '/old/dist/buckler.cjs' --driver copilot-cli";
const entry = (event: string, cmd = CMD) => ({ type: 'command', bash: `${cmd} --event ${event}`, timeoutSec: 10 });
const theirs = { type: 'command', bash: './audit.sh', timeoutSec: 5 };

describe('copilot-cli wire', () => {
  it('adds one native entry per event, each passing its event with --event', () => {
    const { value, changes } = copilot.wire({}, CMD);
    expect(value).toEqual({ hooks: { preToolUse: [entry('preToolUse')], postToolUse: [entry('postToolUse')], postToolUseFailure: [entry('postToolUseFailure')] } });
    expect(changes.map((c) => `${c.op} ${c.event}`)).toEqual(['add preToolUse', 'add postToolUse', 'add postToolUseFailure']);
  });

  it('keeps other settings and hooks in place, and is idempotent', () => {
    const before = { model: 'gpt-5', trustedFolders: ['/x'], hooks: { preToolUse: [theirs], sessionStart: [theirs] } };
    const once = copilot.wire(before, CMD).value;
    expect(Object.keys(once)).toEqual(['model', 'trustedFolders', 'hooks']);
    expect((once.hooks as Record<string, unknown[]>).preToolUse).toEqual([theirs, entry('preToolUse')]);
    expect(copilot.wire(once, CMD).changes).toEqual([]);
    expect(copilot.unwire(once).value).toEqual(before);
  });

  it('replaces an older install in place, and an entry wired for the wrong event', () => {
    const before = { hooks: { preToolUse: [entry('preToolUse', OLD)], postToolUse: [entry('preToolUse')] } };
    const { value, changes } = copilot.wire(before, CMD);
    expect((value.hooks as Record<string, unknown[]>).preToolUse).toEqual([entry('preToolUse')]);
    expect((value.hooks as Record<string, unknown[]>).postToolUse).toEqual([entry('postToolUse')]);
    expect(changes[0]).toMatchObject({ op: 'replace', event: 'preToolUse', previous: OLD });
  });

  it('finds its entries by `bash` or `command`, reporting the shared command without --event', () => {
    const value = { hooks: { preToolUse: [entry('preToolUse')], postToolUse: [{ type: 'command', command: `${CMD} --event postToolUse` }] } };
    expect(copilot.find(value).map((f) => [f.event, f.command, f.asWanted])).toEqual([
      ['preToolUse', CMD, true],
      ['postToolUse', CMD, false],
    ]);
  });
});

describe('copilot-cli warnings', () => {
  it('says when hooks are switched off', () => {
    expect(copilot.warnings({ disableAllHooks: true }, '/h/.copilot/settings.json')).toEqual([
      'has "disableAllHooks": true; Copilot CLI runs none of its hooks',
    ]);
  });
  it('says that repository hooks need a trusted folder, only for the repository file', () => {
    expect(copilot.warnings({}, '/p/.github/copilot/settings.json')).toEqual([COPILOT_REPO_TRUST_NOTE]);
    expect(copilot.warnings({}, '/h/.copilot/settings.json')).toEqual([]);
  });
});
