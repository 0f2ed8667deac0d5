import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { ALL_PROFILES, catalogPolicy } from '../../core/catalog-policy';
import { SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';

/**
 * Chatbot flows (spec section 2: "chatbot" is in the supervisor's menu): supervisors and admins
 * read, manage and test the tenant's flows. Every profile may read the list of active flows only
 * (names, for the transfer dialog's select), never a definition. Same tenant first: another
 * tenant's flow is not found.
 */
export const chatFlowPolicy = catalogPolicy({ notFound: 'ERR_NO_CHATFLOW_FOUND', readers: SUPERVISOR_PROFILES, writers: SUPERVISOR_PROFILES });

export const ACTIVE_FLOW_READERS = ALL_PROFILES;

/** The flow test (engine): supervisors and admins; agents may not. */
export function authorizeChatflowTest<T extends { tenantId: number }>(auth: AuthContext, flow: T | null | undefined): T {
  const row = assertSameTenant(auth, flow, 'ERR_NO_CHATFLOW_FOUND');
  requireProfile(auth, SUPERVISOR_PROFILES);
  return row;
}

export const chatflowNotFound = () => new AppError('ERR_NO_CHATFLOW_FOUND');
