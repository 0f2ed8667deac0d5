import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES } from '../../core/policy';

/**
 * Chatbot flows (spec section 2: "chatbot" is in the supervisor's menu): supervisors and admins
 * read and manage the tenant's flows. Every profile may read the list of active flows only
 * (names, for the transfer dialog's select), never a definition.
 */
export const chatFlowPolicy = catalogPolicy({
  notFound: 'ERR_NO_CHATFLOW_FOUND',
  readers: SUPERVISOR_PROFILES,
  writers: SUPERVISOR_PROFILES,
});

export const ACTIVE_FLOW_READERS = ALL_PROFILES;
