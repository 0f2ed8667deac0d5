import type { AuthContext } from '../../core/auth-context';
import { SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';
import type { ErrorCode } from '@shared/errors';

/**
 * Auto-replies (/auto-resposta): supervisors and admins read and manage them (spec section 2:
 * the chatbot is in the supervisor menu). A row of another tenant is "not found" before any
 * profile rule, so nothing leaks.
 */
export function authorizeAutoReplies(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}

export function authorizeAutoReplyRow<T extends { tenantId: number }>(
  auth: AuthContext,
  row: T | null | undefined,
  notFound: ErrorCode,
): T {
  const target = assertSameTenant(auth, row, notFound);
  requireProfile(auth, SUPERVISOR_PROFILES);
  return target;
}
