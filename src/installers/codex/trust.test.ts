import { describe, expect, it } from 'vitest';
import { InstallerError } from '../errors.ts';
import { codexInstaller as codex, codexTrust } from './installer.ts';
import { codexHookEntries } from './trust-entries.ts';
import { editHookState, headerKey } from './toml-state.ts';
import { ownTrust, updateTrust } from './trust.ts';

const CFG = '/h/.codex/config.toml';
const HOOKS = '/h/.codex/hooks.json';
const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver codex";
const CMD2 = "'/usr/bin/node' '/opt/buckler-2/dist/buckler.cjs' --driver codex";
const PERSON = [
  '# the person\'s own settings',
  'model = "gpt-5.1-codex"   # a trailing comment',
  'approval_policy = "never"',
  '',
  '[model_providers.fake]',
  'name = "fake"',
  'base_url = "http://127.0.0.1:9/v1"',
  '',
].join('\n');
const theirs = { matcher: 'Bash', hooks: [{ type: 'command', command: './notify.sh', timeout: 5 }] };

function wired(value: Record<string, unknown> = {}, command = CMD): Record<string, unknown> {
  return codex.wire(value, command).value;
}

describe('headerKey', () => {
  it.each([
    ['[hooks.state."/a/hooks.json:pre_tool_use:0:0"]', ['hooks', 'state', '/a/hooks.json:pre_tool_use:0:0']],
    ["  [ hooks . state . '/a b' ]  # c", ['hooks', 'state', '/a b']],
    ['[hooks.state."q\\"x\\\\y\\u00e9"]', ['hooks', 'state', 'q"x\\yé']],
    ['[model_providers.fake]', ['model_providers', 'fake']],
    ['[[hooks.PreToolUse]]', null],
    ['model = "[x]"', null],
    ['[a."unterminated]', null],
  ])('%s', (line, key) => expect(headerKey(line)).toEqual(key));
});

describe('editHookState: only the trust tables change, every other byte stays', () => {
  it('appends a table, then removing it gives back the exact bytes', () => {
    const out = editHookState(CFG, PERSON, [{ key: 'k:1', op: 'set', field: 'trusted_hash', value: 'sha256:aa' }]);
    expect(out).toBe(`${PERSON}\n[hooks.state."k:1"]\ntrusted_hash = "sha256:aa"\n`);
    expect(editHookState(CFG, out, [{ key: 'k:1', op: 'remove' }])).toBe(PERSON);
  });

  it('replaces the hash line inside a table Codex wrote, keeping its other fields and the tables around it', () => {
    const text = `${PERSON}[hooks.state]\n\n[hooks.state."k:1"]\nenabled = true\ntrusted_hash = "sha256:old"\n\n[hooks.state."other"]\ntrusted_hash = "sha256:theirs"\n`;
    const out = editHookState(CFG, text, [{ key: 'k:1', op: 'set', field: 'trusted_hash', value: 'sha256:new' }]);
    expect(out).toBe(text.replace('sha256:old', 'sha256:new'));
    const removed = editHookState(CFG, out, [{ key: 'k:1', op: 'remove' }]);
    expect(removed).toBe(`${PERSON}[hooks.state]\n\n[hooks.state."other"]\ntrusted_hash = "sha256:theirs"\n`);
  });

  it('keeps CRLF line endings and adds a missing final newline only where it appends', () => {
    const text = 'a = 1\r\nb = 2';
    expect(editHookState(CFG, text, [{ key: 'k', op: 'set', field: 'trusted_hash', value: 'h' }])).toBe('a = 1\r\nb = 2\r\n\r\n[hooks.state."k"]\r\ntrusted_hash = "h"\r\n');
  });

  it.each([
    ['an inline hooks.state', 'hooks.state = { "k" = { trusted_hash = "x" } }\n'],
    ['dotted keys under [hooks]', '[hooks]\nstate."k".trusted_hash = "x"\n'],
  ])('refuses %s (a duplicate table would break the whole file)', (_name, text) => {
    expect(() => editHookState(CFG, text, [{ key: 'k', op: 'set', field: 'trusted_hash', value: 'h' }])).toThrow(/hooks\.state in a form Buckler does not edit/);
  });

  it('refuses a config.toml that is not TOML, naming it', () => {
    expect(() => editHookState(CFG, 'model = \n', [{ key: 'k', op: 'remove' }])).toThrow(InstallerError);
    expect(() => editHookState(CFG, 'model = \n', [{ key: 'k', op: 'remove' }])).toThrow(/config\.toml: is not valid TOML/);
  });
});

describe('updateTrust: merge records, edits re-record, strip removes', () => {
  it("records a trusted_hash for each of Buckler's entries, nothing for the person's", () => {
    const value = wired({ hooks: { PreToolUse: [theirs] } });
    const u = updateTrust(CFG, PERSON, HOOKS, { hooks: { PreToolUse: [theirs] } }, value);
    const own = codexHookEntries(value, HOOKS).filter((e) => e.own);
    expect(own.map((e) => e.key)).toEqual([`${HOOKS}:pre_tool_use:1:0`, `${HOOKS}:post_tool_use:0:0`]);
    expect(u.text).toBe(PERSON + own.map((e) => `\n[hooks.state.${JSON.stringify(e.key)}]\ntrusted_hash = "${e.hash}"\n`).join(''));
    expect(u.text).not.toContain(':pre_tool_use:0:0');
    expect(ownTrust(CFG, u.text, HOOKS, value).map((t) => t.state)).toEqual(['trusted', 'trusted']);
    // Idempotent: nothing to change the second time.
    expect(updateTrust(CFG, u.text, HOOKS, value, value)).toEqual({ text: null, notes: [] });
  });

  it('re-records when a merge changes the command, and strip gives back the exact bytes', () => {
    const v1 = wired();
    const t1 = updateTrust(CFG, PERSON, HOOKS, null, v1).text as string;
    const v2 = wired(v1, CMD2);
    const t2 = updateTrust(CFG, t1, HOOKS, v1, v2).text as string;
    expect(ownTrust(CFG, t1, HOOKS, v2).map((t) => t.state)).toEqual(['modified', 'modified']);
    expect(ownTrust(CFG, t2, HOOKS, v2).map((t) => t.state)).toEqual(['trusted', 'trusted']);
    const stripped = codex.unwire(v2).value;
    expect(updateTrust(CFG, t2, HOOKS, v2, stripped).text).toBe(PERSON);
    expect(updateTrust(CFG, t2, HOOKS, v2, null).text).toBe(PERSON);
  });

  it("moves the person's trust with a hook that strip shifts, and never trusts an untrusted one", () => {
    const later = { matcher: 'Write', hooks: [{ type: 'command', command: './later.sh' }] };
    const untrusted = { matcher: 'Edit', hooks: [{ type: 'command', command: './untrusted.sh' }] };
    const v = { hooks: { PreToolUse: [...(wired().hooks as { PreToolUse: unknown[] }).PreToolUse, later, untrusted] } };
    const [, l, u] = codexHookEntries(v, HOOKS);
    const t0 = updateTrust(CFG, PERSON, HOOKS, null, v).text as string;
    const person = `${t0}\n[hooks.state."${l?.key}"]\ntrusted_hash = "${l?.hash}"\n`;
    const stripped = codex.unwire(v).value;
    const t1 = updateTrust(CFG, person, HOOKS, v, stripped);
    const after = codexHookEntries(stripped, HOOKS);
    expect(after.map((e) => e.key)).toEqual([`${HOOKS}:pre_tool_use:0:0`, `${HOOKS}:pre_tool_use:1:0`]);
    expect(t1.text).toBe(`${PERSON}\n[hooks.state."${HOOKS}:pre_tool_use:0:0"]\ntrusted_hash = "${l?.hash}"\n`);
    expect(t1.text).not.toContain(u?.hash as string);
  });

  it("keeps the person's enabled = false and reports it", () => {
    const v = wired();
    const [pre] = codexHookEntries(v, HOOKS);
    const text = `${PERSON}\n[hooks.state."${pre?.key}"]\nenabled = false\ntrusted_hash = "sha256:old"\n`;
    const t = updateTrust(CFG, text, HOOKS, v, v).text as string;
    expect(t).toContain(`enabled = false\ntrusted_hash = "${pre?.hash}"`);
    expect(ownTrust(CFG, t, HOOKS, v).map((x) => x.state)).toEqual(['disabled', 'trusted']);
  });
});

describe('codexTrust.problems (status, doctor)', () => {
  it('names each entry Codex would skip, with the command that fixes it', () => {
    const v = wired();
    const p = codexTrust.problems(CFG, PERSON, HOOKS, v, null);
    expect(p).toHaveLength(2);
    expect(p[0]).toMatch(/PreToolUse hook .* is not trusted, so Codex skips it \(run `buckler hooks merge --harness codex`/);
    const trusted = updateTrust(CFG, PERSON, HOOKS, null, v).text;
    expect(codexTrust.problems(CFG, trusted, HOOKS, v, null)).toEqual([]);
  });

  it('names a config.toml that is not TOML instead of calling every entry untrusted', () => {
    expect(codexTrust.problems(CFG, 'model = \n', HOOKS, wired(), null)).toEqual([expect.stringMatching(/config\.toml: is not valid TOML .*Codex cannot load it either/)]);
  });

  it('a project scope file also needs the project trusted', () => {
    const file = '/repo/.codex/hooks.json';
    const v = wired();
    const trusted = updateTrust(CFG, PERSON, file, null, v).text as string;
    expect(codexTrust.problems(CFG, trusted, file, v, '/repo')).toEqual([expect.stringContaining('/repo is not a trusted Codex project')]);
    expect(codexTrust.problems(CFG, `${trusted}\n[projects."/repo"]\ntrust_level = "trusted"\n`, file, v, '/repo')).toEqual([]);
  });
});
