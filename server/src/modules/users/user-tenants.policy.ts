import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { isPlatformSuperadmin, requirePlatformSuperadmin } from '../../core/platform';
import { ADMIN_PROFILES, requireProfile } from '../../core/policy';

/**
 * User-tenant links (spec section 3, "UserTenant").
 * - Reading: an admin sees the links of their own tenant only (a tenantId naming another tenant
 *   finds nothing); the platform super administrator sees any tenant's.
 * - Writing (linking a user to another tenant, moving or removing a link) is a platform
 *   operation: the platform super administrator only. A `superadmin` profile outside the
 *   platform tenant is an ordinary admin here (LESSONS item 6).
 */
export function userTenantListScope(
  auth: AuthContext,
  requestedTenantId: number | undefined,
): { tenantId?: number; empty: boolean } {
  requireProfile(auth, ADMIN_PROFILES);
  if (isPlatformSuperadmin(auth)) return { tenantId: requestedTenantId, empty: false };
  return { tenantId: auth.tenantId, empty: requestedTenantId !== undefined && requestedTenantId !== auth.tenantId };
}

export function authorizeUserTenantWrite(auth: AuthContext): void {
  requirePlatformSuperadmin(auth);
}

/** The link of a user to their own tenant is what makes them a user at all: never moved or removed. */
export function assertNotHomeLink(link: { tenantId: number; homeTenantId: number }): void {
  if (link.tenantId === link.homeTenantId) throw new AppError('ERR_USER_TENANT_HOME');
}
