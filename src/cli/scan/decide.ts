/**
 * `buckler scan`: a shell piece → its findings, decided as a hook decides what an agent runs.
 * The piece is decided whole first (what `bash -c PIECE` would get: an earlier `cd` or variable
 * counts); only when that is not an allow are its top-level commands decided one by one, to
 * say which line it is. A piece whose commands are each allowed alone but not together is one
 * finding at its start. A finding: deny → error, ask → warning, nudge → note.
 */
import type { Decision, PolicyInput, PolicyOutput } from '../../core/contract.ts';
import { evaluate } from '../../core/evaluate.ts';
import type { CompiledPolicy } from '../../core/policy.ts';
import type { Command, Script } from '../../shell/ast.ts';
import { Parser } from '../../shell/parser.ts';
import { positionOf, type ScriptPiece } from '../../shell/script-formats/piece.ts';

export type Level = 'error' | 'warning' | 'note';

export const LEVEL: Readonly<Record<Decision, Level | null>> = { deny: 'error', ask: 'warning', nudge: 'note', allow: null };

export interface Finding {
  /** Relative to the scanned directory. */
  file: string;
  line: number;
  column: number;
  level: Level;
  decision: Decision;
  /** `pack/rule`; `buckler/<error>` when the text could not be analysed. */
  rule: string;
  /** Why, as the person would be told. */
  message: string;
  /** What the piece is (`script "build"`, `RUN`). */
  where: string;
  /** The command as written (its first line). */
  command: string;
}

/** Where a decision is made: the directory it runs in and the context around it. */
export interface Place {
  input: (command: string, cwd: string) => PolicyInput;
  options: (cwd: string) => Parameters<typeof evaluate>[2];
}

/** The parsed text, or null when it does not parse. */
function parse(text: string): Script | null {
  try {
    return Parser.parse(text, 0, { maxDepth: 8, maxNesting: 64, nesting: 0 }, 0);
  } catch {
    return null;
  }
}

/** The top-level commands of `text` ([start, end) offsets: each up to the next), or null when it does not parse. */
export function statements(text: string): Array<[number, number]> | null {
  const script = parse(text);
  if (script === null) return null;
  const starts = script.items.map((i) => i.andOr.pipelines[0]?.commands[0]?.start ?? 0);
  return starts.map((s, k) => [s, k + 1 < starts.length ? (starts[k + 1] as number) : text.length]);
}

/**
 * The pipelines inside one statement, compound commands and functions opened ([start, end)
 * offsets of `text`): where in a statement its finding is, when the statement has several.
 */
export function pipelines(text: string): Array<[number, number]> {
  const script = parse(text);
  const out: Array<[number, number]> = [];
  const command = (c: Command): void => {
    if (c.type === 'compound') c.bodies.forEach(list);
    else if (c.type === 'function') command(c.body);
  };
  const list = (s: Script): void => {
    for (const item of s.items) {
      for (const p of item.andOr.pipelines) {
        const first = p.commands[0];
        const last = p.commands[p.commands.length - 1];
        if (first === undefined || last === undefined) continue;
        if (p.commands.length === 1 && first.type !== 'simple') command(first);
        else out.push([first.start, last.end]);
      }
    }
  };
  if (script !== null) list(script);
  return out;
}

function ruleOf(out: PolicyOutput): string {
  return out.rule ?? (out.error !== undefined ? `buckler/${out.error.code}` : 'buckler/unknown');
}

function messageOf(out: PolicyOutput): string {
  const m = out.decision === 'nudge' ? (out.additional_context ?? out.agent_message) : (out.user_message ?? out.agent_message);
  return (m ?? out.error?.message ?? `${out.decision} by ${ruleOf(out)}`).replace(/\s+/g, ' ').trim();
}

export function decidePiece(piece: ScriptPiece, file: string, cwd: string, policy: CompiledPolicy, place: Place): Finding[] {
  const decide = (text: string): PolicyOutput => evaluate(place.input(text, cwd), policy, place.options(cwd));
  const whole = decide(piece.text);
  if (LEVEL[whole.decision] === null) return [];
  const finding = (out: PolicyOutput, offset: number, text: string): Finding => {
    const at = positionOf(piece, offset);
    return { file, line: at.line, column: at.column, level: LEVEL[out.decision] as Level, decision: out.decision, rule: ruleOf(out), message: messageOf(out), where: piece.label, command: text.trim().split('\n')[0] ?? '' };
  };
  const parts = statements(piece.text);
  if (parts === null || parts.length <= 1) {
    const start = parts?.[0]?.[0] ?? piece.text.length - piece.text.trimStart().length;
    return parts === null ? [finding(whole, start, piece.text.slice(start))] : within(piece.text.slice(start), start, whole);
  }
  const out: Finding[] = [];
  for (const [s, e] of parts) {
    const text = piece.text.slice(s, e);
    const one = decide(text);
    if (LEVEL[one.decision] === null) continue;
    out.push(...within(text, s, one));
  }
  return out.length > 0 ? out : [finding(whole, parts[0]?.[0] ?? 0, piece.text.slice(parts[0]?.[0] ?? 0))];

  /**
   * A flagged statement's own findings: each pipeline in it that is flagged alone (one that does
   * not parse alone, a here-document cut off, is not taken); else the statement itself.
   */
  function within(text: string, base: number, one: PolicyOutput): Finding[] {
    const inner = pipelines(text);
    const found: Finding[] = [];
    if (inner.length > 1) {
      for (const [s, e] of inner) {
        const sub = decide(text.slice(s, e));
        if (LEVEL[sub.decision] !== null && sub.error === undefined) found.push(finding(sub, base + s, text.slice(s, e)));
      }
    }
    return found.length > 0 ? found : [finding(one, base, text)];
  }
}
