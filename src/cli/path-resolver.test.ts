import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathResolver, RESOLVE_MAX_PATHS } from './path-resolver.ts';

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-resolver-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const home = path.join(tmp, 'home');
const cfg = path.join(home, '.config', 'buckler');
fs.mkdirSync(path.join(cfg, 'rules.d'), { recursive: true });
fs.writeFileSync(path.join(cfg, 'config.toml'), 'x');
fs.writeFileSync(path.join(cfg, 'rules.d', 'team.yaml'), 'x');
const work = path.join(tmp, 'work');
fs.mkdirSync(work);
fs.symlinkSync(cfg, path.join(work, 'cfg'));
fs.symlinkSync(home, path.join(work, 'h'));
fs.linkSync(path.join(cfg, 'config.toml'), path.join(work, 'hard.toml'));
fs.linkSync(path.join(cfg, 'rules.d', 'team.yaml'), path.join(work, 'team.yaml'));
fs.writeFileSync(path.join(work, 'plain.txt'), 'x');
const LOCATIONS = { buckler_config: ['~/.config/buckler', '~/.config/buckler/**'] };

describe('pathResolver', () => {
  it.each<[string, boolean, string[]]>([
    // The longest existing prefix through a link, the rest appended.
    ['cfg/rules.d/new.yaml', true, [`${cfg}/rules.d/new.yaml`]],
    ['cfg/config.toml', true, [`${cfg}/config.toml`]],
    ['h/.cursor/hooks.json', true, [`${home}/.cursor/hooks.json`]],
    // Not followed: the link itself (`rm h`); its folder still is.
    ['h', false, []],
    ['cfg/config.toml', false, [`${cfg}/config.toml`]],
    // Hard links: the protected file sharing the inode, found in a location's folder too.
    ['hard.toml', true, [`${cfg}/config.toml`]],
    ['team.yaml', true, [`${cfg}/rules.d/team.yaml`]],
    // Nothing else: a plain file, a path that does not exist under a real folder.
    ['plain.txt', true, []],
    ['missing/a/b', true, []],
  ])('%s (follow %s)', (rel, follow, want) => {
    const resolve = pathResolver(LOCATIONS, home);
    expect(resolve(path.join(work, rel), follow)).toEqual(want);
  });

  it('resolves at most RESOLVE_MAX_PATHS paths per event, then judges by name', () => {
    const resolve = pathResolver(LOCATIONS, home);
    for (let i = 0; i < RESOLVE_MAX_PATHS; i++) resolve(path.join(work, 'plain.txt'), true);
    expect(resolve(path.join(work, 'cfg/config.toml'), true)).toEqual([]);
    expect(pathResolver(LOCATIONS, home)(path.join(work, 'cfg/config.toml'), true)).toEqual([`${cfg}/config.toml`]);
  });
});
