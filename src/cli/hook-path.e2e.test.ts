/**
 * The hook path, as users run it (the built bundle, spawned): with a warm compiled-pack cache it
 * loads neither the YAML nor the TOML parser; with a cold cache it does (which shows the tracer
 * sees them), and then warms the cache for the next call. Each case starts from its own empty
 * state directory and warms it itself when it needs a warm cache: cases run alone or in any order.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBundle, generateKeys, readPrivateKey } from '../packs/bundle.ts';
import { BUILTIN_TEXTS_ID } from '../grammars/builtin-texts.ts';
import { bundle, hook as runHook } from './e2e.testing.ts';

let shared: string;
let root: string;
let tracer: string;

beforeAll(() => {
  bundle();
  shared = fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-hookpath-'));
  tracer = path.join(shared, 'trace.cjs');
  // Records every module name require()d, including node_modules packages the bundle leaves external.
  fs.writeFileSync(
    tracer,
    `const Module = require('module');
const seen = new Set();
const load = Module._load;
Module._load = function (request, ...rest) { seen.add(request); return load.call(this, request, ...rest); };
process.on('exit', () => require('fs').writeFileSync(process.env.TRACE_OUT, JSON.stringify([...seen])));
`,
  );
});
afterAll(() => fs.rmSync(shared, { recursive: true, force: true }));

// A home of its own for each case: config, rules and a cold (empty) state directory.
beforeEach(() => {
  root = fs.mkdtempSync(path.join(shared, 'case-'));
  fs.mkdirSync(path.join(root, 'config', 'rules.d'), { recursive: true });
  fs.writeFileSync(path.join(root, 'config', 'config.toml'), '[core]\ntier = "baseline"\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function hook(payload: object): { stdout: string; loaded: string[] } {
  const out = path.join(root, `trace-${Math.random().toString(36).slice(2)}.json`);
  // No BUCKLER_DATA_HOME: an installed bundle is found where a person's would be (~/.local/share).
  const env = { PATH: process.env['PATH'] ?? '', HOME: root, BUCKLER_CONFIG_HOME: path.join(root, 'config'), BUCKLER_STATE_HOME: path.join(root, 'state'), TRACE_OUT: out };
  const r = runHook('cursor', payload, { node: ['-r', tracer], env });
  expect(r.status).toBe(0);
  return { stdout: r.stdout, loaded: JSON.parse(fs.readFileSync(out, 'utf8')) as string[] };
}

const deny = { hook_event_name: 'beforeShellExecution', command: 'git push --force origin main', cwd: '/tmp', conversation_id: 'c', workspace_roots: ['/tmp'] };
const allow = { ...deny, command: 'ls -la' };

describe('hook path and the compiled-pack cache', () => {
  it('the hook bundle carries the builtin program data as texts made at build time, equal to the sources', () => {
    // scripts/build.mjs evaluates src/grammars/builtin-texts.ts: its id in dist/main.cjs is the one computed here.
    const main = fs.readFileSync(path.join(path.dirname(bundle()), 'main.cjs'), 'utf8');
    expect(main).toContain(`"${BUILTIN_TEXTS_ID}"`);
  });
  it('cold: compiles with the YAML and TOML parsers, and answers', () => {
    expect(fs.existsSync(path.join(root, 'state'))).toBe(false);
    const cold = hook(deny);
    expect(JSON.parse(cold.stdout)).toMatchObject({ permission: 'deny' });
    expect(cold.loaded).toContain('js-yaml');
    expect(cold.loaded).toContain('smol-toml');
    expect(fs.existsSync(path.join(root, 'state', 'cache', 'policy-config.json'))).toBe(true);
  });

  it.each([
    ['deny', deny],
    ['allow', allow],
  ])('warm (%s): neither parser is loaded, same answer', (what, payload) => {
    expect(hook(deny).loaded).toContain('js-yaml'); // this case's own cold call warms the cache
    const warm = hook(payload);
    expect(warm.loaded).not.toContain('js-yaml');
    expect(warm.loaded).not.toContain('smol-toml');
    if (what === 'deny') expect(JSON.parse(warm.stdout)).toMatchObject({ permission: 'deny' });
    else expect(warm.stdout.trim()).toBe('{}');
  });

  it('warm file-read and MCP events load nothing a warm shell event does not', () => {
    hook(allow);
    const shell = new Set(hook(allow).loaded);
    const read = { hook_event_name: 'beforeReadFile', file_path: '/tmp/a.ts', content: 'x', conversation_id: 'c', workspace_roots: ['/tmp'] };
    const mcp = { hook_event_name: 'beforeMCPExecution', tool_name: 'q', tool_input: '{}', mcp_server_name: 's', conversation_id: 'c', workspace_roots: ['/tmp'] };
    for (const payload of [read, mcp]) {
      const r = hook(payload);
      expect(r.stdout.trim()).toBe('{}');
      expect(r.loaded.filter((m) => !shell.has(m))).toEqual([]);
    }
  });

  it('a user pack added after warming is seen (and recompiled) at once', () => {
    hook(allow);
    expect(hook(allow).loaded).not.toContain('js-yaml');
    fs.writeFileSync(
      path.join(root, 'config', 'rules.d', 'no-ls.yaml'),
      `pack: no-ls
version: "1"
rules:
  - id: no-ls
    trigger: [pre_shell_exec]
    match: { shell_segments: [ { program: ls } ] }
    action: deny
    user_message: "ls is off"
    agent_message: "ls is off"
`,
    );
    const r = hook(allow);
    expect(r.loaded).toContain('js-yaml');
    expect(JSON.parse(r.stdout)).toMatchObject({ permission: 'deny', user_message: expect.stringContaining('ls is off') });
    expect(hook(allow).loaded).not.toContain('js-yaml');
  });

  it('with a signed pack bundle installed: verified (node:crypto) only when compiling; a warm hook loads neither crypto nor a parser', () => {
    const keys = generateKeys();
    fs.appendFileSync(path.join(root, 'config', 'config.toml'), `[bundles]\ntrusted_keys = ["${keys.publicKey}"]\n`);
    const bundles = path.join(root, '.local', 'share', 'buckler', 'bundles');
    fs.mkdirSync(bundles, { recursive: true });
    const pack = 'pack: team\nversion: "1"\nrules:\n  - id: no-ls\n    trigger: [pre_shell_exec]\n    match: { shell_segments: [ { program: ls } ] }\n    action: deny\n';
    fs.writeFileSync(path.join(bundles, 'team.bundle'), createBundle({ name: 'team', version: '1.0.0', files: { 'team.yaml': pack }, privateKeys: [readPrivateKey(keys.privatePem)] }));
    const cold = hook(allow);
    expect(cold.loaded).toContain('node:crypto');
    expect(JSON.parse(cold.stdout)).toMatchObject({ permission: 'deny' });
    const warm = hook(allow);
    expect(JSON.parse(warm.stdout)).toMatchObject({ permission: 'deny' });
    for (const m of ['node:crypto', 'crypto', 'js-yaml', 'smol-toml']) expect(warm.loaded).not.toContain(m);
  });

  it('reads a local script the command runs (bash ./x.sh), and a FIFO in its place never blocks', () => {
    const dir = fs.mkdtempSync(path.join(root, 'work-'));
    fs.writeFileSync(path.join(dir, 'deploy.sh'), 'echo building\ngit push --force origin main\n');
    const run = (command: string) => hook({ ...allow, command, cwd: dir }).stdout;
    expect(JSON.parse(run('bash ./deploy.sh'))).toMatchObject({ permission: 'deny' });
    expect(JSON.parse(run('sh deploy.sh'))).toMatchObject({ permission: 'deny' });
    spawnSync('mkfifo', [path.join(dir, 'fifo.sh')]);
    // Never blocks, and a script Buckler could not read asks, naming it (issue 21, route 8).
    expect(JSON.parse(run('bash ./fifo.sh'))).toMatchObject({ permission: 'ask' });
  });
});
