import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';
import { ADMIN_PROFILES, requireProfile } from '../../core/policy';

/**
 * Payments: the provider's configuration, charges for tenants and the list of every tenant's
 * charges belong to the super administrator (superadmin of the platform tenant, spec section 6).
 * A tenant's own charges and subscription are its administrators' (the /assinatura screen).
 */
export type PaymentsAction = 'manage' | 'readOwn';

export function authorizePayments(auth: AuthContext, action: PaymentsAction): void {
  if (action === 'manage') requirePlatformSuperadmin(auth);
  else requireProfile(auth, ADMIN_PROFILES);
}
