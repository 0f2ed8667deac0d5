import Router from '@koa/router';
import { platformMailSettingsSchema, platformMailTestSchema } from '@shared/schemas/platform-mail';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { PlatformMailService } from './platform-mail.service';

/**
 * The platform's e-mail (super administrator's "E-mail" menu, /configuracoesTenant/smtp-tenant):
 * auth -> validate -> handler; the service checks the super administrator.
 */
export function platformMailRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const service = new PlatformMailService(deps);

  router.get('/admin/platform-mail', auth, async (ctx: AppContext) => {
    ctx.body = await service.get(authOf(ctx));
  });
  router.put('/admin/platform-mail', auth, validate(platformMailSettingsSchema, 'body', { echoed: ['passwordSet', 'source'] }), async (ctx: AppContext) => {
    ctx.body = await service.update(authOf(ctx), ctx.input);
  });
  router.delete('/admin/platform-mail', auth, async (ctx: AppContext) => {
    ctx.body = await service.reset(authOf(ctx));
  });
  router.post('/admin/platform-mail/test', auth, validate(platformMailTestSchema), async (ctx: AppContext) => {
    ctx.body = await service.sendTest(authOf(ctx), ctx.input.to);
  });

  return router;
}
