/**
 * GitHub Actions workflows (`.github/workflows/*.yml`): each step's `run:` text, with the path
 * to it in the document. A pure reader over the parsed YAML (the caller parses it and maps paths
 * to lines). A step runs in bash unless its `shell:` (or the job's or the workflow's
 * `defaults.run.shell`) names another interpreter, or the job runs on Windows without one
 * (PowerShell there): those steps are not shell text and are left out.
 */
import { SHELL_INTERPRETERS } from './shell-script.ts';

/** A script found in a YAML document: its text and the path of the node that holds it. */
export interface YamlScript {
  path: Array<string | number>;
  text: string;
  label: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shell `defaults.run.shell` of a workflow or job names, if any. */
function defaultShell(node: unknown): string | undefined {
  if (!isObject(node) || !isObject(node['defaults']) || !isObject(node['defaults']['run'])) return undefined;
  const s = node['defaults']['run']['shell'];
  return typeof s === 'string' ? s : undefined;
}

/** Whether a `shell:` value runs the text in a POSIX shell (`bash`, `sh`, `bash -e {0}`). */
export function isShellSetting(shell: string): boolean {
  const prog = shell.trim().split(/\s+/)[0] ?? '';
  return SHELL_INTERPRETERS.includes(prog.slice(prog.lastIndexOf('/') + 1));
}

export function workflowRuns(doc: unknown): YamlScript[] {
  const out: YamlScript[] = [];
  if (!isObject(doc) || !isObject(doc['jobs'])) return out;
  const top = defaultShell(doc);
  for (const [id, job] of Object.entries(doc['jobs'])) {
    if (!isObject(job) || !Array.isArray(job['steps'])) continue;
    const jobShell = defaultShell(job) ?? top;
    const runsOn = JSON.stringify(job['runs-on'] ?? '').toLowerCase();
    (job['steps'] as unknown[]).forEach((step, n) => {
      if (!isObject(step) || typeof step['run'] !== 'string') return;
      const shell = typeof step['shell'] === 'string' ? step['shell'] : jobShell;
      if (shell === undefined ? runsOn.includes('windows') : !isShellSetting(shell)) return;
      const name = typeof step['name'] === 'string' ? `job ${id}, step "${step['name']}"` : `job ${id}, step ${n + 1}`;
      out.push({ path: ['jobs', id, 'steps', n, 'run'], text: step['run'], label: name });
    });
  }
  return out;
}
