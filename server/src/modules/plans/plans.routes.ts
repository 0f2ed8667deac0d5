import Router from '@koa/router';
import { CreatePlanSchema, UpdatePlanSchema } from '@shared/schemas/plans';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { platformSuperadminOnly } from './plans.policy';
import { PlansService } from './plans.service';

/**
 * Plans (anchor paths, docs/api.md "Plans").
 *   GET    /plans/listpublic   active plans for sign-up (public)            200 [PublicPlan]
 *   GET    /plans/list         every plan (platform superadmin)             200 [PlanDto]
 *   POST   /plans              create (platform superadmin)                 201 PlanDto
 *   PUT    /plans/:id          edit; tenants following it take its limits   200 PlanDto
 *   DELETE /plans/:id          delete a plan no tenant is on                204
 */
const PLAN_ECHOED = [...ECHOED_ROW_FIELDS, 'tenantCount'];

export function plansRoutes(deps: AppDeps): Router {
  const router = new Router();
  const plans = new PlansService(deps);
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);

  router.get(['/plans/listpublic', '/plans/listpublic/'], async (ctx) => {
    ctx.body = await plans.listPublic();
  });
  router.get(['/plans/list', '/plans/list/'], auth, platformSuperadminOnly, async (ctx: AppContext) => {
    ctx.body = await plans.list(authOf(ctx));
  });
  router.post(['/plans', '/plans/'], auth, platformSuperadminOnly, validate(CreatePlanSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await plans.create(authOf(ctx), ctx.input);
  });
  router.put('/plans/:id', auth, platformSuperadminOnly, validate(UpdatePlanSchema, 'body', { echoed: PLAN_ECHOED }), async (ctx: AppContext) => {
    ctx.body = await plans.update(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });
  router.delete('/plans/:id', auth, platformSuperadminOnly, async (ctx: AppContext) => {
    await plans.remove(authOf(ctx), intParam(ctx, 'id'));
    ctx.status = 204;
  });

  return router;
}
