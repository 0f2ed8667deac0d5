import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Teams: every profile lists them (the private chat has a teams tab for everyone, spec
 * section 2); supervisors and admins manage them ("Teams" is in the supervisor menu).
 */
export const teamPolicy = catalogPolicy({ notFound: 'ERR_NO_TEAM_FOUND', readers: ALL_PROFILES, writers: SUPERVISOR_PROFILES });
