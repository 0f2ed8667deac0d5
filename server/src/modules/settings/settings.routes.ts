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

  // The anchor sends `{ key, value }`; the key that counts is the one in the path.
  router.put('/settings/:settingKey', auth, validate(UpdateSettingSchema, 'body', { echoed: ['key'] }), async (ctx: AppContext) => {
    ctx.body = await settings.update(authOf(ctx), ctx.params.settingKey, ctx.input.value);
  });

  return router;
}
