import { catalogPolicy } from '../../core/catalog-policy';
import { ADMIN_PROFILES, SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Channels (connections): supervisors and admins see them (connection status, templates);
 * only admins create, configure, delete, choose the default and start or end sessions, since
 * those hold the provider credentials and the plan's connection limit.
 */
export const channelPolicy = catalogPolicy({
  notFound: 'ERR_NO_WAPP_FOUND',
  readers: SUPERVISOR_PROFILES,
  writers: ADMIN_PROFILES,
});
