import { AppError } from './app-error';
import type { AuthContext } from './auth-context';

/** Tenant 1 is the platform itself: it holds the super administrator and the global settings. */
export const PLATFORM_TENANT_ID = 1;

/**
 * The super administrator is the superadmin profile in the platform tenant. Checking the tenant
 * too means a `superadmin` profile that ever lands in a customer tenant (a bad import, a bug in
 * user editing) still gets no platform-wide power (LESSONS item 6).
 */
export const isPlatformSuperadmin = (auth: Pick<AuthContext, 'tenantId' | 'profile'>): boolean =>
  auth.profile === 'superadmin' && auth.tenantId === PLATFORM_TENANT_ID;

export function requirePlatformSuperadmin(auth: Pick<AuthContext, 'tenantId' | 'profile'>): void {
  if (!isPlatformSuperadmin(auth)) throw new AppError('ERR_NO_PERMISSION');
}
