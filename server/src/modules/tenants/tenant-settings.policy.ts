import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';
import { SUPERVISOR_PROFILES, requireProfile } from '../../core/policy';

export type TenantSettingsAction =
  'readBusinessHours' | 'updateBusinessHours' | 'readRating' | 'updateRating' | 'readSystemColors' | 'updateSystemColors';

/**
 * Who may read or change tenant settings. The tenant is always the caller's own (the services
 * never take a tenant id from the request), so the rules here are about profiles only:
 * - any signed-in user reads their tenant's hours, rating settings and the platform colours;
 * - supervisors and admins change business hours, the absence message and rating settings
 *   (spec section 2: the supervisor menu has "business hours" and "evaluations");
 * - only the super administrator changes the platform's white-label colours (section 6).
 */
export function authorizeTenantSettings(auth: AuthContext, action: TenantSettingsAction): void {
  switch (action) {
    case 'readBusinessHours':
    case 'readRating':
    case 'readSystemColors':
      return;
    case 'updateBusinessHours':
    case 'updateRating':
      requireProfile(auth, SUPERVISOR_PROFILES);
      return;
    case 'updateSystemColors':
      requirePlatformSuperadmin(auth);
      return;
  }
}
