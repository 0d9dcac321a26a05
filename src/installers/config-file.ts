/**
 * Reading a harness config file safely: what is on disk (bytes, mode, where a symlink
 * leads) and its JSON, or an InstallerError that names the file. Reading never changes anything.
 */
import fs from 'node:fs';
import { InstallerError, describeFsError } from './errors.ts';
import type { ConfigCodec } from './installer.ts';
import { DEFAULT_STYLE, detectStyle, serialize, type JsonObject, type JsonStyle } from './json-text.ts';
import { JsoncError, lineCol, parseJsonc, stripComments } from './jsonc.ts';
import { editJsonText } from './jsonc-edit.ts';

export interface ConfigSnapshot {
  /** The path as configured (may be a symlink). */
  file: string;
  /** Where writes go: the symlink's target, else `file`. */
  target: string;
  exists: boolean;
  /** Exact bytes on disk (empty when the file does not exist). */
  bytes: Buffer;
  /** The parsed JSON (undefined when the file does not exist). */
  value: unknown;
  style: JsonStyle | null;
  /** Permission bits of the existing file. */
  mode: number | null;
  uid: number | null;
  gid: number | null;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Where writes to `file` go: through a symlink to its target. */
export function writeTarget(file: string): string {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return file;
    throw new InstallerError('unreadable', file, `cannot read: ${describeFsError(e)}`);
  }
  if (!st.isSymbolicLink()) return file;
  try {
    return fs.realpathSync(file);
  } catch (e) {
    throw new InstallerError('unreadable', file, `is a symlink that leads nowhere (${describeFsError(e)}); fix or remove it`);
  }
}

/**
 * Deepest nesting Buckler edits. Harness configs nest a handful of levels; a deeper file is not
 * one of them, and walking it (comparing, serialising) would exhaust the stack.
 */
export const MAX_DEPTH = 256;

/** The deepest nesting of `[`/`{` in a JSON text (strings skipped), stopping early past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return max;
}

/**
 * Parses config bytes; throws InstallerError('malformed') naming `file`. `comments`: the
 * harness (named) reads the file as JSON with comments (jsonc.ts), so Buckler does too.
 */
export function parseConfigBytes(file: string, bytes: Buffer, comments?: { harness: string }): { value: unknown; style: JsonStyle } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new InstallerError('malformed', file, 'is not valid UTF-8; left unchanged');
  }
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  if (text.trim() === '') throw new InstallerError('malformed', file, 'is empty, not a JSON object; left unchanged');
  if (jsonDepth(comments === undefined ? text : stripComments(text), MAX_DEPTH) > MAX_DEPTH) {
    throw new InstallerError('malformed', file, `nests more than ${MAX_DEPTH} levels deep, which no harness config does; left unchanged`);
  }
  let value: unknown;
  if (comments !== undefined) {
    try {
      value = parseJsonc(text);
    } catch (e) {
      if (!(e instanceof JsoncError)) throw e;
      const at = lineCol(text, e.offset);
      const where = e.offset > 0 ? `line ${at.line}, column ${at.col}: ` : '';
      throw new InstallerError('malformed', file, `is not valid JSON with comments (${where}${e.message}; ${comments.harness} cannot read it either); left unchanged`);
    }
    return { value, style: detectStyle(text, bom) };
  }
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new InstallerError('malformed', file, `is not valid JSON (${why}); left unchanged`);
  }
  return { value, style: detectStyle(text, bom) };
}

/**
 * Reads a harness config: JSON, or through `codec` when the harness's file is not JSON
 * (then `style` is null).
 */
export function readConfig(file: string, codec?: ConfigCodec): ConfigSnapshot {
  const target = writeTarget(file);
  let bytes: Buffer;
  let st: fs.Stats;
  try {
    st = fs.statSync(target);
    if (st.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    bytes = fs.readFileSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return { file, target, exists: false, bytes: Buffer.alloc(0), value: undefined, style: null, mode: null, uid: null, gid: null };
    }
    throw new InstallerError('unreadable', file, `cannot read: ${describeFsError(e)}`);
  }
  const { value, style } = codec === undefined ? parseConfigBytes(file, bytes) : { value: codec.parse(file, bytes), style: null };
  return { file, target, exists: true, bytes, value, style, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
}

/**
 * The codec of a settings file its harness reads as JSON with comments (Gemini CLI, Qwen Code,
 * Factory Droid): comments and trailing commas as the harness takes them, and edits that keep
 * every byte outside Buckler's entries (comments, blank lines, spacing).
 */
export function jsoncCodec(harness: string): ConfigCodec {
  return {
    parse: (file, bytes) => parseConfigBytes(file, bytes, { harness }).value,
    render: (value: JsonObject) => Buffer.from(serialize(value, DEFAULT_STYLE), 'utf8'),
    edit(file, before, value) {
      let text = before.toString('utf8');
      const bom = text.startsWith('\uFEFF');
      if (bom) text = text.slice(1);
      let out: string;
      try {
        out = editJsonText(text, value, detectStyle(text, bom));
      } catch (e) {
        throw new InstallerError('malformed', file, `could not be edited in place (${e instanceof Error ? e.message : String(e)}); left unchanged`);
      }
      return Buffer.from((bom ? '\uFEFF' : '') + out, 'utf8');
    },
  };
}
