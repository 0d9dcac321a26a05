/**
 * The marks a reading's role words carry, from the program's `role_kinds` data (types.ts,
 * RoleKind): `+main` in the `refspec` role carries `refspec.force` because git's data says a
 * refspec starting with `+` is forced, not because this code knows git.
 */
import type { MarkTest, RoleKind } from './types.ts';

/** The marks of a reading without any (shared, never changed). */
export const NO_MARKS: ReadonlySet<string> = new Set();

/** Whether one word passes a mark's test (MarkTest gives the order of the steps). */
export function markHolds(t: MarkTest, word: string): boolean {
  let w = t.trim === true ? word.trim() : word;
  if (t.strip !== undefined && t.strip !== '' && w.startsWith(t.strip)) w = w.slice(t.strip.length);
  const fold = t.ignore_case === true ? (x: string): string => x.toUpperCase() : (x: string): string => x;
  const v = fold(w);
  if (t.prefix !== undefined && !v.startsWith(fold(t.prefix))) return false;
  if (t.equals !== undefined && !t.equals.some((e) => fold(e) === v)) return false;
  if (t.min_length !== undefined && w.length < t.min_length) return false;
  return true;
}

/** `ROLE.MARK` for each mark some word of its role carries. */
export function roleMarks(roles: ReadonlyMap<string, readonly string[]>, kinds: Readonly<Record<string, RoleKind>> | undefined): ReadonlySet<string> {
  if (kinds === undefined || roles.size === 0) return NO_MARKS;
  let out: Set<string> | undefined;
  for (const [role, words] of roles) {
    const kind = Object.hasOwn(kinds, role) ? kinds[role] : undefined;
    if (kind === undefined) continue;
    for (const [mark, test] of Object.entries(kind.marks)) {
      if (words.some((w) => markHolds(test, w))) (out ??= new Set()).add(`${role}.${mark}`);
    }
  }
  return out ?? NO_MARKS;
}
