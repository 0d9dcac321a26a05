/**
 * Named locations for the action context (`context.locations`): computed by src/paths.ts (the
 * one resolver) from each harness's record (src/harnesses/). Re-exported here for the CLI.
 */
export { namedLocations, type LocationName } from '../paths.ts';
