import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { UpdateSettingSchema } from './settings.schema';
import { SettingsService } from './settings.service';

/**
 * Tenant settings, general tab (anchor paths): GET /settings, PUT /settings/:settingKey.
 * Each route: auth -> validate(zod) -> handler.
 */
export function settingsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const settings = new SettingsService(deps);

  router.get('/settings', auth, async (ctx: AppContext) => {
    ctx.body = await settings.list(authOf(ctx));
  });

  router.put('/settings/:settingKey', auth, validate(UpdateSettingSchema), async (ctx: AppContext) => {
    ctx.body = await settings.update(authOf(ctx), ctx.params.settingKey, ctx.input.value);
  });

  return router;
}
