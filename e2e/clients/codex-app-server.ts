/**
 * Asks a real `codex app-server` (stdio, one JSON object per line) what it knows about the hooks
 * it would run: `initialize`, `initialized`, then `hooks/list` for one working directory. The
 * answer carries each hook's trust key, `currentHash` and `trustStatus`, so a test can compare
 * Buckler's own computation with Codex's.
 */
import { spawn } from 'node:child_process';

export interface ListedHook {
  key: string;
  eventName: string;
  command: string;
  matcher: string | null;
  sourcePath: string;
  currentHash: string;
  trustStatus: 'untrusted' | 'trusted' | 'modified' | 'managed';
  enabled: boolean;
}

export function listHooks(bin: string, cwd: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ListedHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let buf = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`codex app-server gave no hooks/list answer in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    const send = (msg: unknown): void => void child.stdin.write(`${JSON.stringify(msg)}\n`);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let msg: { id?: number; result?: { data?: { hooks: ListedHook[] }[] }; error?: unknown };
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.id === 1) {
          send({ method: 'initialized' });
          send({ id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (msg.id === 2) {
          clearTimeout(timer);
          child.stdin.end();
          child.kill();
          if (msg.error !== undefined || msg.result?.data === undefined) reject(new Error(`hooks/list failed: ${line}`));
          else resolve(msg.result.data.flatMap((d) => d.hooks));
        }
      }
    });
    child.on('error', reject);
    send({
      id: 1,
      method: 'initialize',
      params: { clientInfo: { name: 'buckler-test', title: null, version: '0.0.1' }, capabilities: { experimentalApi: true, requestAttestation: false } },
    });
  });
}
