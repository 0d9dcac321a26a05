import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { commandFor, defaultLaunchPrefix, stableBundlePath } from './launch.ts';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'buckler-launch-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function installed(version: string): string {
  const bundle = path.join(dir, 'versions', version, 'dist', 'buckler.cjs');
  fs.mkdirSync(path.dirname(bundle), { recursive: true });
  fs.writeFileSync(bundle, '');
  return bundle;
}

describe('stableBundlePath', () => {
  const ctx = (bundle: string) => ({
    execPath: '/usr/bin/node',
    bundle,
    versionsDir: path.join(dir, 'versions'),
    current: path.join(dir, 'current'),
    platform: 'linux' as const,
  });

  it('goes through `current` when current is the running version', () => {
    const bundle = installed('1.2.0');
    fs.symlinkSync('versions/1.2.0', path.join(dir, 'current'));
    expect(stableBundlePath(ctx(bundle))).toBe(path.join(dir, 'current', 'dist', 'buckler.cjs'));
    expect(defaultLaunchPrefix(ctx(bundle))).toBe(`'/usr/bin/node' '${path.join(dir, 'current', 'dist', 'buckler.cjs')}'`);
  });

  it('keeps the version path when current points at another version', () => {
    const old = installed('1.1.0');
    installed('1.2.0');
    fs.symlinkSync('versions/1.2.0', path.join(dir, 'current'));
    expect(stableBundlePath(ctx(old))).toBe(old);
  });

  it('keeps the bundle path outside an installed version (a checkout, npm -g)', () => {
    const bundle = path.join(dir, 'checkout', 'dist', 'buckler.cjs');
    fs.mkdirSync(path.dirname(bundle), { recursive: true });
    fs.writeFileSync(bundle, '');
    expect(stableBundlePath(ctx(bundle))).toBe(bundle);
  });
});

describe('commandFor', () => {
  it('appends the driver', () => {
    expect(commandFor("'/home/me/.local/bin/buckler'", 'claude-code')).toBe("'/home/me/.local/bin/buckler' --driver claude-code");
  });

  it.each(['/usr/local/bin/my-gate', "'/x/buckler' --driver cursor", 'buckler | tee', ''])('refuses %j', (prefix) => {
    expect(() => commandFor(prefix, 'cursor')).toThrow(expect.objectContaining({ code: 'usage' }));
  });
});
