import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';

/** Pending sign-ups and the sign-up switch are the super administrator's (every other profile of every tenant: 403). */
export function authorizeSignupAdministration(auth: AuthContext): void {
  requirePlatformSuperadmin(auth);
}
