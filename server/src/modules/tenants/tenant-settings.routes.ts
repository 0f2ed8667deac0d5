import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import {
  BusinessHoursSchema,
  MessageBusinessHoursSchema,
  RatingSettingsSchema,
  SystemColorsSchema,
} from './tenant-settings.schema';
import { TenantSettingsService, platformSystemColors } from './tenant-settings.service';

/**
 * Tenant settings (spec section 7, "Tenant settings"): auth -> validate -> handler.
 * Declared without the trailing slash: @koa/router then matches `/x` and `/x/` alike, so the
 * spec's `/tenants/business-hours/` and the slash-less form both work.
 */
export function tenantSettingsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const settings = new TenantSettingsService(deps);

  router.get('/tenants/business-hours', auth, async (ctx: AppContext) => {
    ctx.body = await settings.getBusinessHours(authOf(ctx));
  });
  router.put('/tenants/business-hours', auth, validate(BusinessHoursSchema), async (ctx: AppContext) => {
    ctx.body = await settings.updateBusinessHours(authOf(ctx), ctx.input);
  });
  router.put('/tenants/message-business-hours', auth, validate(MessageBusinessHoursSchema), async (ctx: AppContext) => {
    ctx.body = await settings.updateMessageBusinessHours(authOf(ctx), ctx.input.messageBusinessHours);
  });

  router.get('/tenants/rating', auth, async (ctx: AppContext) => {
    ctx.body = await settings.getRating(authOf(ctx));
  });
  router.put('/tenants/rating', auth, validate(RatingSettingsSchema), async (ctx: AppContext) => {
    ctx.body = await settings.updateRating(authOf(ctx), ctx.input);
  });

  router.get('/tenants/systemColors', auth, async (ctx: AppContext) => {
    ctx.body = await settings.getSystemColors(authOf(ctx));
  });
  router.put('/tenants/systemColors', auth, validate(SystemColorsSchema), async (ctx: AppContext) => {
    ctx.body = await settings.updateSystemColors(authOf(ctx), ctx.input);
  });

  // Public: the login page paints itself with these before anyone signs in.
  router.get('/publicSystemColors', async (ctx) => {
    ctx.body = await platformSystemColors(deps);
  });

  return router;
}
