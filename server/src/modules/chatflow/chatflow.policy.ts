import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';

/**
 * Chatbot flows are in the supervisor menu (spec section 2): supervisors and admins run a flow
 * test; agents may not. Same tenant first: another tenant's flow is not found.
 */
export function authorizeChatflowTest<T extends { tenantId: number }>(auth: AuthContext, flow: T | null | undefined): T {
  const row = assertSameTenant(auth, flow, 'ERR_NO_CHATFLOW_FOUND');
  requireProfile(auth, SUPERVISOR_PROFILES);
  return row;
}

export const chatflowNotFound = () => new AppError('ERR_NO_CHATFLOW_FOUND');
