import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';

export type NotificationAction = 'readOwn' | 'send' | 'listSent' | 'delete' | 'listTargets';

/**
 * Notifications: every signed-in user reads and marks their own (the queries are built from
 * their AuthContext, so nobody reaches another user's); sending, listing what was sent,
 * deleting and choosing tenants are the super administrator's (spec section 6 "notifications").
 */
export function authorizeNotifications(auth: AuthContext, action: NotificationAction): void {
  switch (action) {
    case 'readOwn':
      return;
    case 'send':
    case 'listSent':
    case 'delete':
    case 'listTargets':
      requirePlatformSuperadmin(auth);
      return;
  }
}
