import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Queues: every profile of the tenant lists them (ticket filters, transfers); supervisors and
 * admins manage them (spec section 2: "Queues" is in the supervisor menu).
 */
export const queuePolicy = catalogPolicy({ notFound: 'ERR_NO_QUEUE_FOUND', readers: ALL_PROFILES, writers: SUPERVISOR_PROFILES });
