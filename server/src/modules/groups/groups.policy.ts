import type { AuthContext } from '../../core/auth-context';
import { assertSameTenant, requireProfile } from '../../core/policy';

/**
 * Who may manage WhatsApp groups (/grupo/*, issue #16): every profile of the tenant, as the
 * spec's menu has groups in the main section "for all". The rule that matters is "same tenant":
 * another tenant's channel, group, rule or operation is not found, never forbidden.
 */
export function authorizeGroups(auth: AuthContext): void {
  requireProfile(auth, ['user', 'super', 'admin', 'superadmin']);
}

/** Right after loading a tenant-owned group row (group, rule, operation). */
export function authorizeGroupRow<T extends { tenantId: number }>(auth: AuthContext, row: T | null | undefined): T {
  const found = assertSameTenant(auth, row, 'ERR_NOT_FOUND');
  authorizeGroups(auth);
  return found;
}
