/**
 * A problem found while loading packs or config: where (file, line), which rule, what.
 * Errors make `buckler validate` fail. A broken rule or an unreadable file is left out; a rule
 * whose examples fail stays in force. Warnings change nothing.
 */

export interface Problem {
  severity: 'error' | 'warning';
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** `pack/rule`, when the problem concerns one rule. */
  rule?: string;
  message: string;
  /** The rule (or file) is left out of the policy because of it: what hooks report to a person. */
  dropped?: true;
}

/** `packs/agent-git.yaml:41 rule agent-git/no-force-push: "action" must be one of …` */
export function formatProblem(p: Problem, displayFile: (file: string) => string = (f) => f): string {
  const where = p.line !== undefined ? `${displayFile(p.file)}:${p.line}` : displayFile(p.file);
  const rule = p.rule !== undefined ? ` rule ${p.rule}` : '';
  return `${where}${rule}: ${p.message}`;
}

/** Problem paths (`rules.3.match.env`) → the line of the deepest recorded node on that path. */
export type LineMap = ReadonlyMap<string, number>;

export function lineFor(lines: LineMap | undefined, path: readonly (string | number)[]): number | undefined {
  if (!lines) return undefined;
  for (let n = path.length; n >= 0; n--) {
    const line = lines.get(path.slice(0, n).join('.'));
    if (line !== undefined) return line;
  }
  return undefined;
}
