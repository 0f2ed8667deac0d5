import type { Middleware } from 'koa';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { PLATFORM_TENANT_ID, requirePlatformSuperadmin } from '../../core/platform';
import { authOf } from '../../http/context';

/**
 * Tenant administration is the platform's: the superadmin profile of tenant 1 only (spec section
 * 6). Every other profile of every tenant, a `superadmin` profile outside tenant 1 included, is
 * refused (LESSONS item 6). A support session acts as a tenant admin and is refused here too.
 */
export const tenantAdminPolicy = {
  manage(auth: AuthContext): void {
    requirePlatformSuperadmin(auth);
  },
  /** Tenant 1 is the platform itself: it is never deactivated nor deleted. */
  assertNotPlatform(tenantId: number): void {
    if (tenantId === PLATFORM_TENANT_ID) {
      throw new AppError('ERR_TENANT_PROTECTED', { message: `Não é possível deletar o tenant ${tenantId}!` });
    }
  },
};

/** Route guard right after auth: a refused caller gets 403 before its body is even read. */
export const platformSuperadminOnly: Middleware = async (ctx, next) => {
  tenantAdminPolicy.manage(authOf(ctx));
  await next();
};
