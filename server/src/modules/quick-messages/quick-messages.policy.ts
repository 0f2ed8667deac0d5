import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Quick messages: every profile lists and downloads them (agents send them from the chat);
 * supervisors and admins manage them ("Quick messages" is in the supervisor menu).
 */
export const quickMessagePolicy = catalogPolicy({
  notFound: 'ERR_NO_FAST_REPLY_FOUND',
  readers: ALL_PROFILES,
  writers: SUPERVISOR_PROFILES,
});
