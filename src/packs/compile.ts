/**
 * Parsed pack documents + config → one `CompiledPolicy` (pure: no files, no YAML).
 * Every pack is checked, enabled or not; only enabled packs' rules of the active tier load.
 * A broken rule is left out with an error; a rule whose examples fail is reported and kept
 * (dropping a deny rule because of a wrong example would open what it guards).
 */
import { BYPASS_VARS, POLICY_FORMAT, type CompiledPolicy, type CompiledRule, type GuardedWords, type PackInfo, type Tier } from '../core/policy.ts';
import { BUILTIN_GRAMMARS, extendGrammar, mergeGrammar } from '../grammars/index.ts';
import type { ProgramGrammar } from '../grammars/types.ts';
import type { KnownRule } from '../core/explain.ts';
import { runExamples } from './examples.ts';
import { lineFor, type LineMap, type Problem } from './problems.ts';
import { readGuardedWords, readHeader, readPrograms, readRules, type LoadedRule } from './schema.ts';

export interface PackSource {
  file: string;
  /** Pack id when the file has no `pack:` (the file name without extension). */
  name: string;
  builtin: boolean;
  doc: unknown;
  lines?: LineMap;
  /**
   * Untrusted project rules (docs/project-rules.md): deny/ask/nudge rules load as tighten-only,
   * `allow` rules and `programs:` are ignored (reported, state `skipped_trust`).
   */
  tighten?: boolean;
  /**
   * Not the person's own config (a bundle, trusted project rules): `programs:` may add programs,
   * keys and list entries, never change a value already there.
   */
  extendOnly?: boolean;
  /**
   * A signed bundle's pack (docs/pack-bundles.md): its rules rank as the person's own rules, but
   * none can let through what a guard pack's deny (GUARD_PACKS) denies.
   */
  bundle?: boolean;
}

/**
 * The builtin packs whose denies no bundle rule outranks, whatever its priority: what keeps the
 * guard on and secrets unread (issue 21, route 7).
 */
export const GUARD_PACKS: ReadonlySet<string> = new Set(['agent-tamper', 'agent-secrets']);

export interface CompileOptions {
  tier: Tier;
  packs: Readonly<Record<string, { enabled: boolean }>>;
  /** Run every rule's examples (validate, and a cold load). */
  examples: boolean;
}

export interface CompileResult {
  policy: CompiledPolicy;
  problems: Problem[];
  /** Every checked rule of every pack, loaded or not (for validate's summary). */
  checked: number;
  /** Every good rule in load order, with whether it is in force and why not (for explain). */
  known: KnownRule[];
}

export function compilePolicy(sources: readonly PackSource[], opts: CompileOptions): CompileResult {
  const problems: Problem[] = [];
  const grammars: Record<string, ProgramGrammar> = { ...BUILTIN_GRAMMARS };
  const allGrammars: Record<string, ProgramGrammar> = { ...BUILTIN_GRAMMARS };
  const parts = sources.map((src) => {
    const ctx = src.lines ? { file: src.file, defaultId: src.name, lines: src.lines } : { file: src.file, defaultId: src.name };
    const header = readHeader(src.doc, ctx);
    problems.push(...header.problems);
    const enabled = opts.packs[header.id]?.enabled !== false;
    if (header.usable && src.tighten) {
      const raw = typeof src.doc === 'object' && src.doc !== null ? (src.doc as Record<string, unknown>)['programs'] : undefined;
      if (raw !== undefined && raw !== null) {
        const p: Problem = { severity: 'warning', file: src.file, message: '"programs:" is ignored until you trust the project\'s rules (buckler trust)' };
        const line = lineFor(src.lines, ['programs']);
        if (line !== undefined) p.line = line;
        problems.push(p);
      }
    } else if (header.usable) {
      const { programs, problems: p } = readPrograms(src.doc, ctx);
      problems.push(...p);
      // A pack's program data extends what is there (builtin or an earlier pack's); only the
      // person's own packs may also change a value already there.
      for (const [name, g] of Object.entries(programs)) {
        if (src.extendOnly) {
          const kept = extendGrammar(allGrammars[name], g);
          allGrammars[name] = kept.grammar;
          if (enabled) grammars[name] = extendGrammar(grammars[name], g).grammar;
          for (const key of kept.kept) {
            const q: Problem = { severity: 'warning', file: src.file, message: `programs.${name}.${key}: cannot change a value already set (builtin or an earlier pack); only your own rules.d can. Kept as it was` };
            const line = lineFor(src.lines, ['programs', name]);
            if (line !== undefined) q.line = line;
            problems.push(q);
          }
        } else {
          allGrammars[name] = mergeGrammar(allGrammars[name], g);
          if (enabled) grammars[name] = mergeGrammar(grammars[name], g);
        }
      }
    }
    return { src, ctx, header, enabled };
  });

  const rules: CompiledRule[] = [];
  const guarded: GuardedWords[] = [];
  const packs: PackInfo[] = [];
  const ids = new Set<string>();
  const known: KnownRule[] = [];
  let checked = 0;
  for (const { src, ctx, header, enabled } of parts) {
    if (!header.usable) continue;
    const { rules: loaded, problems: p } = readRules(src.doc, header, ctx, allGrammars);
    problems.push(...p);
    checked += loaded.length;
    if (opts.examples) for (const l of loaded) problems.push(...exampleProblems(l, src, allGrammars));
    let count = 0;
    for (const l of loaded) {
      if (ids.has(l.rule.id)) {
        problems.push({ ...ruleProblem(src, l, `duplicate rule id ${l.rule.id} (already loaded from an earlier file); this one is skipped`), dropped: true });
        continue;
      }
      ids.add(l.rule.id);
      const untrustedAllow = src.tighten === true && l.rule.action === 'allow';
      if (untrustedAllow) problems.push({ ...ruleProblem(src, l, 'an "allow" rule is ignored until you trust the project\'s rules (buckler trust)'), severity: 'warning' });
      let rule: CompiledRule = src.tighten === true && !untrustedAllow ? { ...l.rule, tighten: true } : l.rule;
      if (src.bundle === true) rule = { ...rule, bundle: true };
      else if (src.builtin && rule.action === 'deny' && GUARD_PACKS.has(rule.pack)) rule = { ...rule, guard: true };
      const state = untrustedAllow ? 'skipped_trust' : !enabled ? 'skipped_pack' : rule.tier === 'strict' && opts.tier !== 'strict' ? 'skipped_tier' : 'active';
      known.push({ rule, state, source: src.file });
      if (state !== 'active') continue;
      rules.push(rule);
      count++;
    }
    if (enabled) packs.push({ id: header.id, source: src.file, builtin: src.builtin, rules: count });
    const g = readGuardedWords(src.doc, header, ctx);
    problems.push(...g.problems);
    const words = g.entries.filter((e) => e.tier === 'baseline' || opts.tier === 'strict').map((e) => e.words);
    if (enabled && words.length > 0) guarded.push({ pack: header.id, words });
  }

  const envKeys = new Set<string>(BYPASS_VARS);
  for (const r of rules) for (const k of Object.keys(r.env ?? {})) envKeys.add(k);
  // Variables that give a command its target (program data `env_roles`: `AWS_PROFILE`, `PGHOST`).
  for (const g of Object.values(grammars)) for (const k of Object.keys(g.env_roles ?? {})) envKeys.add(k);
  return {
    policy: { policy_format: POLICY_FORMAT, tier: opts.tier, packs, rules, grammars, env_keys: [...envKeys].sort(), guarded_words: guarded },
    problems,
    checked,
    known,
  };
}

function ruleProblem(src: PackSource, l: LoadedRule, message: string, path: (string | number)[] = []): Problem {
  const p: Problem = { severity: 'error', file: src.file, rule: l.rule.id, message };
  const line = lineFor(src.lines, ['rules', l.index, ...path]);
  if (line !== undefined) p.line = line;
  return p;
}

function exampleProblems(l: LoadedRule, src: PackSource, grammars: Record<string, ProgramGrammar>): Problem[] {
  return runExamples(l, grammars).map((f) => {
    const i = l.examples[f.kind].indexOf(f.example);
    return ruleProblem(src, l, f.message, ['examples', f.kind, i]);
  });
}
