// Merge and strip of the harnesses that read JSON with comments, on real files in a temporary
// directory: random settings with comments sprinkled where whitespace may stand come back
// byte-for-byte after merge and strip, with the backup and without it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { applyPlan } from './apply.ts';
import { factoryDroidInstaller } from './factory-droid/installer.ts';
import { geminiCliInstaller } from './gemini-cli/installer.ts';
import type { HarnessInstaller } from './installer.ts';
import { parseJsonc } from './jsonc.ts';
import { backupFileOf, readMergePlan, readStripPlan } from './planner.ts';
import { qwenCodeInstaller } from './qwen-code/installer.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-jsonc-plan-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const CMD = (h: string) => `'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver ${h}`;

/** A JSON text with a comment after some of its line breaks and commas. */
function commented(text: string, marks: boolean[]): string {
  let k = 0;
  let inString = false;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    out += c;
    if (inString) {
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    // Not inside an empty container: one that holds only a comment gets a line break around
    // Buckler's entry, which strip without the backup cannot know to take away again.
    else if ((c === ',' || c === '{' || c === '[') && text[i + 1] !== '}' && text[i + 1] !== ']' && marks[k++ % marks.length]) out += k % 2 === 0 ? ' // note' : ' /* note */';
  }
  return out;
}

const handler = fc.record({ type: fc.constant('command'), command: fc.constantFrom('npx prettier --write', './lint.sh') });
const settings = fc.record(
  {
    model: fc.record({ name: fc.string({ maxLength: 6 }) }),
    theme: fc.constantFrom('dark', 'light'),
    // The person's own hooks: an empty `hooks` object or event list that merge fills is removed
    // again by strip (without the backup nothing says it was there), so none is generated.
    hooks: fc.dictionary(fc.constantFrom('BeforeTool', 'AfterTool', 'PreToolUse', 'PostToolUse'), fc.array(fc.record({ matcher: fc.constantFrom('write_file', 'Execute', '*'), hooks: fc.array(handler, { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 2 }), { minKeys: 1, maxKeys: 2 }),
  },
  { requiredKeys: [] },
);

describe.each([geminiCliInstaller, qwenCodeInstaller, factoryDroidInstaller] as HarnessInstaller[])('$name: JSON with comments', (inst) => {
  it('merge keeps every comment; strip (with or without the backup) gives the bytes back', () => {
    let n = 0;
    fc.assert(
      fc.property(settings, fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), fc.constantFrom('  ', '    ', '\t'), fc.boolean(), (value, marks, indent, dropBackup) => {
        const file = path.join(dir, `${inst.name}-${n++}.json`);
        const original = `// head\n${commented(JSON.stringify(value, null, indent), marks)}\n`;
        fs.writeFileSync(file, original);
        applyPlan(readMergePlan(inst, file, CMD(inst.name)));
        const merged = fs.readFileSync(file, 'utf8');
        expect(inst.find(parseJsonc(merged) as Record<string, unknown>)).toHaveLength(inst.hooks.length);
        expect(merged.match(/\/\/ note|\/\* note \*\/|\/\/ head/g)).toEqual(original.match(/\/\/ note|\/\* note \*\/|\/\/ head/g));
        if (dropBackup) fs.rmSync(backupFileOf(file), { force: true });
        applyPlan(readStripPlan(inst, file));
        expect(fs.readFileSync(file, 'utf8')).toBe(original);
      }),
      { numRuns: 60 },
    );
  });
});
