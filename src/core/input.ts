/**
 * `parsePolicyInput`: a parsed JSON value → a checked `PolicyInput`, by hand (no schema library
 * on the hook path). Unknown fields are ignored (additive evolution); wrong types, another
 * version or an unknown trigger throw a typed `PolicyError`.
 */
import {
  POLICY_IO_VERSION,
  PolicyError,
  TRIGGERS,
  ACCESS_KINDS,
  type ActionContext,
  type PolicyInput,
  type ProgramAliases,
  type SessionInfo,
  type ShellInfo,
  type ToolInfo,
  type Trigger,
} from './contract.ts';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(path: string, want: string): never {
  throw new PolicyError('bad_input', `PolicyInput.${path} must be ${want}`);
}

function optString(o: Obj, key: string, path: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') bad(`${path}${key}`, 'a string');
  return v;
}

function parseShell(v: unknown): ShellInfo {
  if (!isObject(v)) bad('shell', 'an object');
  if (typeof v['command'] !== 'string') bad('shell.command', 'a string');
  const shell: ShellInfo = { command: v['command'] };
  const cwd = optString(v, 'cwd', 'shell.');
  if (cwd !== undefined) shell.cwd = cwd;
  return shell;
}

function parseTool(v: unknown): ToolInfo {
  if (!isObject(v)) bad('tool', 'an object');
  if (typeof v['name'] !== 'string') bad('tool.name', 'a string');
  const tool: ToolInfo = { name: v['name'] };
  if (v['input'] !== undefined) tool.input = v['input'];
  const paths = v['paths'];
  if (paths !== undefined && paths !== null) {
    if (!Array.isArray(paths)) bad('tool.paths', 'a list of {path, access}');
    tool.paths = paths.map((p: unknown, i) => {
      if (!isObject(p) || typeof p['path'] !== 'string') bad(`tool.paths[${i}].path`, 'a string');
      const access = p['access'];
      if (typeof access !== 'string' || !(ACCESS_KINDS as readonly string[]).includes(access)) {
        bad(`tool.paths[${i}].access`, `one of ${ACCESS_KINDS.join(', ')}`);
      }
      return { path: p['path'], access: access as (typeof ACCESS_KINDS)[number] };
    });
  }
  const mcp = v['mcp'];
  if (mcp !== undefined && mcp !== null) {
    if (!isObject(mcp)) bad('tool.mcp', 'an object');
    if (typeof mcp['server'] !== 'string') bad('tool.mcp.server', 'a string');
    if (typeof mcp['tool'] !== 'string') bad('tool.mcp.tool', 'a string');
    tool.mcp = { server: mcp['server'], tool: mcp['tool'] };
    if (mcp['arguments'] !== undefined) tool.mcp.arguments = mcp['arguments'];
  }
  return tool;
}

function stringList(v: unknown, path: string): string[] {
  if (!Array.isArray(v) || !v.every((r) => typeof r === 'string')) bad(path, 'a list of strings');
  return v as string[];
}

function parseContext(v: unknown): ActionContext {
  if (!isObject(v)) bad('context', 'an object');
  const c: ActionContext = {};
  for (const k of ['cwd', 'home', 'tmpdir'] as const) {
    const x = optString(v, k, 'context.');
    if (x !== undefined) c[k] = x;
  }
  for (const k of ['project_roots', 'temp_dirs'] as const) {
    if (v[k] !== undefined && v[k] !== null) c[k] = stringList(v[k], `context.${k}`);
  }
  const loc = v['locations'];
  if (loc !== undefined && loc !== null) {
    if (!isObject(loc)) bad('context.locations', 'an object of string lists');
    const out: Record<string, string[]> = {};
    for (const [name, list] of Object.entries(loc)) out[name] = stringList(list, `context.locations.${name}`);
    c.locations = out;
  }
  return c;
}

function parseSession(v: unknown): SessionInfo {
  if (!isObject(v)) bad('session', 'an object');
  const s: SessionInfo = {};
  for (const k of ['conversation_id', 'generation_id', 'model'] as const) {
    const x = optString(v, k, 'session.');
    if (x !== undefined) s[k] = x;
  }
  const roots = v['workspace_roots'];
  if (roots !== undefined && roots !== null) {
    if (!Array.isArray(roots) || !roots.every((r) => typeof r === 'string')) bad('session.workspace_roots', 'a list of strings');
    s.workspace_roots = roots;
  }
  return s;
}

function parseEnv(v: unknown): Record<string, string> {
  if (!isObject(v)) bad('env', 'an object of strings');
  const env: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') bad(`env.${k}`, 'a string');
    env[k] = x;
  }
  return env;
}

function parseProgramAliases(v: unknown): ProgramAliases {
  if (!isObject(v)) bad('program_aliases', 'an object');
  const out: ProgramAliases = {};
  for (const [program, table] of Object.entries(v)) {
    if (!isObject(table)) bad(`program_aliases.${program}`, 'an object');
    const t: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(table)) {
      if (!Array.isArray(values) || !values.every((x) => typeof x === 'string')) bad(`program_aliases.${program}.${name}`, 'a list of strings');
      t[name] = values;
    }
    out[program] = t;
  }
  return out;
}

export function parsePolicyInput(raw: unknown): PolicyInput {
  if (!isObject(raw)) throw new PolicyError('bad_input', 'PolicyInput must be a JSON object');
  const version = raw['policy_io_version'];
  if (version !== POLICY_IO_VERSION) {
    throw new PolicyError(
      'unsupported_version',
      `unsupported policy_io_version ${JSON.stringify(version ?? null)} (this Buckler reads "${POLICY_IO_VERSION}")`,
    );
  }
  const trigger = raw['trigger'];
  if (typeof trigger !== 'string' || !(TRIGGERS as readonly string[]).includes(trigger)) {
    throw new PolicyError('unknown_trigger', `unknown trigger ${JSON.stringify(trigger ?? null)} (known: ${TRIGGERS.join(', ')})`);
  }
  const input: PolicyInput = { policy_io_version: POLICY_IO_VERSION, trigger: trigger as Trigger };
  const harness = optString(raw, 'harness', '');
  if (harness !== undefined) input.harness = harness;
  const event = optString(raw, 'event', '');
  if (event !== undefined) input.event = event;
  if (raw['shell'] !== undefined && raw['shell'] !== null) input.shell = parseShell(raw['shell']);
  if (raw['tool'] !== undefined && raw['tool'] !== null) input.tool = parseTool(raw['tool']);
  if (raw['session'] !== undefined && raw['session'] !== null) input.session = parseSession(raw['session']);
  if (raw['env'] !== undefined && raw['env'] !== null) input.env = parseEnv(raw['env']);
  if (raw['context'] !== undefined && raw['context'] !== null) input.context = parseContext(raw['context']);
  if (raw['program_aliases'] !== undefined && raw['program_aliases'] !== null) input.program_aliases = parseProgramAliases(raw['program_aliases']);
  return input;
}
