/**
 * GitLab CI (`.gitlab-ci.yml`): every job's `before_script`, `script` and `after_script` lines
 * (and `default:`'s, and the old top-level ones), with the path to each in the document. A
 * pure reader over the parsed YAML. A script is a string or a list of strings; nested lists
 * (from `!reference` or anchors) are flattened. Each line runs in the job's shell.
 */
import type { YamlScript } from './github-actions.ts';

/** The keys whose lines a job runs. */
export const GITLAB_SCRIPT_KEYS: readonly string[] = ['before_script', 'script', 'after_script'];

/** Top-level keywords that are not jobs (`default:` is read: its scripts run in every job). */
export const GITLAB_GLOBAL_KEYWORDS: readonly string[] = ['stages', 'variables', 'include', 'workflow', 'image', 'services', 'cache', 'spec'];

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function gitlabScripts(doc: unknown): YamlScript[] {
  const out: YamlScript[] = [];
  if (!isObject(doc)) return out;
  const lines = (value: unknown, path: Array<string | number>, label: string): void => {
    if (typeof value === 'string') out.push({ path, text: value, label });
    else if (Array.isArray(value)) value.forEach((v, i) => lines(v, [...path, i], label));
  };
  for (const key of GITLAB_SCRIPT_KEYS) lines(doc[key], [key], `top-level ${key}`);
  for (const [name, job] of Object.entries(doc)) {
    if (!isObject(job) || GITLAB_GLOBAL_KEYWORDS.includes(name)) continue;
    for (const key of GITLAB_SCRIPT_KEYS) lines(job[key], [name, key], `${name === 'default' ? 'default' : `job ${name}`} ${key}`);
  }
  return out;
}
