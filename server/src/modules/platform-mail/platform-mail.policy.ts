import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';

/** The platform's e-mail settings belong to the super administrator alone (every other profile of every tenant: 403). */
export function authorizePlatformMail(auth: AuthContext): void {
  requirePlatformSuperadmin(auth);
}
