import type { Middleware } from 'koa';
import type { AuthContext } from '../../core/auth-context';
import { requirePlatformSuperadmin } from '../../core/platform';
import { authOf } from '../../http/context';

/**
 * Plans are platform-wide: only the platform's super administrator (superadmin of tenant 1)
 * reads the full list or changes a plan (LESSONS item 6: the anchor let any tenant admin write
 * them). The public list needs nobody.
 */
export const planPolicy = {
  manage(auth: AuthContext): void {
    requirePlatformSuperadmin(auth);
  },
};

/** Route guard placed right after auth, so another profile gets 403 before its body is read. */
export const platformSuperadminOnly: Middleware = async (ctx, next) => {
  requirePlatformSuperadmin(authOf(ctx));
  await next();
};
