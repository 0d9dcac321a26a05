/**
 * The contract between the pack sources (sources.ts, project-rules.ts, project-load.ts), the
 * runtime and the lazily imported compiler (compiler.ts): what a source reports, what it loads
 * with, and what the compiler module offers them. Types only, so that none of those modules
 * needs another's types through an import that would close a cycle.
 */
import type { CompiledRule } from '../core/policy.ts';
import type { BundleRefused, verifyBundle } from './bundle.ts';
import type { compilePolicy, PackSource } from './compile.ts';
import type { BucklerConfig, DEFAULT_CONFIG, parseConfig } from './config.ts';
import type { FileState } from './file-state.ts';
import type { formatProblem, Problem } from './problems.ts';
import type { readHeader } from './schema.ts';
import type { parseYaml, YamlSyntaxError } from './yaml.ts';

/**
 * What compiler.ts exports, as the sources and the runtime use it (they receive the module
 * itself, imported only when the compiled-pack cache misses).
 */
export interface PackCompiler {
  compilePolicy: typeof compilePolicy;
  DEFAULT_CONFIG: typeof DEFAULT_CONFIG;
  parseConfig: typeof parseConfig;
  formatProblem: typeof formatProblem;
  parseYaml: typeof parseYaml;
  YamlSyntaxError: typeof YamlSyntaxError;
  readHeader: typeof readHeader;
  BundleRefused: typeof BundleRefused;
  verifyBundle: typeof verifyBundle;
  /** project-load.ts */
  loadProject(root: string, trustFile: string, ctx: LoadContext, assume?: ProjectTrustOverride): SourceReport;
  isProjectProblem(p: Problem, dir: string): boolean;
  brokenProjectRule(root: string, first: string, count: number): CompiledRule;
}

/**
 * For one run only (`buckler test`): take the project's rules as `trusted` or `untrusted`
 * whatever the trust store says, and without reading it. Never written anywhere.
 */
export type ProjectTrustOverride = 'trusted' | 'untrusted';

export type SourceName = 'builtin' | 'user' | 'bundle' | 'project';

/** One loaded pack file and where it came from. */
export interface LoadedPack {
  pack: PackSource;
  /** The pack id (its `pack:` or file name). */
  id: string;
  source: SourceName;
  /** Human label of the origin: `builtin`, `user`, `bundle acme 1.2.0`, `project (untrusted)`, `project (trusted)`. */
  origin: string;
  /** For bundle packs: which bundle. */
  bundle?: { name: string; version: string; key: string; file: string };
}

export interface Refusal {
  file: string;
  /** A word (bundle.ts `RefusalReason`, or `unreadable`). */
  reason: string;
  message: string;
}

export interface SourceReport {
  source: SourceName;
  dir: string;
  /** Files read, in load order. */
  files: string[];
  packs: LoadedPack[];
  refused: Refusal[];
  /** The project source only: which project, and whether the person trusts its rules as they are now. */
  project?: ProjectState;
}

export interface ProjectState {
  root: string;
  /** The digest of the rule files now equals the one `buckler trust` recorded for this root. */
  trusted: boolean;
  /** `trusted` was fixed for this run (`buckler test --trust-project`), not read from the trust store. */
  assumed?: true;
  /** `sha256:…` over the rule files' names and bytes as read now. */
  digest: string;
  /** A digest was recorded for this root, but the files changed since. */
  changed: boolean;
}

export interface LoadContext {
  c: PackCompiler;
  config: BucklerConfig;
  problems: Problem[];
  /** Pack id → origin label, for every pack loaded by an earlier source (or earlier file). */
  taken: Map<string, string>;
}

export interface PackSourceProvider {
  readonly name: SourceName;
  readonly dir: string;
  /** Hook path: the files this source would read, with their stat (null: no directory). */
  listing(): { dir: string; files: FileState[] | null };
  load(ctx: LoadContext): SourceReport;
}
