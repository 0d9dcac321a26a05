import { describe, expect, it } from 'vitest';
import { InstallerError } from '../errors.ts';
import { opencodeInstaller as oc } from './installer.ts';
import { PLUGIN_HEADER, parsePlugin, renderPlugin } from './plugin.ts';

const CMD = "'/usr/bin/node' '/opt/buckler/dist/buckler.cjs' --driver opencode";
const OTHER = "'/usr/bin/node' '/opt/v2/dist/buckler.cjs' --driver opencode";

describe('opencode plugin file', () => {
  it('renders a module that runs the command and reads back as Buckler\'s, current', () => {
    const bytes = renderPlugin({ hooks: { command: CMD, current: true } });
    const text = bytes.toString('utf8');
    expect(text.startsWith(`${PLUGIN_HEADER}\n`)).toBe(true);
    expect(text).toContain(`const COMMAND = ${JSON.stringify(CMD)};`);
    expect(text).toContain('"tool.execute.before"');
    expect(parsePlugin('/f', bytes)).toEqual({ hooks: { command: CMD, current: true } });
  });

  it('keeps a command with line separators on its line (U+2028 ends a JavaScript comment)', () => {
    const odd = `${CMD} #\u2028x\u2029`;
    const text = renderPlugin({ hooks: { command: odd, current: true } }).toString('utf8');
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(text).toContain('\\u2028x\\u2029');
    expect(parsePlugin('/f', Buffer.from(text))).toEqual({ hooks: { command: odd, current: true } });
  });

  it('a Buckler file whose text differs (an older Buckler, an edit) is Buckler\'s but not current', () => {
    const text = renderPlugin({ hooks: { command: CMD, current: true } }).toString('utf8').replace('MAX_REPLY = 1 << 20', 'MAX_REPLY = 1 << 10');
    expect(parsePlugin('/f', Buffer.from(text))).toEqual({ hooks: { command: CMD, current: false } });
  });

  it.each([
    ['a person\'s plugin', 'export const Mine = async () => ({});\n'],
    ['empty', ''],
    ['the header without a marker', `${PLUGIN_HEADER}\nexport {};\n`],
    ['a marker that is not JSON', `${PLUGIN_HEADER}\n// buckler-plugin: {oops\n`],
    ['a marker without a command', `${PLUGIN_HEADER}\n// buckler-plugin: {"command":""}\n`],
  ])('%s is refused as not Buckler\'s (malformed, left alone)', (_n, text) => {
    expect(() => parsePlugin('/x/buckler.js', Buffer.from(text))).toThrow(InstallerError);
    try {
      parsePlugin('/x/buckler.js', Buffer.from(text));
    } catch (e) {
      expect((e as InstallerError).code).toBe('malformed');
      expect((e as InstallerError).message).toContain('is not a plugin file Buckler wrote; left unchanged');
    }
  });
});

describe('opencode installer', () => {
  it('wires both triggers to one command, replaces another command, strips to nothing', () => {
    const wired = oc.wire({}, CMD);
    expect(wired.value).toEqual({ hooks: { command: CMD, current: true } });
    expect(wired.changes.map((c) => [c.op, c.event])).toEqual([
      ['add', 'tool.execute.before'],
      ['add', 'tool.execute.after'],
    ]);
    expect(oc.find(wired.value).map((f) => [f.event, f.asWanted, f.files])).toEqual([
      ['tool.execute.before', true, ['/usr/bin/node', '/opt/buckler/dist/buckler.cjs']],
      ['tool.execute.after', true, ['/usr/bin/node', '/opt/buckler/dist/buckler.cjs']],
    ]);
    expect(oc.wire(wired.value, CMD).changes).toEqual([]);
    const moved = oc.wire(wired.value, OTHER);
    expect(moved.changes.every((c) => c.op === 'replace' && c.previous === CMD)).toBe(true);
    expect(oc.unwire(moved.value)).toEqual({ value: {}, changes: expect.arrayContaining([expect.objectContaining({ op: 'remove', command: OTHER })]) });
    expect(oc.unwire({}).changes).toEqual([]);
  });

  it('rewrites a file that is Buckler\'s but not current, even with the same command', () => {
    expect(oc.wire({ hooks: { command: CMD, current: false } }, CMD).changes.map((c) => c.op)).toEqual(['replace', 'replace']);
    expect(oc.find({ hooks: { command: CMD, current: false } }).every((f) => !f.asWanted)).toBe(true);
  });

  it('fails closed before a tool (the plugin refuses the call), never after', () => {
    expect(oc.hooks.map((h) => [h.event, h.blockOnFailure])).toEqual([
      ['tool.execute.before', true],
      ['tool.execute.after', false],
    ]);
  });
});
