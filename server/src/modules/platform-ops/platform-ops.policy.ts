import type { Middleware } from 'koa';
import type { ErrorCode } from '@shared/errors';
import { AppError } from '../../core/app-error';
import { isPlatformSuperadmin } from '../../core/platform';
import { authOf, type AppContext } from '../../http/context';

/**
 * Platform operations (job queues, internal data, update, terminal, tenant API tokens) belong to
 * the super administrator alone: the superadmin profile of the platform tenant (core/platform.ts).
 * Checked before the body is validated, so another profile learns nothing about the input
 * these routes take. The terminal answers its own text (spec section 6).
 */
export function platformSuperadminOnly(
  refusal: ErrorCode = 'ERR_NO_PERMISSION',
  onRefused?: (ctx: AppContext) => Promise<void>,
): Middleware<any, any> {
  return async (ctx: AppContext, next: () => Promise<unknown>) => {
    if (!isPlatformSuperadmin(authOf(ctx))) {
      if (onRefused) await onRefused(ctx);
      throw new AppError(refusal);
    }
    await next();
  };
}
