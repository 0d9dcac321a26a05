/**
 * The named locations (`context.locations`) rule examples stand in: what the CLI computes for
 * the fake home /home/dev on Linux with no BUCKLER_*, XDG_* or harness variables set, from the
 * one resolver and the harness records. src/cli/locations.test.ts pins the list.
 *
 * Made on first use, not at load: this module is on the hook's path (through the pack compiler),
 * and a warm hook, which runs no rule example, would pay for the list (about 60 KB of its young
 * generation, docs/performance.md).
 */
import { namedLocations } from '../paths.ts';

let made: Readonly<Record<string, string[]>> | undefined;

export function exampleLocations(): Readonly<Record<string, string[]>> {
  return (made ??= namedLocations({ env: {}, platform: 'linux', home: '/home/dev' }));
}
