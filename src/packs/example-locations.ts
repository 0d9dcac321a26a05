/**
 * The named locations (`context.locations`) rule examples stand in: what the CLI computes for
 * the fake home /home/dev on Linux with no BUCKLER_*, XDG_* or harness variables set, from the
 * one resolver and the harness records. src/cli/locations.test.ts pins the list.
 */
import { namedLocations } from '../paths.ts';

export const EXAMPLE_LOCATIONS: Readonly<Record<string, string[]>> = namedLocations({ env: {}, platform: 'linux', home: '/home/dev' });
