import { foundationEntities } from './entities';

/** Every entity schema of the server. Each domain module adds its own here. */
export const allEntities = [...foundationEntities];
