/**
 * Placing a command a person gives `buckler check` or `buckler explain`: where it stands
 * (`--cwd`, `--home`, `--project`, `--tool`), the rest of the context as a hook would see it,
 * and the operator's variables the rules read.
 */
import type { PolicyInput } from '../core/contract.ts';
import { BYPASS_VARS } from '../core/policy.ts';
import { actionContext } from './action-context.ts';
import type { CliIO } from './io.ts';

export interface Where {
  cwd: string | undefined;
  home: string | undefined;
  project: string[] | undefined;
  tool: string | undefined;
}

/** The parsed options, or what is wrong: the first of --cwd, --home, --project that is not an absolute path. */
export function whereOf(values: Record<string, unknown>): Where | string {
  const where: Where = {
    cwd: values.cwd as string | undefined,
    home: values.home as string | undefined,
    project: values.project as string[] | undefined,
    tool: values.tool as string | undefined,
  };
  for (const k of ['cwd', 'home', 'project'] as const) {
    const v = where[k];
    const bad = (Array.isArray(v) ? v : v === undefined ? [] : [v]).find((d) => !d.startsWith('/'));
    if (bad !== undefined) return `--${k} must be an absolute path, not '${bad}'`;
  }
  return where;
}

/**
 * `input` where `where` says (over the context it already has), the rest of its context as a
 * hook would see it, and the tool `--tool` names.
 */
export function placeInput(input: PolicyInput, where: Where, io: CliIO): PolicyInput {
  const given = { ...input.context };
  if (where.cwd !== undefined) given.cwd = where.cwd;
  if (where.home !== undefined) given.home = where.home;
  if (where.project !== undefined) given.project_roots = where.project;
  let out: PolicyInput = { ...input, context: given };
  out = { ...out, context: actionContext(out, { env: io.env, cwd: where.cwd ?? io.cwd }) };
  if (where.tool !== undefined) out = { ...out, tool: { ...out.tool, name: where.tool } };
  return out;
}

/** `input` with the operator's variables the policy reads (its `env_keys` and the bypass) from `io.env`, where it has none. */
export function withPolicyEnv(input: PolicyInput, envKeys: readonly string[], io: CliIO): PolicyInput {
  const env: Record<string, string> = { ...input.env };
  for (const k of [...envKeys, ...BYPASS_VARS]) {
    const v = io.env[k];
    if (v !== undefined && env[k] === undefined) env[k] = v;
  }
  return Object.keys(env).length > 0 ? { ...input, env } : input;
}
