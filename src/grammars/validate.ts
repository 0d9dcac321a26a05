/**
 * Checks program data given in a pack's `programs:` entry. Returns the problems found, each
 * naming the field; an empty list means the value is a valid `ProgramGrammar`.
 */
import type { ProgramGrammar } from './types.ts';

type Kind = 'options' | 'strings' | 'map' | 'bool' | 'count' | 'option' | 'runs' | 'files' | 'subcommands' | 'inline' | 'roles' | 'env_runs' | 'role_kinds' | 'env_roles' | 'word';

const LEVEL: Record<string, Kind> = {
  value_options: 'options',
  next_word_values: 'options',
  optional_value: 'options',
  long_options: 'options',
  flags: 'options',
  synonyms: 'map',
  subcommands: 'subcommands',
  aliases: 'map',
  nested: 'bool',
  strict: 'bool',
  options_first: 'bool',
  options_after: 'count',
  numeric: 'bool',
  single_dash_long: 'bool',
  plus_options: 'bool',
  dash: 'option',
  split_options: 'options',
  stop_after: 'options',
  runs: 'runs',
  files: 'files',
  roles: 'roles',
};
const PROGRAM: Record<string, Kind> = {
  ...LEVEL,
  inherit_options: 'bool',
  short_equals: 'bool',
  abbreviations: 'bool',
  inline_aliases: 'inline',
  commands: 'strings',
  dashed: 'bool',
  versioned: 'bool',
  env_runs: 'env_runs',
  role_kinds: 'role_kinds',
  env_roles: 'env_roles',
  ambient_roles: 'map',
  stdin_role: 'word',
  role_files: 'map',
};
const RUNS: Record<string, Kind | 'self' | 'terminators' | 'settings' | 'word'> = {
  command: 'bool',
  skip: 'count',
  assignments: 'bool',
  command_when: 'options',
  until: 'strings',
  replace: 'word',
  replace_options: 'options',
  appends: 'bool',
  stdin_args: 'options',
  stdin_nul: 'options',
  keeps_positional: 'bool',
  no_stdin: 'bool',
  default_command: 'word',
  shell_operands: 'bool',
  exec_flags: 'options',
  shell_options: 'options',
  shell_settings: 'settings',
  shell_flags: 'options',
  shell_first: 'count',
  shell_assignments: 'bool',
  code_options: 'options',
  code_operand: 'bool',
  code_file_options: 'options',
  language: 'word',
  stdin_code: 'bool',
  script_operand: 'bool',
  script_commands: 'strings',
  stdin_script: 'bool',
  stdin_flags: 'options',
  exec_options: 'terminators',
  no_run: 'options',
  self: 'self',
};
/** The fields of a mark's test (types.ts, MarkTest) and what each holds. */
const MARK_TEST: Record<string, 'bool' | 'word' | 'strings' | 'count'> = {
  trim: 'bool',
  strip: 'word',
  ignore_case: 'bool',
  prefix: 'word',
  equals: 'strings',
  min_length: 'count',
};
const ACCESS = ['read', 'write', 'delete', 'metadata'];
const FILES: Record<string, 'access' | 'access_none' | 'count' | 'access_map' | 'bool' | 'link_kind'> = {
  operands: 'access',
  skip: 'count',
  first: 'access_none',
  last: 'access_none',
  options: 'access_map',
  at_options: 'access_map',
  assignments: 'access_map',
  leading: 'bool',
  recursive: 'bool',
  contents: 'bool',
  whole: 'bool',
  into: 'bool',
  links: 'link_kind',
};

/** The fields of program data and what each holds (docs/pack.schema.json is checked against these). */
export const GRAMMAR_FIELDS = {
  level: LEVEL,
  program: PROGRAM,
  runs: RUNS,
  files: FILES,
  access: ACCESS,
  mark_test: MARK_TEST,
} as const;

const INLINE_ALIAS_STRINGS = ['option', 'prefix', 'env_option', 'env_key', 'env_value', 'env_parameters', 'config_command', 'dir_option'];
const INLINE_ALIAS_LISTS = ['config_value_options', 'config_read_only', 'config_rename', 'config_vars', 'include_keys'];
const INLINE_ALIAS_MAPS = ['option_vars'];
export const INLINE_ALIAS_FIELDS = { strings: INLINE_ALIAS_STRINGS, lists: INLINE_ALIAS_LISTS, maps: INLINE_ALIAS_MAPS } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 64;
const isOption = (o: string): boolean => /^[-+]/.test(o);

function checkValue(kind: string, v: unknown, at: string, out: string[]): void {
  switch (kind) {
    case 'options':
      if (!isStringList(v)) out.push(`${at} must be a list of strings`);
      else for (const o of v) if (!isOption(o)) out.push(`${at} entry "${o}" must start with -`);
      return;
    case 'strings':
      if (!isStringList(v)) out.push(`${at} must be a list of strings`);
      return;
    case 'map':
    case 'roles':
      if (!isStringMap(v)) out.push(`${at} must map strings to strings`);
      return;
    case 'bool':
      if (typeof v !== 'boolean') out.push(`${at} must be true or false`);
      return;
    case 'count':
      if (!isCount(v)) out.push(`${at} must be a whole number from 0 to 64`);
      return;
    case 'option':
      if (typeof v !== 'string' || !isOption(v)) out.push(`${at} must be an option (starting with -)`);
      return;
    case 'word':
      if (typeof v !== 'string') out.push(`${at} must be a string`);
      return;
    case 'self':
      if (!['always', 'idle', 'never'].includes(v as string)) out.push(`${at} must be one of always, idle, never`);
      return;
    case 'settings':
      if (!isObject(v) || !Object.values(v).every(isStringList)) out.push(`${at} must map options to lists of setting names`);
      return;
    case 'terminators':
      if (!isObject(v) || !Object.values(v).every(isStringList)) out.push(`${at} must map options to lists of terminator words`);
      return;
    case 'inline':
      if (!(isObject(v) && typeof v['option'] === 'string' && typeof v['prefix'] === 'string')) {
        out.push(`${at} must be { option: string, prefix: string }`);
        return;
      }
      for (const [k, x] of Object.entries(v)) {
        const field = at.replace(/"inline_aliases"$/, `"inline_aliases.${k}"`);
        if (INLINE_ALIAS_STRINGS.includes(k)) {
          if (typeof x !== 'string') out.push(`${field} must be a string`);
        } else if (INLINE_ALIAS_LISTS.includes(k)) {
          if (!isStringList(x)) out.push(`${field} must be a list of strings`);
        } else if (INLINE_ALIAS_MAPS.includes(k)) {
          if (!isStringMap(x)) out.push(`${field} must map strings to strings`);
        } else out.push(`${at.replace(/: "inline_aliases"$/, '')}: unknown field "inline_aliases.${k}"`);
      }
      return;
    case 'env_runs':
      if (!isObject(v) || !Object.entries(v).every(([k, x]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && (x === 'shell' || x === 'script'))) {
        out.push(`${at} must map variable names to shell or script`);
      }
      return;
    case 'role_kinds':
      checkRoleKinds(v, at, out);
      return;
    case 'env_roles':
      if (!isObject(v) || !Object.entries(v).every(([k, x]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && typeof x === 'string' && x !== '')) {
        out.push(`${at} must map variable names to role names`);
      }
      return;
    case 'access':
      if (!ACCESS.includes(v as string)) out.push(`${at} must be one of ${ACCESS.join(', ')}`);
      return;
    case 'access_none':
      if (![...ACCESS, 'none'].includes(v as string)) out.push(`${at} must be one of ${ACCESS.join(', ')}, none`);
      return;
    case 'access_map':
      if (!isObject(v) || !Object.values(v).every((a) => ACCESS.includes(a as string))) out.push(`${at} must map words to one of ${ACCESS.join(', ')}`);
      return;
    case 'link_kind':
      if (v !== 'hard' && v !== 'symbolic') out.push(`${at} must be hard or symbolic`);
      return;
  }
}

/** `role_kinds: { ROLE: { marks: { MARK: TEST } } }` (types.ts, RoleKind). */
function checkRoleKinds(v: unknown, at: string, out: string[]): void {
  if (!isObject(v)) {
    out.push(`${at} must map role names to { marks: … }`);
    return;
  }
  for (const [role, kind] of Object.entries(v)) {
    const here = at.replace(/"role_kinds"$/, `"role_kinds.${role}"`);
    if (!isObject(kind) || !isObject(kind['marks']) || Object.keys(kind).some((k) => k !== 'marks' && k !== 'target')) {
      out.push(`${here} must be { marks: { MARK: test }, target?: name | url }`);
      continue;
    }
    if (kind['target'] !== undefined && kind['target'] !== 'name' && kind['target'] !== 'url') out.push(`${here.replace(/"$/, '.target"')} must be name or url`);
    for (const [mark, test] of Object.entries(kind['marks'])) {
      const field = here.replace(/"$/, `.marks.${mark}"`);
      if (!/^[A-Za-z0-9_-]+$/.test(mark)) out.push(`${field}: a mark name is letters, digits, "-" or "_"`);
      if (!isObject(test)) {
        out.push(`${field} must be a mapping of ${Object.keys(MARK_TEST).join(', ')}`);
        continue;
      }
      for (const [k, x] of Object.entries(test)) {
        const kind = MARK_TEST[k];
        if (kind === undefined) out.push(`${field}: unknown field "${k}" (known: ${Object.keys(MARK_TEST).join(', ')})`);
        else checkValue(kind, x, `${field.replace(/"$/, `.${k}"`)}`, out);
      }
    }
  }
}

function checkMapping(v: unknown, at: string, fields: Record<string, string>, out: string[]): void {
  if (!isObject(v)) {
    out.push(`${at}: must be a mapping`);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    const kind = fields[k];
    if (kind === undefined) out.push(`${at}: unknown field "${k}"`);
    else if (kind === 'runs') checkMapping(x, `${at} runs`, RUNS, out);
    else if (kind === 'files') checkFiles(x, `${at} files`, out);
    else if (kind === 'subcommands') checkSubcommands(x, at, out);
    else checkValue(kind, x, `${at}: "${k}"`, out);
  }
}

function checkFiles(v: unknown, at: string, out: string[]): void {
  // `when` is checked below, entry by entry.
  checkMapping(v, at, { ...FILES, when: 'when' }, out);
  if (!isObject(v) || v['when'] === undefined) return;
  const when = v['when'];
  if (!isObject(when)) out.push(`${at}: "when" must map options to file fields`);
  else for (const [opt, f] of Object.entries(when)) checkMapping(f, `${at} when ${opt}`, FILES, out);
}

function checkSubcommands(subs: unknown, at: string, out: string[]): void {
  if (!isObject(subs)) {
    out.push(`${at}: "subcommands" must map names to grammars`);
    return;
  }
  for (const [name, sub] of Object.entries(subs)) {
    if (sub === null) continue;
    checkMapping(sub, `${at} ${name}`, LEVEL, out);
  }
}

export function grammarProblems(raw: unknown, program: string): string[] {
  const out: string[] = [];
  if (!isObject(raw)) return [`program "${program}": must be a mapping`];
  checkMapping(raw, `program "${program}"`, PROGRAM, out);
  return out;
}

/** A checked grammar with `null` subcommand entries (`remove:` with no body) made empty. */
export function normaliseGrammar(raw: Record<string, unknown>): ProgramGrammar {
  const fix = (v: Record<string, unknown>): Record<string, unknown> => {
    const subs = v['subcommands'];
    if (!isObject(subs)) return v;
    const fixed: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(subs)) fixed[k] = s === null ? {} : fix(s as Record<string, unknown>);
    return { ...v, subcommands: fixed };
  };
  return fix(raw) as ProgramGrammar;
}
