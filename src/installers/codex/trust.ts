/**
 * Codex runs a hooks.json entry only when the user config.toml holds, under
 * `[hooks.state."<key>"]`, a `trusted_hash` equal to the entry's content hash; otherwise it skips
 * it without a word (docs/adapters/codex.md). Buckler records that trust for its own entries
 * whenever merge writes them, re-records it when an edit changes them, and removes it on strip.
 * Another hook that an edit moves (a group removed before it) keeps the trust the person gave it
 * under its new key. Other hooks' trust is never granted.
 */
import { InstallerError } from '../errors.ts';
import type { JsonObject } from '../json-text.ts';
import { type CodexHookEntry, codexHookEntries } from './trust-entries.ts';
import { type StateEdit, type StateTable, editHookState, hookState, parseToml } from './toml-state.ts';

export interface TrustUpdate {
  /** config.toml's new text, or null when it stays as it is. */
  text: string | null;
  /** What changed, for people. */
  notes: string[];
}

function tableOf(v: JsonObject): StateTable | null {
  const out: StateTable = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string' && typeof x !== 'boolean' && typeof x !== 'number') return null;
    out[k] = x;
  }
  return out;
}

/** Foreign entries of `before` paired with the same entries in `after` (an edit keeps their order). */
function moves(before: CodexHookEntry[], after: CodexHookEntry[]): [CodexHookEntry, CodexHookEntry][] {
  const out: [CodexHookEntry, CodexHookEntry][] = [];
  const events = new Set(before.map((e) => e.event));
  for (const event of events) {
    const b = before.filter((e) => e.event === event && !e.own);
    const a = after.filter((e) => e.event === event && !e.own);
    if (b.length !== a.length) continue;
    b.forEach((e, i) => {
      const to = a[i] as CodexHookEntry;
      if (e.key !== to.key && e.hash === to.hash) out.push([e, to]);
    });
  }
  return out;
}

/**
 * The trust edits for an edit of `hooksFile` (its canonical path, as Codex keys it) from
 * `before` to `after` (null: the file does not exist), made to config.toml's `text` (null: no
 * config.toml yet). Throws InstallerError when config.toml cannot be read or edited safely.
 */
export function updateTrust(configFile: string, text: string | null, hooksFile: string, before: JsonObject | null, after: JsonObject | null): TrustUpdate {
  const config = text === null || text.trim() === '' ? {} : parseToml(configFile, text);
  const state = hookState(config);
  const b = codexHookEntries(before, hooksFile);
  const a = codexHookEntries(after, hooksFile);
  const edits: StateEdit[] = [];
  const notes: string[] = [];
  const decided = new Set<string>();
  for (const e of a.filter((x) => x.own)) {
    decided.add(e.key);
    if (state.get(e.key)?.trusted_hash === e.hash) continue;
    edits.push({ key: e.key, op: 'set', field: 'trusted_hash', value: e.hash });
    notes.push(`trusted ${e.event} hook ${e.key}`);
  }
  const afterKeys = new Set(a.map((e) => e.key));
  const moved = moves(b, a);
  for (const [from, to] of moved) {
    decided.add(to.key);
    const had = state.get(from.key);
    const table = had === undefined ? null : tableOf(had);
    if (had !== undefined && table === null) continue;
    if (table === null) {
      if (state.has(to.key)) edits.push({ key: to.key, op: 'remove' });
    } else edits.push({ key: to.key, op: 'replace', table });
    notes.push(`kept your trust state of the ${from.event} hook moved from ${from.key} to ${to.key}`);
  }
  for (const e of b) {
    if (afterKeys.has(e.key) || decided.has(e.key) || !state.has(e.key)) continue;
    if (!e.own && !moved.some(([f]) => f.key === e.key)) continue;
    edits.push({ key: e.key, op: 'remove' });
    if (e.own) notes.push(`removed the trust of Buckler's former ${e.event} hook ${e.key}`);
  }
  if (edits.length === 0) return { text: null, notes: [] };
  return { text: editHookState(configFile, text ?? '', edits), notes };
}

/** How Codex treats one of Buckler's entries. */
export type TrustState = 'trusted' | 'untrusted' | 'modified' | 'disabled';

export interface EntryTrust {
  entry: CodexHookEntry;
  state: TrustState;
}

/** The trust state of each of Buckler's entries in `value`, read from config.toml's `text`. */
export function ownTrust(configFile: string, text: string | null, hooksFile: string, value: JsonObject): EntryTrust[] {
  let state: Map<string, JsonObject>;
  try {
    state = hookState(text === null || text.trim() === '' ? {} : parseToml(configFile, text));
  } catch (e) {
    if (e instanceof InstallerError) state = new Map();
    else throw e;
  }
  return codexHookEntries(value, hooksFile)
    .filter((e) => e.own)
    .map((entry) => {
      const s = state.get(entry.key);
      if (s === undefined || s.trusted_hash === undefined) return { entry, state: 'untrusted' };
      if (s.trusted_hash !== entry.hash) return { entry, state: 'modified' };
      if (s.enabled === false) return { entry, state: 'disabled' };
      return { entry, state: 'trusted' };
    });
}

/** Whether a project's `.codex/` folder is trusted in the user config (`[projects."<root>"] trust_level`). */
export function projectTrusted(configFile: string, text: string | null, roots: readonly string[]): boolean {
  try {
    const projects = (text === null ? {} : parseToml(configFile, text)).projects;
    if (typeof projects !== 'object' || projects === null) return false;
    return roots.some((r) => (projects as Record<string, { trust_level?: unknown }>)[r]?.trust_level === 'trusted');
  } catch {
    return false;
  }
}
