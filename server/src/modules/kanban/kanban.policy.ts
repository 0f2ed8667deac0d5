import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Kanban columns: every profile sees the board (kanban is in everyone's main menu, spec
 * section 2); supervisors and admins add, rename, reorder and remove columns.
 */
export const kanbanPolicy = catalogPolicy({
  notFound: 'ERR_NO_KANBAN_FOUND',
  readers: ALL_PROFILES,
  writers: SUPERVISOR_PROFILES,
});

/** Lanes: the same rule as the kanban columns. */
export const lanePolicy = catalogPolicy({ notFound: 'ERR_NO_LANE_FOUND', readers: ALL_PROFILES, writers: SUPERVISOR_PROFILES });
