import { Foundation1763700000000 } from './1763700000000-foundation';

/** Every migration, in order. Listed explicitly so tsx, Vitest and bundles load the same set. */
export const migrations = [Foundation1763700000000];
