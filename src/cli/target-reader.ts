/**
 * Targets a program keeps where a command runs (program data `ambient_roles`, core/targets.ts):
 * `kube_context`, the `current-context` of the kubeconfig (`$KUBECONFIG`'s files in order, else
 * `~/.kube/config`); `terraform_workspace`, the workspace in `.terraform/environment` of the
 * command's directory (`default` when the file is absent). Handed to the core as
 * `EvaluateOptions.readTarget`, which calls it only when a rule's `target` condition looks at a
 * command of such a program: every other event reads nothing.
 *
 * Bounded like git's config (git-config.ts): small regular files only, opened non-blocking, at
 * most MAX_KUBECONFIG_FILES of them. Never for a command run on another machine or in a
 * container (`ssh HOST CMD`, `docker exec`, `kubectl exec`): what is here says nothing there,
 * and the target is then not determinable (null).
 */
import path from 'node:path';
import type { TargetReader } from '../core/targets.ts';
import type { ShellCommand } from '../shell/types.ts';
import { readSmallFile } from './small-file.ts';

export const MAX_TARGET_FILE_BYTES = 256 * 1024;
export const MAX_KUBECONFIG_FILES = 8;

/** Wrappers whose command runs elsewhere (their labels in ShellCommand.via). */
const ELSEWHERE = /^(?:ssh|mosh|(?:docker|podman|nerdctl|kubectl|oc) (?:exec|run))\b/;

export function targetReader(cwd: string, env: Readonly<Record<string, string | undefined>>): TargetReader {
  const memo = new Map<string, string | null>();
  return (name, cmd) => {
    if (cmd.via.some((v) => ELSEWHERE.test(v))) return null;
    const dir = name === 'terraform_workspace' ? terraformDir(cmd, commandDir(cmd, cwd, env)) : '';
    const key = `${name}\0${dir ?? ''}`;
    if (memo.has(key)) return memo.get(key)!;
    const value = name === 'kube_context' ? kubeContext(env) : name === 'terraform_workspace' && dir !== null ? terraformWorkspace(dir) : null;
    memo.set(key, value);
    return value;
  };
}

/** The directory the command runs in: the event's, or where the line's `cd`s left it (null: run time). */
function commandDir(cmd: ShellCommand, cwd: string, env: Readonly<Record<string, string | undefined>>): string | null {
  if (cmd.cwd === undefined) return cwd;
  if (cmd.cwd === null || cmd.cwd.dynamic) return null;
  const v = cmd.cwd.value;
  const home = env['HOME'];
  if (v === '~' || v.startsWith('~/')) return home === undefined ? null : path.join(home, v.slice(1));
  if (v.startsWith('$HOME')) return home === undefined ? null : path.join(home, v.slice(5));
  return path.resolve(cwd, v);
}

/** The kubeconfig's current context: the first file of `$KUBECONFIG` that sets one, as kubectl merges them. */
export function kubeContext(env: Readonly<Record<string, string | undefined>>): string | null {
  const list = env['KUBECONFIG'];
  const home = env['HOME'];
  const files = list !== undefined && list !== '' ? list.split(path.delimiter).filter((f) => f !== '') : home !== undefined ? [path.join(home, '.kube', 'config')] : [];
  for (const file of files.slice(0, MAX_KUBECONFIG_FILES)) {
    const read = readSmallFile(file, MAX_TARGET_FILE_BYTES);
    if (read.kind === 'missing') continue;
    if (read.kind !== 'text') return null;
    const found = currentContext(read.text);
    if (found === undefined) continue;
    return found;
  }
  return null;
}

/**
 * `current-context:` at the top level of a kubeconfig (YAML or JSON); undefined when the file
 * sets none, null when it sets one that cannot be read plainly (an anchor, a block scalar).
 */
export function currentContext(text: string): string | null | undefined {
  if (text.trimStart().startsWith('{')) {
    try {
      const v = (JSON.parse(text) as Record<string, unknown>)['current-context'];
      return typeof v === 'string' && v !== '' ? v : v === undefined || v === '' ? undefined : null;
    } catch {
      return null;
    }
  }
  const m = /^(?:current-context|"current-context")\s*:[ \t]*(.*?)[ \t]*,?[ \t]*$/m.exec(text);
  if (m === null) return undefined;
  let v = m[1]!.replace(/[ \t]+#.*$/, '');
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
  else if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) v = v.slice(1, -1).replaceAll("''", "'");
  else if (/^[&*|>!]/.test(v)) return null;
  return v === '' || v === '""' ? undefined : v;
}

/** Where terraform works: the command's directory, changed by `-chdir=DIR` (null: run time). */
function terraformDir(cmd: ShellCommand, dir: string | null): string | null {
  let where = dir;
  for (let i = 1; i < cmd.argv.length && where !== null; i++) {
    const w = cmd.argv[i]!;
    if (!w.startsWith('-chdir=')) continue;
    if (cmd.dynamic.includes(i)) return null;
    where = path.resolve(where, w.slice('-chdir='.length));
  }
  return where;
}

/** terraform's workspace in `where`: `.terraform/environment`, else `default`. */
function terraformWorkspace(where: string): string | null {
  const read = readSmallFile(path.join(where, '.terraform', 'environment'), 4096);
  if (read.kind === 'missing') return 'default';
  if (read.kind !== 'text') return null;
  const name = read.text.trim();
  return name === '' ? 'default' : name;
}
