/**
 * Where a command acts, and whether that is a production environment (docs/packs.md,
 * "Production targets"). The program's data names the words that are targets (`role_kinds`
 * with `target`), the variables that give them when the command does not (`env_roles`) and the
 * ones read where the command runs (`ambient_roles`, read by the caller's `readTarget`); the
 * environments are config.toml's `[environments] production`. The core knows no program.
 *
 * Read once per command and only when a rule's `target` condition asks, so a line without such
 * a command costs nothing.
 */
import type { ProgramGrammar } from '../grammars/types.ts';
import type { ShellCommand } from '../shell/types.ts';

/** config.toml's default `[environments] production`. */
export const DEFAULT_PRODUCTION: readonly string[] = Object.freeze(['prod', 'production', 'prd', 'live']);

/**
 * Reads a target the command's program keeps where it runs (`kube_context`: the kubeconfig's
 * current context): its value, or null when it cannot be known (no file, unreadable, a command
 * run on another machine). Injected by the caller; the core reads no file.
 */
export type TargetReader = (name: string, cmd: ShellCommand) => string | null;

export interface TargetContext {
  /** The hook's environment (the variables the policy asks for). */
  readonly env: Readonly<Record<string, string>> | undefined;
  /** What the line assigns or exports (null: a value known only at run time). */
  readonly lineSets: ReadonlyMap<string, readonly (string | null)[]> | null;
  /** The production environments: words and `*` patterns, compared ignoring letter case. */
  readonly production: readonly string[];
  readonly readTarget: TargetReader | undefined;
}

export interface TargetFacts {
  /** The first target that is a production environment, as shown in messages (a URL's host and database only). */
  production: string | null;
  /** Some target could not be checked: known only at run time, or not determinable. */
  unchecked: boolean;
}

const NONE: TargetFacts = Object.freeze({ production: null, unchecked: false }) as TargetFacts;

/** One target value: what is compared, and how it is shown. */
interface Value {
  compared: string[];
  shown: string;
}

/**
 * The targets of a command of `grammar`: each target role's words (`words`: role → values, as
 * the reader gives them; `runTime`: whether a value is a run-time word), else the variables of
 * `env_roles`, else `ambient_roles` through the reader.
 */
export function commandTargets(
  grammar: ProgramGrammar | undefined,
  roles: ReadonlyMap<string, readonly string[]>,
  runTime: (value: string) => boolean,
  cmd: ShellCommand,
  ctx: TargetContext,
): TargetFacts {
  const kinds = grammar?.role_kinds;
  if (kinds === undefined) return NONE;
  let unchecked = false;
  for (const [role, kind] of Object.entries(kinds)) {
    if (kind.target === undefined) continue;
    let words: readonly (string | null)[] = [];
    const own = roles.get(role);
    if (own !== undefined && own.length > 0) words = own.map((w) => (runTime(w) ? variableValue(w, ctx) : w));
    else {
      for (const [name, r] of Object.entries(grammar?.env_roles ?? {})) if (r === role) words = [...words, ...envValues(name, ctx)];
      if (words.length === 0 && grammar?.ambient_roles !== undefined && Object.hasOwn(grammar.ambient_roles, role)) {
        const read = ctx.readTarget === undefined ? null : ctx.readTarget(grammar.ambient_roles[role]!, cmd);
        words = [read];
      }
    }
    for (const w of words) {
      if (w === null) {
        unchecked = true;
        continue;
      }
      const v = kind.target === 'url' ? urlValue(w) : { compared: [w], shown: w };
      if (v.compared.some((c) => isProduction(c, ctx.production))) return { production: v.shown, unchecked: false };
    }
  }
  return unchecked ? { production: null, unchecked } : NONE;
}

/** A run-time word that is one variable (`$DATABASE_URL`, `${PGHOST}`): its value from the line or the hook's environment, else null. */
function variableValue(word: string, ctx: TargetContext): string | null {
  const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(word);
  if (m === null) return null;
  const got = envValues(m[1]!, ctx);
  return got.length === 1 ? got[0]! : null;
}

/** The values a variable may have: what the line sets (each of them), else the hook's. */
function envValues(name: string, ctx: TargetContext): readonly (string | null)[] {
  const set = ctx.lineSets?.get(name);
  if (set !== undefined && set.length > 0) return set;
  const v = ctx.env?.[name];
  return v === undefined || v === '' ? [] : [v];
}

/**
 * A URL's host and database (its first path part), without user, password, port or query:
 * `postgres://u:pw@prod-db:5432/app?sslmode=x` → compared `prod-db`, `app`; shown `prod-db/app`.
 * A word that is no URL is a plain name.
 */
export function urlValue(word: string): Value {
  const at = word.indexOf('://');
  if (at < 0) return { compared: [word], shown: word };
  let rest = word.slice(at + 3);
  const end = rest.search(/[/?#]/);
  let authority = end < 0 ? rest : rest.slice(0, end);
  rest = end < 0 ? '' : rest.slice(end);
  authority = authority.slice(authority.lastIndexOf('@') + 1);
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:[^:]*$/, '');
  const db = rest.startsWith('/') ? rest.slice(1).split(/[/?#]/)[0]! : '';
  const compared = db === '' ? [host] : [host, db];
  return { compared, shown: db === '' ? host : `${host}/${db}` };
}

/**
 * Whether `value` is a production environment: one of its parts (split at `-_.:/@`) equals a
 * listed word, ignoring letter case, or the value or a part matches a listed `*` pattern.
 * `prod-eu` and `acme-prod` are production; `products` is not.
 */
export function isProduction(value: string, listed: readonly string[]): boolean {
  const lower = value.toLowerCase();
  const parts = lower.split(/[-_.:/@]/);
  for (const entry of listed) {
    const e = entry.toLowerCase();
    if (e.includes('*')) {
      const re = new RegExp(`^${e.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
      if (re.test(lower) || parts.some((p) => re.test(p))) return true;
    } else if (parts.includes(e)) return true;
  }
  return false;
}
