import { ALL_PROFILES } from '../../core/catalog-policy';
import type { AuthContext } from '../../core/auth-context';
import { ADMIN_PROFILES, requireProfile } from '../../core/policy';

export type SettingsAction = 'read' | 'update';

/**
 * Tenant settings: every profile reads them (clients keep them as `configuracoes` and apply
 * visibility and signature rules); only admins change them (spec section 6: "Admin only:
 * settings"). Queries always start from the caller's tenant, so there is no foreign row to hide.
 */
export function authorizeSettings(auth: AuthContext, action: SettingsAction): void {
  requireProfile(auth, action === 'read' ? ALL_PROFILES : ADMIN_PROFILES);
}
