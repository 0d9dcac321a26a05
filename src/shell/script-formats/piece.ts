/**
 * A piece of shell text read from a project file, with where each of its lines begins in the
 * file: what the repository scan decides and points at.
 */
export interface ScriptPiece {
  /** What the piece is, for people: `script "build"`, `RUN`, `job test, step 2`. */
  label: string;
  /** Shell text, as a shell would be given it. */
  text: string;
  /** Where each line of `text` begins in the file: [line, column], both 1-based. */
  at: Array<readonly [number, number]>;
}

/** Where `offset` of `piece.text` is in the file (a line past the map: its last line). */
export function positionOf(piece: ScriptPiece, offset: number): { line: number; column: number } {
  const before = piece.text.slice(0, Math.max(0, offset));
  const k = before.split('\n').length - 1;
  const col = before.length - (before.lastIndexOf('\n') + 1);
  const start = piece.at[Math.min(k, piece.at.length - 1)] ?? [1, 1];
  return k < piece.at.length ? { line: start[0], column: start[1] + col } : { line: start[0], column: start[1] };
}
