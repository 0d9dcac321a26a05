// One suite for every harness installer: registry, docs, and the merge/strip laws on random configs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { HARNESS_SCOPES, packageRoot, type InstallableHarness } from '../paths.ts';
import type { HarnessInstaller } from './installer.ts';
import { isObject, sameJson, type JsonObject } from './json-text.ts';
import { readOwnCommand } from './own-command.ts';
import { INSTALLERS } from './registry.ts';

const foreignCommand = fc
  .oneof(
    fc.constantFrom('./hooks/gate.sh', 'node /x/other.cjs --driver cursor', '/x/buckler-wrapper.sh', 'buckler evaluate', 'npx prettier --write'),
    fc.string({ minLength: 1, maxLength: 12 }),
  )
  .filter((c) => readOwnCommand(c) === null);

const events = fc.constantFrom('beforeShellExecution', 'preToolUse', 'postToolUse', 'stop', 'PreToolUse', 'PostToolUse', 'Stop');
const otherKey = fc.constantFrom('model', 'env', 'permissions', 'zeta', '__proto__');

/** Random matcher-group configs (Claude Code, Codex, Gemini CLI) holding no Buckler entry. */
function groupConfigs(matchers: string[], extra: fc.Arbitrary<Record<string, unknown>> = fc.constant({})): fc.Arbitrary<JsonObject> {
  return fc
    .tuple(
      fc.dictionary(
        events,
        fc.array(
          fc.record({
            matcher: fc.constantFrom(...matchers),
            hooks: fc.array(fc.record({ type: fc.constant('command'), command: foreignCommand }), { minLength: 1, maxLength: 2 }),
          }),
          { maxLength: 3 },
        ),
        { maxKeys: 4 },
      ),
      fc.dictionary(otherKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
      fc.boolean(),
      extra,
    )
    .map(([hooks, other, withHooks, settings]) => ({ ...other, ...(withHooks ? { hooks: { ...settings, ...hooks } } : {}) }));
}

/** Random configs holding no Buckler entry, in each harness's shape. */
const configs: Record<InstallableHarness, fc.Arbitrary<JsonObject>> = {
  cursor: fc
    .tuple(
      fc.dictionary(events, fc.array(fc.record({ command: foreignCommand, timeout: fc.integer({ min: 1, max: 60 }) }), { maxLength: 3 }), { maxKeys: 4 }),
      fc.dictionary(otherKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
      fc.boolean(),
    )
    .map(([hooks, other, withHooks]) => ({ version: 1, ...other, ...(withHooks ? { hooks } : {}) })),
  'claude-code': fc
    .tuple(
      fc.dictionary(
        events,
        fc.array(
          fc.record({
            matcher: fc.constantFrom('Bash', 'Bash|PowerShell', 'Write|Edit', '*'),
            hooks: fc.array(fc.record({ type: fc.constant('command'), command: foreignCommand }), { minLength: 1, maxLength: 2 }),
          }),
          { maxLength: 3 },
        ),
        { maxKeys: 4 },
      ),
      fc.dictionary(otherKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
      fc.boolean(),
    )
    .map(([hooks, other, withHooks]) => ({ ...other, ...(withHooks ? { hooks } : {}) })),
  codex: groupConfigs(['Bash', '^Bash$', 'apply_patch', 'Write|Edit', '*', '']),
  'copilot-cli': fc
    .tuple(
      fc.dictionary(
        events,
        fc.array(fc.record({ type: fc.constant('command'), bash: foreignCommand, timeoutSec: fc.integer({ min: 1, max: 60 }) }), { maxLength: 3 }),
        { maxKeys: 4 },
      ),
      fc.dictionary(otherKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
      fc.boolean(),
    )
    .map(([hooks, other, withHooks]) => ({ ...other, ...(withHooks ? { hooks } : {}) })),
  'gemini-cli': groupConfigs(
    ['run_shell_command', 'write_file|replace', '.*', ''],
    fc.record({ enabled: fc.boolean(), disabled: fc.array(fc.constantFrom('lint', 'fmt')) }, { requiredKeys: [] }),
  ),
  'factory-droid': groupConfigs(['Execute', 'Edit|Create', 'ApplyPatch', '*', ''], fc.record({ hooksDisabled: fc.boolean() }, { requiredKeys: [] })),
  'qwen-code': groupConfigs(['run_shell_command', '^Bash$', 'write_file|edit', '.*', '']),
  // OpenCode: Buckler's own plugin file, which holds nothing else (no file: `{}`).
  opencode: fc.constant({}),
  'kilo-code': fc.constant({}),
};

const own = (entry: unknown): boolean =>
  isObject(entry) &&
  [entry.command, entry.bash].some((c) => typeof c === 'string' && readOwnCommand(c) !== null);

/** Every hook entry (Claude Code: handler, with its group's matcher) that is not Buckler's, in file order. */
function foreign(inst: HarnessInstaller, value: JsonObject): string[] {
  const out: string[] = [];
  if (!isObject(value.hooks)) return out;
  for (const [event, list] of Object.entries(value.hooks)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (inst.name === 'cursor' || inst.name === 'copilot-cli') {
        if (!own(item)) out.push(`${event} ${JSON.stringify(item)}`);
      } else if (isObject(item) && Array.isArray(item.hooks)) {
        for (const h of item.hooks) if (!own(h)) out.push(`${event} ${String(item.matcher)} ${JSON.stringify(h)}`);
      }
    }
  }
  return out;
}

/** The config without empty event lists and an empty `hooks` object (the containers merge may create). */
function withoutEmpty(value: JsonObject): JsonObject {
  if (!isObject(value.hooks)) return value;
  const hooks = Object.fromEntries(Object.entries(value.hooks).filter(([, v]) => !(Array.isArray(v) && v.length === 0)));
  const rest = Object.entries(value).filter(([k]) => k !== 'hooks');
  return Object.keys(hooks).length === 0 ? Object.fromEntries(rest) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'hooks' ? hooks : v]));
}

const cmd = (h: string, n: number) => `'/usr/bin/node' '/opt/v${n}/dist/buckler.cjs' --driver ${h}`;

describe.each(Object.values(INSTALLERS))('installer $name', (inst) => {
  it('is registered under its name, with the scopes paths.ts knows', () => {
    expect(INSTALLERS[inst.name]).toBe(inst);
    expect([...inst.scopes]).toEqual([...HARNESS_SCOPES[inst.name]]);
  });

  it('is documented in docs/hooks.md', () => {
    const doc = fs.readFileSync(path.join(packageRoot(), 'docs', 'hooks.md'), 'utf8');
    expect(doc).toContain(`\`${inst.name}\``);
    for (const h of inst.hooks) expect(doc).toContain(h.event);
  });

  it('merge wires each wanted hook once, keeps the rest, is idempotent, and strip undoes it', () => {
    fc.assert(
      fc.property(configs[inst.name], fc.integer({ min: 1, max: 3 }), (config, n) => {
        expect(inst.problem(config)).toBeNull();
        const wired = inst.wire(config, cmd(inst.name, n));
        const found = inst.find(wired.value);
        expect(found.map((f) => f.event)).toEqual(expect.arrayContaining(inst.hooks.map((h) => h.event)));
        expect(found).toHaveLength(inst.hooks.length);
        expect(found.every((f) => f.asWanted)).toBe(true);
        expect(inst.wire(wired.value, cmd(inst.name, n)).changes).toEqual([]);
        // Another install path: replaced, not added.
        const moved = inst.wire(wired.value, cmd(inst.name, n + 1));
        expect(moved.changes.every((c) => c.op === 'replace')).toBe(true);
        expect(inst.find(moved.value)).toHaveLength(inst.hooks.length);
        // Other entries and keys: same, same order.
        expect(foreign(inst, moved.value)).toEqual(foreign(inst, config));
        expect(Object.keys(moved.value).filter((k) => k !== 'hooks')).toEqual(Object.keys(config).filter((k) => k !== 'hooks'));
        // Strip: no Buckler entry left, nothing else lost.
        const stripped = inst.unwire(moved.value);
        expect(inst.find(stripped.value)).toEqual([]);
        expect(foreign(inst, stripped.value)).toEqual(foreign(inst, config));
        expect(inst.unwire(stripped.value).changes).toEqual([]);
        // What strip leaves differs from the original at most by empty containers merge created.
        expect(sameJson(withoutEmpty(stripped.value), withoutEmpty(config))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
