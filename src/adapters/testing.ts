/** Test helpers shared by the adapter tests (imported only from *.test.ts files). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { POLICY_IO_VERSION, type Decision, type PolicyOutput } from '../core/contract.ts';
import type { NativeReply } from './adapter.ts';

/** A PolicyOutput with the messages a decision of that kind carries. */
export function outputOf(decision: Decision, extra: Partial<PolicyOutput> = {}): PolicyOutput {
  return {
    policy_io_version: POLICY_IO_VERSION,
    decision,
    user_message: decision === 'deny' || decision === 'ask' ? `person: ${decision}` : null,
    agent_message: decision === 'deny' || decision === 'ask' ? `agent: ${decision}` : null,
    additional_context: decision === 'nudge' ? 'context: nudge' : null,
    rule: decision === 'allow' ? null : 'test/rule',
    bypass: false,
    commands: [],
    ...extra,
  };
}

export const ADAPTERS_DIR = path.dirname(fileURLToPath(import.meta.url));

export function fixturesDir(harness: string): string {
  return path.join(ADAPTERS_DIR, harness, 'fixtures');
}

export function readFixture(harness: string, file: string): unknown {
  return JSON.parse(readFileSync(path.join(fixturesDir(harness), file), 'utf8')) as unknown;
}

export interface FixtureSet {
  /** `<event>[-<variant>]` */
  stem: string;
  input: string;
  /** Reply fixtures by kind (`deny`, `nudge`), file names. */
  replies: Record<string, string>;
}

/** The fixtures of one harness grouped by input: `X.input.json` with its `X.<kind>.json` replies. */
export function fixtureSets(harness: string): FixtureSet[] {
  const files = readdirSync(fixturesDir(harness)).filter((f) => f.endsWith('.json'));
  const sets = new Map<string, FixtureSet>();
  for (const f of files) {
    const m = /^(.+)\.([a-z]+)\.json$/.exec(f);
    if (!m) continue;
    const [, stem, kind] = m as unknown as [string, string, string];
    const set = sets.get(stem) ?? { stem, input: '', replies: {} };
    if (kind === 'input') set.input = f;
    else set.replies[kind] = f;
    sets.set(stem, set);
  }
  return [...sets.values()].sort((a, b) => a.stem.localeCompare(b.stem));
}

/** Keys whose value is a protocol word, compared exactly (not just by type). */
const PROTOCOL_WORDS = new Set(['permission', 'continue', 'permissionDecision', 'hookEventName', 'behavior', 'decision']);

/**
 * The shape of a JSON value: same keys, leaves replaced by their type names, except protocol
 * words (`permission: "deny"`), which keep their value.
 */
export function shapeOf(v: unknown, key?: string): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.map((x) => shapeOf(x));
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, shapeOf(x, k)]),
    );
  }
  if (key !== undefined && PROTOCOL_WORDS.has(key) && (typeof v === 'string' || typeof v === 'boolean')) return v;
  return typeof v;
}

/** A reply that differs on purpose from its reference fixture (`fixtures/deviations.json`). */
export interface Deviation {
  /** Top-level keys of the fixture Buckler does not send. */
  omitted: string[];
  /** Top-level keys Buckler sends that the fixture lacks. */
  added: string[];
  why: string;
}

export function deviations(harness: string): Record<string, Deviation> {
  const file = path.join(fixturesDir(harness), 'deviations.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Deviation>) : {};
}

function without(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
}

/** Checks a reply against its reference fixture, minus that fixture's documented deviation. */
export function expectFixtureShape(
  got: Record<string, unknown>,
  want: Record<string, unknown>,
  dev: Deviation | undefined,
  expect: (v: unknown) => { toEqual(x: unknown): void },
): void {
  const d = dev ?? { omitted: [], added: [], why: '' };
  expect(shapeOf(without(got, d.added))).toEqual(shapeOf(without(want, d.omitted)));
  for (const k of d.added) expect(typeof got[k]).toEqual('string');
}

/** "No opinion": nothing printed, or an empty object. */
export function isPass(reply: NativeReply): boolean {
  return reply.exitCode === 0 && (reply.stdout === null || Object.keys(reply.stdout).length === 0);
}
