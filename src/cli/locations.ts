/**
 * Named locations for the action context (`context.locations`, docs/packs.md "Named
 * locations"): where Buckler's own directories and each harness's settings, credentials and trust
 * stores are for this user. Packs are data and cannot know them; the pure core matches them by
 * name (`paths: { location: [harness_settings] }`). Built from src/paths.ts (the one resolver)
 * and the installers' data (src/installers/protected-files.ts), so a harness added there is
 * protected by the packs that name these locations.
 *
 * Each entry is a path pattern in the syntax of a rule's `glob`: absolute, or a relative pattern
 * matched anywhere (a project-level file such as `.claude/settings.json`, in any project). A
 * directory is given as itself and `DIR/**` (what is inside it).
 */
import { HARNESS_FILES, type HarnessFile } from '../installers/protected-files.ts';
import { harnessHomeDir, harnessManagedFile, joinFor, resolvePaths, type InstallableHarness, type PathContext } from '../paths.ts';

export type LocationName = 'buckler_config' | 'buckler_state' | 'buckler_data' | 'harness_settings' | 'harness_credentials' | 'harness_trust';

export function namedLocations(ctx: PathContext): Record<LocationName, string[]> {
  const p = resolvePaths(ctx);
  const dir = (d: string): string[] => [d, joinFor(ctx.platform, d, '**')];
  const harness = (kind: 'settings' | 'credentials' | 'trust'): string[] => {
    const out: string[] = [];
    for (const name of Object.keys(HARNESS_FILES) as InstallableHarness[]) {
      for (const f of HARNESS_FILES[name][kind]) {
        const path = harnessFile(name, f, ctx);
        if (path !== null && !out.includes(path)) out.push(path);
      }
    }
    return out;
  };
  return {
    buckler_config: dir(p.configHome),
    buckler_state: dir(p.stateHome),
    // The installed copy: versions, the `current` pointer, signed pack bundles, and the launcher.
    buckler_data: [...dir(p.dataHome), p.launcher],
    harness_settings: harness('settings'),
    harness_credentials: harness('credentials'),
    harness_trust: harness('trust'),
  };
}

function harnessFile(name: InstallableHarness, f: HarnessFile, ctx: PathContext): string | null {
  switch (f.base) {
    case 'home':
      return joinFor(ctx.platform, ctx.home, f.path);
    case 'harness_home':
      return joinFor(ctx.platform, harnessHomeDir(name, ctx), f.path);
    case 'project':
      return f.path;
    case 'managed':
      return harnessManagedFile(name, ctx);
    case 'system':
      return f.platform === ctx.platform ? f.path : null;
  }
}
