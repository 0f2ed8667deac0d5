import type { Profile } from '@shared/profiles';
import { SELF_EDITABLE_USER_FIELDS, type UpdateUserInput } from '@shared/schemas/users';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { isPlatformSuperadmin } from '../../core/platform';
import { ADMIN_PROFILES, SUPERVISOR_PROFILES, assertSameTenant, requireProfile } from '../../core/policy';
import type { User } from '../../db/entities';

export type UserAction = 'read' | 'updateConfigs' | 'updateOnlineStatus' | 'update' | 'delete' | 'desktopPurge';

/** Profiles that count as the tenant's administrators (the last one cannot be demoted or deleted). */
export const TENANT_ADMIN_PROFILES: readonly Profile[] = ADMIN_PROFILES;

type PolicyUser = Pick<User, 'id' | 'tenantId' | 'profile'>;

/**
 * Who may do what to one user row, checked right after it is loaded.
 * - Another tenant's user is "not found" (nothing leaks), except that the super administrator
 *   may read any user. Writes stay inside the caller's tenant for everyone.
 * - Anyone may read their own row and change their own configs and online flag; with PUT
 *   /users/{id} a non-administrator may change only their own name and password
 *   (authorizeUserUpdate).
 * - Reading someone else: supervisors and admins of the tenant (spec section 6: non-users
 *   refresh profiles every 30 s). Changing or deleting someone else: admins only.
 * - Wiping someone's desktop cache (`desktopPurge`, issue #15): supervisors and admins of the
 *   tenant; anyone their own. It changes no row of the user, so the superadmin rule below
 *   does not apply.
 * - A superadmin row is changed only by a superadmin: otherwise an admin of the platform tenant
 *   could reset the super administrator's password and log in as them.
 * - Nobody deletes themselves (the screen would lose its own session mid-action).
 */
export function authorizeUser<T extends PolicyUser>(auth: AuthContext, action: UserAction, user: T | null): T {
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  if (action === 'read' && isPlatformSuperadmin(auth)) return user;
  const target = assertSameTenant(auth, user, 'ERR_NO_USER_FOUND');
  const self = target.id === auth.userId;
  if (action === 'delete') {
    requireProfile(auth, ADMIN_PROFILES);
    if (self) throw new AppError('ERR_USER_DELETE', { message: 'Não é possível deletar o próprio usuário.' });
  } else if (self) {
    return target;
  } else {
    requireProfile(auth, action === 'read' || action === 'desktopPurge' ? SUPERVISOR_PROFILES : ADMIN_PROFILES);
  }
  if ((action === 'update' || action === 'delete') && target.profile === 'superadmin' && auth.profile !== 'superadmin') {
    throw new AppError('ERR_NO_PERMISSION');
  }
  return target;
}

/**
 * PUT /users/{id}: administrators of the tenant change anything (authorizeUser); anyone else
 * only their own name and password. A new profile must be assignable by the caller.
 */
export function authorizeUserUpdate<T extends PolicyUser>(auth: AuthContext, user: T | null, input: UpdateUserInput): T {
  const target = authorizeUser(auth, 'update', user);
  if (!(ADMIN_PROFILES as readonly Profile[]).includes(auth.profile)) {
    const allowed: readonly string[] = SELF_EDITABLE_USER_FIELDS;
    const forbidden = Object.entries(input).filter(([key, value]) => value !== undefined && !allowed.includes(key));
    if (forbidden.length > 0) throw new AppError('ERR_NO_PERMISSION');
  }
  if (input.profile !== undefined && input.profile !== target.profile) assertAssignableProfile(auth, input.profile);
  return target;
}

/**
 * Listing the tenant's users (GET /users): admins, and supervisors, who pick the user a ticket
 * is transferred to. Plain users have the internal-chat list (GET /users/chat-privado) instead.
 */
export function authorizeUserList(auth: AuthContext): void {
  requireProfile(auth, SUPERVISOR_PROFILES);
}

/** Creating a user: admins of the tenant, with a profile they may assign. */
export function authorizeUserCreate(auth: AuthContext, profile: Profile): void {
  requireProfile(auth, ADMIN_PROFILES);
  assertAssignableProfile(auth, profile);
}

/** `superadmin` carries platform-wide power: only the platform super administrator hands it out. */
function assertAssignableProfile(auth: AuthContext, profile: Profile): void {
  if (profile === 'superadmin' && !isPlatformSuperadmin(auth)) throw new AppError('ERR_NO_PERMISSION');
}
