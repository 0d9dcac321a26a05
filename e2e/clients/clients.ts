/**
 * The real harness clients the real-client tests run, pinned, installed from the npm registry
 * into a cache directory outside the source tree (`.cache/clients/` in the checkout, or
 * `BUCKLER_CLIENTS_CACHE`). Installing is the only step that needs the registry; each test then
 * runs offline against a fake model server on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

export interface Client {
  /** The npm package and the version the test was written against. */
  pkg: string;
  version: string;
  /** The executable it installs in node_modules/.bin. */
  bin: string;
  /** Where the executable is inside node_modules when the package declares no `bin`. */
  binPath?: string;
}

export const CLIENTS = {
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  'gemini-cli': { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  'copilot-cli': { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  'claude-code': { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  'qwen-code': { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  // `@factory/cli@0.225.1` (the wrapper) has no linux-x64 build of its own version on the
  // registry; its native package 0.225.2 is the Droid binary, and declares no `bin`.
  'factory-droid': { pkg: '@factory/cli-linux-x64', version: '0.225.2', bin: 'droid', binPath: '@factory/cli-linux-x64/bin/droid' },
  // Its bin is a copy of the platform binary (`opencode-linux-x64`, an optional dependency) that
  // the package's postinstall script puts in place.
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  // Kilo Code CLI: the wrapper `@kilocode/cli@7.8.1` has no linux-x64 build of its version on
  // the registry; 7.7.9 is the newest native build, and its package declares no `bin`.
  'kilo-code': { pkg: '@kilocode/cli-linux-x64', version: '7.7.9', bin: 'kilo', binPath: '@kilocode/cli-linux-x64/bin/kilo' },
} satisfies Record<string, Client>;

export type ClientName = keyof typeof CLIENTS;

export function cacheDir(): string {
  return process.env.BUCKLER_CLIENTS_CACHE || path.join(ROOT, '.cache', 'clients');
}

/** The client's executable, installed into the cache first when it is not there. */
export function ensureClient(name: ClientName): string {
  const c: Client = CLIENTS[name];
  const dir = path.join(cacheDir(), `${name}@${c.version}`);
  const bin = c.binPath === undefined ? path.join(dir, 'node_modules', '.bin', c.bin) : path.join(dir, 'node_modules', c.binPath);
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(dir, { recursive: true });
  // A private prefix with its own (empty) package.json, so npm never walks up into the checkout.
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', '--prefix', dir, `${c.pkg}@${c.version}`],
    { stdio: 'pipe', timeout: 600_000 },
  );
  if (!fs.existsSync(bin)) throw new Error(`${c.pkg}@${c.version} installed no ${c.bin}`);
  return bin;
}
