/**
 * docs/pack.schema.json (for editors: `# yaml-language-server: $schema=…`) is kept equal to the
 * loader: the same field names, the program-data part made from the loader's own tables, and
 * every builtin pack, every pack example in the docs and a table of broken packs judged the
 * same by both (the loader running the examples too). The schema validator (ajv) is a devDependency: it never runs on the hook path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/build.testing.ts';
import { compilePolicy } from './compile.ts';
import { programDataDefinitions } from './pack-schema.testing.ts';
import { PACK_KEYS, RULE_KEYS, SEGMENT_KEYS } from './schema.ts';
import { parseYaml } from './yaml.ts';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/pack.schema.json'), 'utf8')) as { properties: object; definitions: Record<string, { properties?: object }> };
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

function loaderErrors(text: string, file = 'x.yaml'): string[] {
  const { doc, lines } = parseYaml(text, file);
  const { problems } = compilePolicy([{ file, name: 'x', builtin: false, doc, lines }], { tier: 'strict', packs: {}, examples: true });
  return problems.filter((p) => p.severity === 'error').map((p) => p.message);
}

function schemaErrors(text: string): string[] {
  const { doc } = parseYaml(text, 'x.yaml');
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

/** YAML blocks of the docs that are whole packs (no placeholders). */
function docsPacks(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const dir of [path.join(ROOT, 'docs'), ROOT]) {
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.md'))) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      for (const m of text.matchAll(/```yaml\n([\s\S]*?)```/g)) {
        const block = m[1]!;
        const code = block.replace(/(^|\s)#.*$/gm, '');
        if (code.includes('…') || !/^(rules|programs|pack):/m.test(code)) continue;
        out.push([`${path.relative(ROOT, path.join(dir, name))}@${text.slice(0, m.index).split('\n').length}`, block]);
      }
    }
  }
  return out;
}

describe('docs/pack.schema.json and the loader', () => {
  it('know the same fields', () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...PACK_KEYS].sort());
    expect(Object.keys(schema.definitions['rule']!.properties!).sort()).toEqual([...RULE_KEYS].sort());
    expect(Object.keys(schema.definitions['segment']!.properties!).sort()).toEqual([...SEGMENT_KEYS].sort());
    expect(Object.keys(schema.definitions['match']!.properties!).sort()).toEqual(['env', 'shell_segments', 'target', 'tool_name']);
  });

  it('describe program data alike (made from the loader tables)', () => {
    for (const [k, v] of Object.entries(programDataDefinitions())) expect(schema.definitions[k], k).toEqual(v);
  });

  const builtin = fs.readdirSync(path.join(ROOT, 'packs')).filter((n) => n.endsWith('.yaml'));
  it.each(builtin)('builtin pack %s: valid for both', (name) => {
    const text = fs.readFileSync(path.join(ROOT, 'packs', name), 'utf8');
    expect(loaderErrors(text)).toEqual([]);
    expect(schemaErrors(text)).toEqual([]);
  });

  const examples = docsPacks();
  it('the docs hold pack examples to check', () => expect(examples.length).toBeGreaterThanOrEqual(2));
  it.each(examples)('docs example %s: valid for both', (_where, text) => {
    expect(loaderErrors(text)).toEqual([]);
    expect(schemaErrors(text)).toEqual([]);
  });

  const RULE = 'rules:\n  - id: r\n    trigger: pre_shell_exec\n    action: deny\n';
  it.each<[string, string]>([
    ['action: block', 'rules:\n  - id: r\n    trigger: pre_shell_exec\n    action: block\n'],
    ['no action', 'rules:\n  - id: r\n    trigger: pre_shell_exec\n'],
    ['an unknown trigger', 'rules:\n  - id: r\n    trigger: before_shell\n    action: deny\n'],
    ['an unknown rule field', `${RULE}    colour: red\n`],
    ['an unknown pack field', `author: me\n${RULE}`],
    ['a bad id', 'rules:\n  - id: "my rule"\n    trigger: pre_shell_exec\n    action: deny\n'],
    ['a fractional priority', `${RULE}    priority: 1.5\n`],
    ['a bad tier', `${RULE}    tier: max\n`],
    ['an unknown match field', `${RULE}    match: { command: git }\n`],
    ['an unknown segment field', `${RULE}    match: { shell_segments: [{ program: git, flag: -f }] }\n`],
    ['a flag that is no option', `${RULE}    match: { shell_segments: [{ program: git, flags_any: [force] }] }\n`],
    ['an empty shell_segments', `${RULE}    match: { shell_segments: [] }\n`],
    ['an unknown example field', `${RULE}    examples: { match: [{ command: ls, where: /x }] }\n`],
    ['unknown program data', `programs:\n  terraform: { single_dash: true }\n${RULE}`],
    ['a program data value of the wrong kind', `programs:\n  terraform: { value_options: [x] }\n${RULE}`],
    ['another format version', `version: "2"\n${RULE}`],
    ['a guarded word of stars', `guarded_words: ["**"]\n${RULE}`],
  ])('%s: an error for both', (_what, text) => {
    expect(loaderErrors(text)).not.toEqual([]);
    expect(schemaErrors(text)).not.toEqual([]);
  });
});
