import Router from '@koa/router';
import { ActivateLicenceSchema } from '@shared/schemas/licence';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { LicenceService } from './licence.service';

/** The platform licence, super administrator only: GET /admin/licence, PUT /admin/licence (activate). */
export function licenceRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const licence = new LicenceService(deps);

  router.get('/admin/licence', auth, async (ctx: AppContext) => {
    ctx.body = await licence.get(authOf(ctx));
  });

  router.put('/admin/licence', auth, validate(ActivateLicenceSchema), async (ctx: AppContext) => {
    ctx.body = await licence.activate(authOf(ctx), ctx.input);
  });

  return router;
}
