import { describe, expect, it } from 'vitest';
import { EXAMPLE_LOCATIONS } from '../packs/example-locations.ts';
import { namedLocations } from './locations.ts';

describe('namedLocations', () => {
  it('rule examples stand in the locations the CLI computes for the fake home /home/dev', () => {
    expect(namedLocations({ env: {}, platform: 'linux', home: '/home/dev' })).toEqual(EXAMPLE_LOCATIONS);
  });
});
