/**
 * The adapter conformance suite: runs against every harness in the registry (and every later
 * one). A harness without fixtures, a doc page or a registry entry fails it; so does one whose
 * replies do not have the shapes its reference fixtures give (except documented deviations).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPreTrigger, PolicyError, type Decision, type PolicyInput } from '../core/contract.ts';
import { parsePolicyInput } from '../core/input.ts';
import { HARNESS_SCOPES } from '../paths.ts';
import type { Adapter, NativeReply } from './adapter.ts';
import { ADAPTERS, DEFAULT_DRIVER, getAdapter } from './registry.ts';
import { failureOutput } from './reply.ts';
import {
  ADAPTERS_DIR,
  deviations,
  expectFixtureShape,
  fixtureSets,
  fixturesDir,
  isPass,
  outputOf,
  readFixture,
} from './testing.ts';

const ROOT = path.resolve(ADAPTERS_DIR, '..', '..');
const DOCS = path.join(ROOT, 'docs', 'adapters');
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Argument keys that name a file or directory in the harnesses' file tools. */
const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'absolute_path'];

/** The path strings a native payload names, at the top level or in a top-level object (`tool_input`). */
function namedPaths(raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const o of [raw, ...Object.values(raw)]) {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) continue;
    for (const k of PATH_KEYS) {
      const v = (o as Record<string, unknown>)[k];
      if (typeof v === 'string' && v !== '') out.push(v);
    }
  }
  return out;
}

/** Whether a native payload is an MCP tool call (Claude-style name, or a server named beside it). */
function isMcpPayload(raw: Record<string, unknown>): boolean {
  const name = raw.tool_name ?? raw.toolName;
  return (typeof name === 'string' && name.startsWith('mcp__')) || 'mcp_server' in raw || 'mcp_server_name' in raw;
}

/** Exactly what the driver prints: nothing, or one JSON object on one line. */
function printed(reply: NativeReply): string {
  return reply.stdout === null ? '' : `${JSON.stringify(reply.stdout)}\n`;
}

describe('the registry', () => {
  it('names every adapter by its own kebab-case name', () => {
    expect(Object.keys(ADAPTERS).length).toBeGreaterThan(0);
    for (const [key, adapter] of Object.entries(ADAPTERS)) {
      expect(adapter.name).toBe(key);
      expect(key).toMatch(KEBAB);
    }
  });
  it('has the default driver', () => {
    expect(getAdapter(DEFAULT_DRIVER)).toBeDefined();
  });
  it('has every harness folder under src/adapters/', () => {
    const folders = readdirSync(ADAPTERS_DIR).filter((f) => statSync(path.join(ADAPTERS_DIR, f)).isDirectory());
    for (const f of folders) expect(getAdapter(f), `src/adapters/${f}/ is not in registry.ts`).toBeDefined();
  });
  it('has every harness with a doc page under docs/adapters/', () => {
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');
    for (const p of pages) expect(getAdapter(p.replace(/\.md$/, '')), `docs/adapters/${p} has no adapter`).toBeDefined();
  });
  it('has every harness the installers know', () => {
    for (const h of Object.keys(HARNESS_SCOPES)) expect(getAdapter(h), `${h} has an installer but no adapter`).toBeDefined();
  });
  it('does not answer for names that are not harnesses', () => {
    for (const n of ['toString', '__proto__', 'constructor', '', 'Cursor']) expect(getAdapter(n)).toBeUndefined();
  });
});

describe.each(Object.values(ADAPTERS).map((a) => [a.name, a] as [string, Adapter]))('adapter %s', (name, adapter) => {
  const sets = existsSync(fixturesDir(name)) ? fixtureSets(name) : [];
  const devs = deviations(name);

  describe('has what every harness needs', () => {
    it('a folder with types.ts (native types declared locally) and index.ts', () => {
      for (const f of ['types.ts', 'index.ts']) expect(existsSync(path.join(ADAPTERS_DIR, name, f)), f).toBe(true);
    });
    it('fixtures: inputs, at least one deny reply, every reply beside its input', () => {
      expect(sets.length, `no fixtures in src/adapters/${name}/fixtures/`).toBeGreaterThan(0);
      for (const s of sets) expect(s.input, `${s.stem} has replies but no input`).not.toBe('');
      expect(sets.some((s) => s.replies.deny !== undefined)).toBe(true);
      expect(sets.some((s) => isPreTrigger(adapter.adaptInput(readFixture(name, s.input)).trigger))).toBe(true);
    });
    it('a self-test event that reads back as the same shell command before it runs', () => {
      const command = 'git push --force origin main';
      const input = adapter.adaptInput(adapter.selfTestEvent(command, '/home/dev/project'));
      expect(isPreTrigger(input.trigger)).toBe(true);
      expect(input.shell?.command).toBe(command);
      expect(adapter.isBeforeAction(adapter.selfTestEvent(command, '/home/dev/project'))).toBe(true);
    });
    it('deviations name a reply fixture and say why', () => {
      const replies = sets.flatMap((s) => Object.values(s.replies));
      for (const [file, d] of Object.entries(devs)) {
        expect(replies).toContain(file);
        expect(d.why.trim()).not.toBe('');
      }
    });
    it('a doc page with the mapping, fail-closed behaviour, protocol source and install pointer', () => {
      const page = path.join(DOCS, `${name}.md`);
      expect(existsSync(page), `docs/adapters/${name}.md is missing`).toBe(true);
      const text = readFileSync(page, 'utf8');
      for (const heading of ['Event mapping', 'Reply mapping', 'Fail-closed', 'Protocol source', 'Installing the hook']) {
        expect(text, `docs/adapters/${name}.md lacks "## ${heading}"`).toMatch(new RegExp(`^## ${heading}`, 'm'));
      }
      expect(text).toContain(adapter.protocol.version);
      expect(text).toContain(adapter.protocol.date);
      expect(text).toContain(`buckler hooks merge --harness ${name}`);
      for (const file of Object.keys(devs)) expect(text, `the doc page does not explain ${file}`).toContain(file);
    });
    it('a line in docs/adapters/README.md', () => {
      expect(readFileSync(path.join(DOCS, 'README.md'), 'utf8')).toContain(`(${name}.md)`);
    });
    it('a protocol source with version and date', () => {
      expect(adapter.protocol.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(adapter.protocol.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });
  });

  describe.each(sets.map((s) => [s.stem, s] as const))('fixture %s round trip', (_stem, set) => {
    const raw = readFixture(name, set.input);
    const event = (raw as Record<string, unknown>)[adapter.eventField];

    it('reads as a PolicyInput of this harness and event, plain JSON', () => {
      const input = adapter.adaptInput(raw);
      expect(input.policy_io_version).toBe('1');
      expect(input.harness).toBe(name);
      expect(input.event).toBe(event);
      expect(adapter.events).toContain(event);
      expect(input.env).toBeUndefined();
      expect(JSON.parse(JSON.stringify(input)) as PolicyInput).toEqual(input);
      // The core reads it back as the same input: the adapter speaks the contract.
      expect(parsePolicyInput(JSON.parse(JSON.stringify(input)))).toEqual(input);
    });

    it('fills tool.paths with every path the call names, and tool.mcp for an MCP call', () => {
      const input = adapter.adaptInput(raw);
      if (input.trigger === 'unknown_harness_event') return;
      const o = raw as Record<string, unknown>;
      const paths = (input.tool?.paths ?? []).map((p) => p.path);
      for (const p of namedPaths(o)) expect(paths, `${set.input} names ${p}`).toContain(p);
      if (isMcpPayload(o)) {
        expect(input.tool?.mcp?.server, `${set.input} is an MCP call`).toEqual(expect.any(String));
        expect(input.tool?.mcp?.tool).toEqual(expect.any(String));
      }
    });

    for (const [kind, file] of Object.entries(set.replies)) {
      it(`answers a ${kind} in the shape of ${file}`, () => {
        const want = readFixture(name, file) as Record<string, unknown>;
        const reply = adapter.adaptOutput(outputOf(kind as Decision), raw);
        expect(reply.exitCode).toBe(0);
        expect(reply.stdout).not.toBeNull();
        expectFixtureShape(reply.stdout as Record<string, unknown>, want, devs[file], expect);
        // The protocol reading agrees with the reference: a deny blocks, a nudge does not.
        expect(adapter.isBlocking({ stdout: want, exitCode: 0 })).toBe(kind === 'deny');
        expect(adapter.isBlocking(reply)).toBe(kind === 'deny');
        expect(printed(reply)).toContain(kind === 'deny' ? `: deny` : 'context: nudge');
      });
    }

    it('answers allow with "no opinion"', () => {
      expect(isPass(adapter.adaptOutput(outputOf('allow'), raw))).toBe(true);
    });

    it('never blocks after an action, and fails closed before one', () => {
      const input = adapter.adaptInput(raw);
      const post = input.trigger === 'post_tool_success' || input.trigger === 'post_tool_failure';
      if (isPreTrigger(input.trigger) || set.replies.deny !== undefined) {
        expect(adapter.isBeforeAction(raw)).toBe(true);
        const failed = adapter.adaptOutput(failureOutput('stdin was empty', true), raw);
        expect(adapter.isBlocking(failed)).toBe(true);
        expect(printed(failed)).toContain('stdin was empty');
      }
      if (post) {
        expect(adapter.isBeforeAction(raw)).toBe(false);
        expect(isPass(adapter.adaptOutput(failureOutput('stdin was empty', false), raw))).toBe(true);
        for (const d of ['allow', 'deny', 'ask', 'nudge'] as const) {
          expect(adapter.isBlocking(adapter.adaptOutput(outputOf(d), raw)), d).toBe(false);
        }
      }
    });
  });

  describe('bad input', () => {
    const unreadable: [string, unknown][] = [
      ['undefined (stdin did not parse)', undefined],
      ['a JSON array', []],
      ['null', null],
      ['a string', 'PreToolUse'],
      ['a number', 7],
      ['an empty object', {}],
      ['a non-string event name', { [adapter.eventField]: 12 }],
    ];
    it.each(unreadable)('%s: adaptInput throws a PolicyError, the failure reply blocks', (_n, raw) => {
      if (raw !== undefined) expect(() => adapter.adaptInput(raw)).toThrow(PolicyError);
      expect(adapter.isBeforeAction(raw)).toBe(true);
      const reply = adapter.adaptOutput(failureOutput('invalid JSON on stdin', true), raw);
      expect(reply.exitCode).toBe(0);
      expect(adapter.isBlocking(reply)).toBe(true);
      expect(printed(reply).trim().split('\n')).toHaveLength(1);
    });
    it('an event it does not know is unknown_harness_event, and allow is "no opinion"', () => {
      const raw = { [adapter.eventField]: 'NoSuchEventYet' };
      expect(adapter.adaptInput(raw).trigger).toBe('unknown_harness_event');
      expect(isPass(adapter.adaptOutput(outputOf('allow'), raw))).toBe(true);
    });
  });
});
