import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { mountCatalogRoutes } from '../../http/catalog-routes';
import { authOf, type AppContext } from '../../http/context';
import { requireAuth } from '../auth/require-auth';
import { CreateQueueSchema, UpdateQueueSchema } from './queues.schema';
import { QueuesService } from './queues.service';

/**
 * Queues (anchor paths): GET /queue/user, then GET/POST /queue, PUT/DELETE /queue/:queueId.
 * Each route: auth -> validate(zod) -> handler.
 */
export function queuesRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const queues = new QueuesService(deps);

  router.get('/queue/user', auth, async (ctx: AppContext) => {
    ctx.body = await queues.listMine(authOf(ctx));
  });
  mountCatalogRoutes(router, auth, {
    path: '/queue',
    idParam: 'queueId',
    create: CreateQueueSchema,
    update: UpdateQueueSchema,
    service: queues,
    // The anchor's queue screen names them `queue` and `isActive`.
    body: { aliases: { queue: 'name', isActive: 'active' } },
  });

  return router;
}
