/**
 * The command table is complete and marked: every command, subcommand and option says whether
 * it only reads or changes state, main.ts runs exactly the table's modules, and the known
 * state-changing and read-only commands are marked so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_TABLE, COMMON_OPTIONS, HOOK, TOP_OPTIONS, type CommandSpec, type OptionSpec } from './command-table.ts';
import { LOADERS } from './main.ts';

const table = COMMAND_TABLE as readonly CommandSpec[];
const EFFECTS = ['reads-only', 'changes-state'];

/** Every unmarked entry of a table: `command`, `command sub`, `command --option`. */
export function unmarked(commands: readonly CommandSpec[]): string[] {
  const bad: string[] = [];
  const opts = (where: string, options: readonly OptionSpec[] | undefined): void => {
    for (const o of options ?? []) if (!EFFECTS.includes(o.effect as string)) bad.push(`${where} ${o.name}`);
  };
  for (const c of commands) {
    const subs = c.subcommands ?? [];
    if (subs.length === 0 && !EFFECTS.includes(c.effect as string)) bad.push(c.name);
    if (subs.length > 0 && c.effect !== undefined) bad.push(`${c.name} (a command with subcommands: each says its own)`);
    for (const s of subs) {
      if (!EFFECTS.includes(s.effect as string)) bad.push(`${c.name} ${s.name}`);
      opts(`${c.name} ${s.name}`, s.options);
    }
    opts(c.name, c.options);
    for (const o of c.options) if (o.selects !== undefined && c.effect !== 'changes-state') bad.push(`${c.name} ${o.name} (selects reads-only on a command that only reads)`);
  }
  return bad;
}

const effectOf = (words: string): string | undefined => {
  const [name, sub] = words.split(' ');
  const c = table.find((x) => x.name === name);
  return sub === undefined ? c?.effect : c?.subcommands?.find((s) => s.name === sub)?.effect;
};

describe('command table', () => {
  it('marks every command, subcommand and option', () => {
    expect(unmarked(table)).toEqual([]);
    for (const o of [...HOOK.options, ...COMMON_OPTIONS, ...TOP_OPTIONS]) expect(EFFECTS).toContain(o.effect);
  });

  it('the check fails on an unmarked command, subcommand or option', () => {
    const bare = { name: 'init', module: 'init', summary: '', operands: 'none', usage: [], about: '', options: [] } as unknown as CommandSpec;
    expect(unmarked([bare])).toEqual(['init']);
    const sub = { ...bare, name: 'service', subcommands: [{ name: 'start', summary: '' }] } as unknown as CommandSpec;
    expect(unmarked([sub])).toEqual(['service start']);
    const opt = { ...bare, effect: 'reads-only', options: [{ name: '--write', help: '' }] } as unknown as CommandSpec;
    expect(unmarked([opt])).toEqual(['init --write']);
  });

  it.each(['hooks merge', 'hooks strip', 'allow', 'trust', 'pack install', 'pack update', 'pack rollback', 'pack remove'])('%s changes state', (words) => {
    expect(effectOf(words)).toBe('changes-state');
  });

  it.each(['check', 'explain', 'validate', 'test', 'log', 'stats', 'replay', 'paths', 'doctor', 'hooks status', 'pack list', 'completion bash', 'completion zsh', 'completion fish'])('%s only reads', (words) => {
    expect(effectOf(words)).toBe('reads-only');
  });

  it('names each command once, each option once per command, and a module that exists', () => {
    const names = table.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of table) {
      for (const s of [undefined, ...(c.subcommands ?? []).map((x) => x.name)]) {
        const all = [...c.options, ...(c.subcommands?.find((x) => x.name === s)?.options ?? []), ...COMMON_OPTIONS].flatMap((o) => [o.name, o.short].filter(Boolean));
        expect(new Set(all).size, `${c.name} ${s ?? ''}`).toBe(all.length);
      }
      if (c.module !== null) expect(fs.existsSync(path.join('src/cli', `${c.module}.ts`)), c.module).toBe(true);
    }
  });

  it("main.ts loads exactly the table's modules, each the one the table names", () => {
    const withModule = table.filter((c) => c.module !== null);
    expect(Object.keys(LOADERS).sort()).toEqual(withModule.map((c) => c.name).sort());
    const main = fs.readFileSync('src/cli/main.ts', 'utf8');
    for (const c of withModule) expect(main, c.name).toMatch(new RegExp(`\\b${c.name}: \\(\\) => import\\('\\./${c.module}\\.ts'\\)`));
    // Nothing else is imported lazily but the hook's own module.
    const imported = [...main.matchAll(/(?<!typeof )import\('\.\/([a-z-]+)\.ts'\)/g)].map((m) => m[1]);
    expect(imported.filter((m) => m !== HOOK.module).sort()).toEqual(withModule.map((c) => c.module).sort());
  });
});
