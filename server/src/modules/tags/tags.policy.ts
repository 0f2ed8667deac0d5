import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/** Tags: every profile lists them (contact and ticket filters); supervisors and admins manage them. */
export const tagPolicy = catalogPolicy({ notFound: 'ERR_NO_TAG_FOUND', readers: ALL_PROFILES, writers: SUPERVISOR_PROFILES });
