import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';

export type BrandingAction = 'update';

/**
 * White-label branding is platform-wide: only the super administrator (superadmin profile of
 * tenant 1) changes it (spec section 6 "customise"). Anyone, signed in or not, reads it.
 */
export function authorizeBranding(auth: AuthContext, action: BrandingAction): void {
  switch (action) {
    case 'update':
      requirePlatformSuperadmin(auth);
      return;
  }
}
