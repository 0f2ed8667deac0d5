import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { isPlatformSuperadmin } from '../../core/platform';
import { ADMIN_PROFILES, SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';
import type { User } from '../../db/entities';

export type UserAction = 'read' | 'updateConfigs' | 'updateOnlineStatus';

/**
 * Who may do what to one user row, checked right after it is loaded.
 * - Another tenant's user is "not found" (nothing leaks), except that the super administrator
 *   may read any user. Writes stay inside the caller's tenant for everyone.
 * - Anyone may read and change their own row.
 * - Reading someone else: supervisors and admins of the tenant (spec section 6: non-users
 *   refresh profiles every 30 s). Changing someone else's configs or online flag: admins only.
 */
export function authorizeUser(auth: AuthContext, action: UserAction, user: User | null): User {
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  if (action === 'read' && isPlatformSuperadmin(auth)) return user;
  const target = assertSameTenant(auth, user, 'ERR_NO_USER_FOUND');
  if (target.id === auth.userId) return target;
  requireProfile(auth, action === 'read' ? SUPERVISOR_PROFILES : ADMIN_PROFILES);
  return target;
}
