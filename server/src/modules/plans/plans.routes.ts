import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { PlansService } from './plans.service';

/**
 * Plans. GET /plans/listpublic (anchor path) is public and takes no input, so its chain is the
 * handler alone; the super administrator's plan management will add auth -> validate here.
 */
export function plansRoutes(deps: AppDeps): Router {
  const router = new Router();
  const plans = new PlansService(deps);

  router.get('/plans/listpublic', async (ctx) => {
    ctx.body = await plans.listPublic();
  });

  return router;
}
