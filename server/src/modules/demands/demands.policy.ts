import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/** Demands (motivos): every profile lists them (closing a ticket asks for one); supervisors and admins manage them. */
export const demandPolicy = catalogPolicy({
  notFound: 'ERR_NO_DEMAND_FOUND',
  readers: ALL_PROFILES,
  writers: SUPERVISOR_PROFILES,
});
