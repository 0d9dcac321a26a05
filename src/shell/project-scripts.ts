/**
 * Scripts that package managers and make run from files in the project: `npm run NAME`,
 * `npm test` (with `pre`/`post` scripts), `pnpm`/`yarn`/`bun` the same, `make TARGET` (the
 * recipes of the target and its prerequisites). The file is read through `readScript` (the
 * caller's I/O) and its text turned into shell text by one pure reader per format
 * (script-formats/); that text is walked like `bash -c` text. A file there that cannot be read,
 * or a script past its share of the work, is an `unseen: 'unreadable'` command naming the file.
 */
import { type Ctx, type Walker } from './context.ts';
import { unseenCommand } from './provenance.ts';
import { makeRecipes } from './script-formats/makefile.ts';
import { PACKAGE_RUNNERS, packageScripts, scriptsRun } from './script-formats/package-json.ts';
import type { ScriptRead } from './types.ts';
import type { ArgWord } from './word-value.ts';
import { PARSE_COST } from './work.ts';

/** A file's text as read (Runner.earlier: a file downloaded in an earlier call is reported). */
export type ReadText = (r: ScriptRead, file: string, via: readonly string[]) => string | null | undefined;

/** Runs script text (Runner.nestedScript), with the words handed to it as `$1 …`. */
export type RunText = (text: ArgWord, label: string, via: readonly string[], ctx: Ctx, positional: readonly ArgWord[] | undefined, file: string) => void;

/** Directories above the command's that npm looks in for package.json. */
const MAX_UP = 8;
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
/** make options that take a value in the next word. */
const MAKE_VALUE = new Set(['-f', '--file', '--makefile', '-C', '--directory', '-I', '--include-dir', '-o', '--old-file', '--assume-old', '-W', '--what-if', '--new-file', '--assume-new', '-l', '--load-average', '-O', '--output-sync', '--eval']);

/** Whether `prog` may run a project script file (checked before anything else is done). */
export function runsProjectScripts(prog: string): boolean {
  return prog === 'make' || prog === 'gmake' || Object.hasOwn(PACKAGE_RUNNERS, prog);
}

/**
 * What `args` (a `make`/`npm`/… command) runs from the project's files. `dir`: the directory
 * the line changed to (`cd web && npm test`), '' for the command's own, null when not known.
 */
export function projectScripts(w: Walker, run: RunText, earlier: ReadText, prog: string, args: readonly ArgWord[], via: readonly string[], ctx: Ctx, dir: string | null): void {
  if (w.opts.readScript === undefined) return;
  if (prog === 'make' || prog === 'gmake') makeScripts(w, run, earlier, prog, args, via, ctx, dir);
  else packageRun(w, run, earlier, prog, args, via, ctx, dir);
}

function packageRun(w: Walker, run: RunText, earlier: ReadText, prog: string, args: readonly ArgWord[], via: readonly string[], ctx: Ctx, dir: string | null): void {
  const pm = PACKAGE_RUNNERS[prog];
  if (pm === undefined) return;
  // The script's name: after `run` (options skipped), or a subcommand that names its own.
  let i = 1;
  const skipOptions = (): boolean => {
    while (i < args.length && (args[i] as ArgWord).value.startsWith('-') && (args[i] as ArgWord).value !== '--') {
      const a = args[i] as ArgWord;
      if (a.dynamic || pm.elsewhere.includes(a.value.split('=')[0] as string)) return false;
      i++;
    }
    return true;
  };
  const label = `${prog} run`;
  let file = joinDir(dir, 'package.json');
  if (!skipOptions()) return void w.report(unseenCommand(file ?? 'package.json', [...via, label], 'unreadable'));
  const sub = args[i];
  if (sub === undefined || sub.dynamic) return;
  if (pm.elsewhere.includes(sub.value)) return void w.report(unseenCommand(file ?? 'package.json', [...via, label], 'unreadable'));
  let name: ArgWord | undefined;
  if (pm.run.includes(sub.value)) {
    i++;
    if (!skipOptions()) return void w.report(unseenCommand(file ?? 'package.json', [...via, label], 'unreadable'));
    name = args[i];
    if (name === undefined) return;
  } else if (Object.hasOwn(pm.direct, sub.value)) name = { ...sub, value: pm.direct[sub.value] as string };
  else if (pm.bare) name = sub;
  else return;
  if (name.dynamic || file === null) return void w.report(unseenCommand(file ?? 'package.json', [...via, label], 'unreadable'));
  // The words after the name (past `--`) are appended to the script's text.
  const rest = args.slice(i + 1).filter((a, k) => !(k === 0 && a.value === '--'));
  // npm looks for package.json in the directory and then in each one above it.
  let text: string | null | undefined;
  for (let up = 0; up <= MAX_UP && text === undefined; up++) {
    const f: string | null = up === 0 ? file : joinDir(dir, `${'../'.repeat(up)}package.json`);
    if (f === null) break;
    text = earlier(w.opts.readScript?.(f), f, [...via, label]);
    if (text !== undefined) file = f;
  }
  if (text === undefined || file === null) return;
  const found: string = file;
  const scripts = text === null ? null : packageScripts(text);
  if (scripts === null || !withinShare(w, text ?? '')) return void w.report(unseenCommand(found, [...via, label], 'unreadable'));
  for (const s of scriptsRun(scripts, name.value)) {
    const passed = s.name === name.value && rest.length > 0;
    const body = passed ? `${s.text} "$@"` : s.text;
    run({ value: body, dynamic: false, glob: false, start: name.start }, `${prog} run ${s.name}`, via, ctx, passed ? [{ ...name, value: prog }, ...rest] : undefined, found);
  }
}

function makeScripts(w: Walker, run: RunText, earlier: ReadText, prog: string, args: readonly ArgWord[], via: readonly string[], ctx: Ctx, dirIn: string | null): void {
  let dir = dirIn;
  let file: string | null = null;
  const goals: string[] = [];
  const label = `${prog}`;
  for (let i = 1; i < args.length; i++) {
    const a = args[i] as ArgWord;
    const v = a.value;
    const takes = MAKE_VALUE.has(v);
    const value = takes ? args[++i] : undefined;
    if (takes && (value === undefined || value.dynamic)) return void w.report(unseenCommand(v, [...via, label], 'unreadable'));
    if (v === '-f' || v === '--file' || v === '--makefile') file = (value as ArgWord).value;
    else if (v === '-C' || v === '--directory') dir = joinDir(dir, (value as ArgWord).value);
    else if (/^-f./.test(v)) file = v.slice(2);
    else if (/^-C./.test(v)) dir = joinDir(dir, v.slice(2));
    else if (/^--(?:file|makefile|directory)=/.test(v)) {
      const x = v.slice(v.indexOf('=') + 1);
      if (v.startsWith('--directory')) dir = joinDir(dir, x);
      else file = x;
    } else if (takes || v.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_.]*[:+?!]?=/.test(v)) continue;
    else if (/^\d+$/.test(v) && /^(?:-j|--jobs)$/.test((args[i - 1] as ArgWord).value)) continue;
    else if (a.dynamic) return void w.report(unseenCommand(v, [...via, label], 'unreadable'));
    else goals.push(v);
  }
  if (dir === null) return void w.report(unseenCommand(file ?? 'Makefile', [...via, label], 'unreadable'));
  let text: string | null | undefined;
  let name = '';
  for (const f of file === null ? MAKEFILES : [file]) {
    name = joinDir(dir, f) as string;
    text = earlier(w.opts.readScript?.(name), name, [...via, label]);
    if (text !== undefined) break;
  }
  if (text === undefined) return;
  if (text === null || !withinShare(w, text)) return void w.report(unseenCommand(name, [...via, label], 'unreadable'));
  const made = makeRecipes(text, goals);
  // A goal with no rule here may be in a file it includes (not read).
  if (made.includes && made.missing.length > 0) w.report(unseenCommand(name, [...via, label], 'unreadable'));
  if (made.lines.length === 0) return;
  const goalNames = goals.length > 0 ? goals.join(' ') : (made.defaultGoal ?? '');
  const body = made.lines.map((l) => l.text).join('\n');
  run({ value: body, dynamic: false, glob: false, start: 0 }, `${prog} ${goalNames}`.trim(), via, ctx, undefined, name);
}

/** A project file's text may use at most half the work left (like a script file). */
function withinShare(w: Walker, text: string): boolean {
  return PARSE_COST * text.length < Math.floor(w.work.left / 2);
}

function joinDir(dir: string | null, file: string): string | null {
  if (dir === null) return null;
  if (dir === '' || file.startsWith('/')) return file;
  return `${dir.replace(/\/+$/, '')}/${file}`;
}

/**
 * The directory the line changed to before the command at `w.out.length` (`cd web && npm
 * test`): '' when it did not, null when it is not known (a run-time `cd`, `cd -`, `cd` alone).
 */
export function lineDirectory(w: Walker): string | null {
  let dir = '';
  for (const c of w.out) {
    const p = c.argv[0];
    if (c.opaque || (p !== 'cd' && p !== 'pushd' && p !== 'popd')) continue;
    if (p === 'popd') return null;
    let i = 1;
    while (i < c.argv.length && /^-[LPe@]+$/.test(c.argv[i] as string)) i++;
    if (c.argv[i] === '--') i++;
    const t = c.argv[i];
    if (t === undefined || c.dynamic.includes(i) || t === '-' || /^[+-]\d+$/.test(t) || t.startsWith('~')) return null;
    dir = t.startsWith('/') || dir === '' ? t : `${dir}/${t}`;
  }
  return dir;
}
