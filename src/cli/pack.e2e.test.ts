/**
 * Signed pack bundles end to end, through the built CLI (dist/buckler.cjs) in a temporary home
 * with keys generated here: keygen → sign → install from a file and from a URL served on
 * 127.0.0.1 → the bundle's rules decide hooks → tampered, untrusted, wrong-format, downgraded
 * and colliding bundles refused with the installed state byte-for-byte unchanged → update from
 * the recorded URL → rollback → a person's [packs] switch and a key removed from trust → remove.
 * Steps run in order and share the home.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBundle, readPrivateKey } from '../packs/bundle.ts';
import { bucklerAsync, bundle, type Ran } from './e2e.testing.ts';

let root: string;
let env: Record<string, string>;
let server: http.Server;
let baseUrl: string;
/** What the test web server serves: URL path → bytes. */
const served = new Map<string, Buffer>();

const dirs = () => ({
  config: path.join(root, 'config'),
  data: path.join(root, 'data'),
  bundles: path.join(root, 'data', 'bundles'),
  team: path.join(root, 'team'),
  keys: path.join(root, 'keys'),
});

/** Async (not spawnSync): the web server in this process must answer while the CLI runs. */
function cli(...args: string[]): Promise<Ran> {
  return bucklerAsync(args, { env, cwd: root });
}

/** Runs one Claude Code PreToolUse hook for `command`; the decision it answers. */
async function hook(command: string): Promise<string> {
  const stdin = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, session_id: 's', cwd: root });
  const r = await bucklerAsync(['--driver', 'claude-code'], { env, cwd: root, stdin });
  expect(r.status).toBe(0);
  if (r.stdout.trim() === '') return 'none';
  const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return out.hookSpecificOutput?.permissionDecision ?? 'none';
}

/** Every file under the bundles directory with its bytes: "the installed state". */
function state(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dirs().bundles, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(dirs().bundles);
  return out;
}

const TERRAFORM_RULE = `
  - id: no-acmectl-destroy
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - program: acmectl
          subcommand: destroy
    action: deny
    agent_message: "Blocked by the platform team's policy ({rule})."
    examples:
      match: [acmectl destroy -auto-approve]
      no_match: [acmectl plan]
`;
const KUBECTL_RULE = `
  - id: no-acmekube-delete
    trigger: [pre_shell_exec, pre_shell_tool]
    match:
      shell_segments:
        - program: acmekube
          subcommand: delete
    action: deny
    examples:
      match: [acmekube delete ns prod]
      no_match: [acmekube get pods]
`;
const pack = (id: string, ...rules: string[]): string => `pack: ${id}\nversion: "1"\ndescription: test pack\nrules:${rules.join('')}`;

async function sign(version: string, text: string, key = 'team.key'): Promise<string> {
  fs.rmSync(dirs().team, { recursive: true, force: true });
  fs.mkdirSync(dirs().team, { recursive: true });
  fs.writeFileSync(path.join(dirs().team, 'platform.yaml'), text);
  const out = path.join(root, `acme-${version}-${key}.bundle`);
  const r = await cli('pack', 'sign', dirs().team, '--key', path.join(dirs().keys, key), '--name', 'acme', '--version', version, '--out', out);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toContain(`signed acme ${version}`);
  return out;
}

function trust(...keys: string[]): void {
  const lines = keys.map((k) => `  "${fs.readFileSync(path.join(dirs().keys, `${k}.pub`), 'utf8').trim()} ${k}",`);
  fs.writeFileSync(path.join(dirs().config, 'config.toml'), `[bundles]\ntrusted_keys = [\n${lines.join('\n')}\n]\n`);
}

async function expectRefused(file: string, reason: string, args: string[] = []): Promise<void> {
  const before = state();
  const r = await cli('pack', 'install', file, ...args);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`refused (${reason})`);
  expect(r.stderr).toContain('nothing changed');
  expect(state()).toEqual(before);
}

beforeAll(async () => {
  bundle();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-bundles-')));
  for (const d of Object.values(dirs())) fs.mkdirSync(d, { recursive: true });
  env = {
    PATH: process.env['PATH'] ?? '',
    HOME: path.join(root, 'home'),
    BUCKLER_CONFIG_HOME: dirs().config,
    BUCKLER_DATA_HOME: dirs().data,
    BUCKLER_STATE_HOME: path.join(root, 'state'),
  };
  server = http.createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

describe('buckler pack, end to end', () => {
  it('keygen writes a private key (0600) and the public key line', async () => {
    for (const k of ['team.key', 'other.key']) {
      const r = await cli('pack', 'keygen', '--out', path.join(dirs().keys, k));
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('trusted_keys = ["ed25519:');
      expect(fs.statSync(path.join(dirs().keys, k)).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(path.join(dirs().keys, `${k}.pub`), 'utf8')).toMatch(/^ed25519:[A-Za-z0-9_-]{43}\n$/);
    }
    // Never over an existing key.
    const again = await cli('pack', 'keygen', '--out', path.join(dirs().keys, 'team.key'));
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('not overwriting');
  });

  it('sign refuses packs with errors, and packs that take a builtin pack id', async () => {
    fs.mkdirSync(dirs().team, { recursive: true });
    fs.writeFileSync(path.join(dirs().team, 'platform.yaml'), pack('acme-platform', TERRAFORM_RULE.replace('acmectl destroy -auto-approve', 'acmectl plan -x')));
    const bad = await cli('pack', 'sign', dirs().team, '--key', path.join(dirs().keys, 'team.key'), '--name', 'acme', '--version', '1.0.0', '--out', path.join(root, 'x.bundle'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('not signed');
    fs.writeFileSync(path.join(dirs().team, 'platform.yaml'), pack('agent-git', TERRAFORM_RULE));
    const taken = await cli('pack', 'sign', dirs().team, '--key', path.join(dirs().keys, 'team.key'), '--name', 'acme', '--version', '1.0.0', '--out', path.join(root, 'x.bundle'));
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('builtin pack');
    expect(fs.existsSync(path.join(root, 'x.bundle'))).toBe(false);
  });

  it('install from a file: refused until the key is trusted, then its rules decide hooks', async () => {
    const v1 = await sign('1.0.0', pack('acme-platform', TERRAFORM_RULE));
    // Warm the packs cache first: the install must invalidate it.
    expect(await hook('acmectl destroy -auto-approve')).toBe('none');
    expect(await hook('acmectl destroy -auto-approve')).toBe('none');
    await expectRefused(v1, 'untrusted-key');
    trust('team.key');
    const r = await cli('pack', 'install', v1);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('installed bundle acme 1.0.0 (packs: acme-platform');
    expect(fs.existsSync(path.join(dirs().bundles, 'acme.bundle'))).toBe(true);
    expect(await hook('acmectl destroy -auto-approve')).toBe('deny');
    expect(await hook('acmectl plan')).toBe('none');
    // Builtin rules still apply beside the bundle's.
    expect(await hook('git push --force origin main')).toBe('deny');
  });

  it('install from a URL served on 127.0.0.1 keeps the version it replaces', async () => {
    const v11 = await sign('1.1.0', pack('acme-platform', TERRAFORM_RULE));
    served.set('/policy/acme.bundle', fs.readFileSync(v11));
    const url = `${baseUrl}/policy/acme.bundle`;
    const r = await cli('pack', 'install', url);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("1.0.0 kept for 'buckler pack rollback acme'");
    const list = await cli('pack', 'list', '--json');
    const listed = JSON.parse(list.stdout) as { packs: { id: string; source: string; state: string }[]; bundles: { name: string; version: string; status: string; source: string; previous: string; packs: { id: string }[] }[] };
    const [entry] = listed.bundles;
    // Every pack, with its source and state: the builtin ones and the bundle's.
    expect(listed.packs).toContainEqual(expect.objectContaining({ id: 'agent-git', source: 'builtin', state: 'on' }));
    expect(listed.packs).toContainEqual(expect.objectContaining({ id: 'acme-platform', source: 'bundle', state: 'on' }));
    expect(entry).toMatchObject({ name: 'acme', version: '1.1.0', status: 'loaded', source: url, previous: '1.0.0', packs: [{ id: 'acme-platform', enabled: true }] });
    expect(await hook('acmectl destroy')).toBe('deny');
    // A URL that fails changes nothing either.
    const before = state();
    const missing = await cli('pack', 'install', `${baseUrl}/nothing-here.bundle`);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('HTTP 404');
    expect(state()).toEqual(before);
  });

  it('refuses a tampered bundle, an untrusted key, a newer pack format, a downgrade and a pack id collision; nothing changes', async () => {
    const good = fs.readFileSync(await sign('1.5.0', pack('acme-platform', TERRAFORM_RULE)), 'utf8');
    // Content altered after signing: the rule turned from deny into allow.
    const altered = JSON.parse(good) as { files: Record<string, string>; manifest: string };
    altered.files['platform.yaml'] = altered.files['platform.yaml']!.replace('action: deny', 'action: allow');
    fs.writeFileSync(path.join(root, 'tampered.bundle'), JSON.stringify(altered));
    await expectRefused(path.join(root, 'tampered.bundle'), 'content-mismatch');
    // The manifest altered to match: the signature no longer does.
    const resigned = JSON.parse(good) as { manifest: string };
    resigned.manifest = resigned.manifest.replace('"1.5.0"', '"9.9.9"');
    fs.writeFileSync(path.join(root, 'badsig.bundle'), JSON.stringify(resigned));
    await expectRefused(path.join(root, 'badsig.bundle'), 'bad-signature');
    // Signed by a key this machine does not trust.
    await expectRefused(await sign('1.6.0', pack('acme-platform', TERRAFORM_RULE), 'other.key'), 'untrusted-key');
    // Signed by the trusted key, but for a pack format this Buckler does not read.
    const teamKey = readPrivateKey(fs.readFileSync(path.join(dirs().keys, 'team.key'), 'utf8'));
    const future = createBundle({ name: 'acme', version: '2.0.0', files: { 'platform.yaml': pack('acme-platform', TERRAFORM_RULE) }, privateKeys: [teamKey], packFormat: '2' });
    fs.writeFileSync(path.join(root, 'future.bundle'), future);
    await expectRefused(path.join(root, 'future.bundle'), 'pack-format');
    // Older than the installed 1.1.0.
    await expectRefused(path.join(root, 'acme-1.0.0-team.key.bundle'), 'downgrade');
    // Another bundle whose pack id is a builtin pack's, or the installed bundle's pack.
    for (const id of ['agent-git', 'acme-platform']) {
      const clash = createBundle({ name: 'other', version: '1.0.0', files: { 'p.yaml': pack(id, KUBECTL_RULE) }, privateKeys: [teamKey] });
      fs.writeFileSync(path.join(root, `clash-${id}.bundle`), clash);
      await expectRefused(path.join(root, `clash-${id}.bundle`), 'collision');
    }
    expect(await hook('acmectl destroy')).toBe('deny');
    const list = await cli('pack', 'list');
    expect(list.stdout).toMatch(/^acme 1\.1\.0 {2}loaded: acme-platform/m);
    expect(list.stdout).toMatch(/^ {2}agent-git +builtin +on/m);
    expect(list.stdout).toMatch(/^ {2}acme-platform +bundle +on/m);
    // --allow-downgrade: the older version is installed on purpose; then back to the URL's.
    const down = await cli('pack', 'install', path.join(root, 'acme-1.0.0-team.key.bundle'), '--allow-downgrade');
    expect(down.status).toBe(0);
    expect(down.stdout).toContain('installed bundle acme 1.0.0');
    const up = await cli('pack', 'install', `${baseUrl}/policy/acme.bundle`);
    expect(up.status).toBe(0);
    expect(up.stdout).toContain("installed bundle acme 1.1.0");
  });

  it('update re-fetches from the recorded URL; rollback returns to the version it replaced', async () => {
    const up = await cli('pack', 'update');
    expect(up.status).toBe(0);
    expect(up.stdout).toContain('acme 1.1.0 is already installed and up to date');

    served.set('/policy/acme.bundle', fs.readFileSync(await sign('1.2.0', pack('acme-platform', TERRAFORM_RULE, KUBECTL_RULE))));
    expect(await hook('acmekube delete ns prod')).toBe('none');
    const r = await cli('pack', 'update');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('installed bundle acme 1.2.0');
    expect(await hook('acmekube delete ns prod')).toBe('deny');

    // The source now serves something bad: update refuses it and keeps 1.2.0.
    served.set('/policy/acme.bundle', fs.readFileSync(path.join(root, 'tampered.bundle')));
    const before = state();
    const bad = await cli('pack', 'update', 'acme');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('acme: refused (content-mismatch)');
    expect(state()).toEqual(before);
    // ...or another team's bundle under the same URL.
    served.set('/policy/acme.bundle', fs.readFileSync(path.join(root, 'clash-acme-platform.bundle')));
    const other = await cli('pack', 'update', 'acme');
    expect(other.status).toBe(1);
    expect(other.stderr).toContain('acme: refused (name-mismatch): the bundle fetched is named "other", not "acme"');
    expect(state()).toEqual(before);

    const back = await cli('pack', 'rollback', 'acme');
    expect(back.stderr).toBe('');
    expect(back.status).toBe(0);
    expect(back.stdout).toContain('rolled back acme: 1.2.0 -> 1.1.0');
    expect(await hook('acmekube delete ns prod')).toBe('none');
    expect(await hook('acmectl destroy')).toBe('deny');
    const forth = await cli('pack', 'update', '--rollback', 'acme');
    expect(forth.status).toBe(0);
    expect(forth.stdout).toContain('rolled back acme: 1.1.0 -> 1.2.0');
    expect(await hook('acmekube delete ns prod')).toBe('deny');
  });

  it('validate and doctor show where each rule comes from', async () => {
    const v = await cli('validate', '--rules');
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/rule acme-platform\/no-acmekube-delete {2}deny {2}baseline {2}bundle acme 1\.2\.0 \(.*acme\.bundle\/platform\.yaml\)/);
    expect(v.stdout).toMatch(/rule agent-git\/\S+ {2}\w+ {2}\w+ {2}builtin/);
    const d = await cli('doctor');
    expect(d.stdout).toContain('pack acme-platform: 2 rules active, from bundle acme 1.2.0, signed by ed25519:');
  });

  it("a person's [packs] switch turns a bundle pack off, and doctor shows it", async () => {
    const config = path.join(dirs().config, 'config.toml');
    const trusted = fs.readFileSync(config, 'utf8');
    fs.writeFileSync(config, `${trusted}\n[packs]\nacme-platform = { enabled = false }\n`);
    expect(await hook('acmectl destroy')).toBe('none');
    const d = await cli('doctor');
    expect(d.stdout).toContain('pack acme-platform (bundle acme 1.2.0) is switched off in config.toml');
    fs.writeFileSync(config, trusted);
    expect(await hook('acmectl destroy')).toBe('deny');
  });

  it('a key removed from trust unloads its bundles, and doctor and list say so; a second trusted key (rotation) loads them again', async () => {
    trust('other.key');
    expect(await hook('acmectl destroy')).toBe('none');
    const d = await cli('doctor');
    expect(d.status).toBe(1);
    expect(d.stdout).toMatch(/bundle refused, not loaded: .*acme\.bundle: signed by no trusted key/);
    const list = await cli('pack', 'list');
    expect(list.stdout).toContain('acme 1.2.0  REFUSED (untrusted-key)');
    // Rotation: both keys trusted at once.
    trust('other.key', 'team.key');
    expect(await hook('acmectl destroy')).toBe('deny');
  });

  it('remove takes the bundle away entirely', async () => {
    const r = await cli('pack', 'remove', 'acme');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('removed bundle acme 1.2.0');
    expect(fs.existsSync(path.join(dirs().bundles, 'acme.bundle'))).toBe(false);
    expect(fs.existsSync(path.join(dirs().bundles, 'previous', 'acme.bundle'))).toBe(false);
    expect(await hook('acmectl destroy')).toBe('none');
    expect((await cli('pack', 'list')).stdout).toContain('no bundle installed');
    const again = await cli('pack', 'remove', 'acme');
    expect(again.status).toBe(1);
    const bad = await cli('pack', 'remove', '../x');
    expect(bad.status).toBe(2);
  });
});
