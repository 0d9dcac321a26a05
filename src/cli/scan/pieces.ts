/**
 * `buckler scan`: a file's text → the shell pieces it would run, each with where it stands, by
 * the one reader of its format (src/shell/script-formats/). YAML is parsed here (with a line
 * for every node) and the pieces found in it placed on their lines; a text that cannot be read
 * as its format is an `UnreadableInput`, never an empty file.
 */
import { dockerRuns } from '../../shell/script-formats/dockerfile.ts';
import { workflowRuns, type YamlScript } from '../../shell/script-formats/github-actions.ts';
import { gitlabScripts } from '../../shell/script-formats/gitlab-ci.ts';
import { makefilePieces } from '../../shell/script-formats/makefile.ts';
import { packagePieces } from '../../shell/script-formats/package-json.ts';
import type { ScriptPiece } from '../../shell/script-formats/piece.ts';
import { isShellHook } from '../../shell/script-formats/shell-script.ts';
import { lineFor } from '../../packs/problems.ts';
import type { InputKind } from './files.ts';

export class UnreadableInput extends Error {}

/** A GitHub expression (`${{ github.ref }}`), replaced before the shell runs: a run-time word. */
const EXPRESSION = /\$\{\{[\s\S]*?\}\}/g;

export async function piecesOf(kind: InputKind, text: string, rel: string): Promise<ScriptPiece[]> {
  switch (kind) {
    case 'package-json': {
      const p = packagePieces(text);
      if (p === null) throw new UnreadableInput(`${rel} is not a JSON object (npm would refuse it)`);
      return p;
    }
    case 'makefile':
      return makefilePieces(text);
    case 'dockerfile':
      return dockerRuns(text);
    case 'shell-script':
      return [wholeFile('script', text)];
    case 'git-hook':
      return isShellHook(text) ? [wholeFile('git hook', text)] : [];
    case 'github-actions':
      return yamlPieces(text, rel, workflowRuns, (t) => t.replace(EXPRESSION, '${__expr}'));
    case 'gitlab-ci':
      return yamlPieces(text, rel, gitlabScripts, (t) => t);
  }
}

function wholeFile(label: string, text: string): ScriptPiece {
  const lines = text.split('\n');
  return { label, text: lines.map((l) => l.replace(/\r$/, '')).join('\n'), at: lines.map((_, k) => [k + 1, 1] as const) };
}

async function yamlPieces(text: string, rel: string, read: (doc: unknown) => YamlScript[], shell: (t: string) => string): Promise<ScriptPiece[]> {
  const { parseYaml, YamlSyntaxError } = await import('../../packs/yaml.ts');
  let parsed;
  try {
    parsed = parseYaml(text, rel);
  } catch (e) {
    if (e instanceof YamlSyntaxError) throw new UnreadableInput(`${rel}${e.line === undefined ? '' : `:${e.line}`}: ${e.message}`);
    throw e;
  }
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  return read(parsed.doc).map((s) => {
    const line = lineFor(parsed.lines, s.path) ?? 1;
    return { label: s.label, text: shell(s.text), at: place(lines, line, s.text) };
  });
}

/**
 * Where the lines of a YAML string start: on the line of its key or item (`run: make`), or, for
 * a block scalar (`run: |`), on the lines below it at their indentation.
 */
export function place(lines: readonly string[], line: number, text: string): Array<readonly [number, number]> {
  const own = lines[line - 1] ?? '';
  const first = text.split('\n')[0] ?? '';
  const inline = first === '' ? -1 : own.indexOf(first);
  if (inline >= 0 && !/[:-]\s*[|>][-+0-9]*\s*(#.*)?$/.test(own)) return [[line, inline + 1]];
  // A block scalar: the first line of the text is on a later line; each line follows it.
  let start = line;
  while (start < lines.length && (lines[start] as string).trim() === '') start++;
  const count = text.replace(/\n$/, '').split('\n').length;
  const out: Array<readonly [number, number]> = [];
  for (let k = 0; k < count; k++) {
    const l = lines[start + k] ?? '';
    out.push([start + k + 1, l.length - l.trimStart().length + 1]);
  }
  return out.length > 0 ? out : [[line, 1]];
}
