import Router from '@koa/router';
import { z } from 'zod';
import type { SyncResponse } from '@shared/events';
import type { AppDeps } from '../deps';
import { authOf, type AppContext } from '../http/context';
import { validate } from '../http/validate';
import { requireAuth } from '../modules/auth/require-auth';
import { TicketViewerLoader } from '../modules/tickets/ticket-viewer';
import { readEventsSince } from './sync.service';

export const SyncQuerySchema = z.object({
  since: z
    .string({ error: 'obrigatório: o último seq recebido (inteiro não negativo)' })
    .regex(/^\d{1,15}$/, 'deve ser um inteiro não negativo')
    .transform(Number),
});

/**
 * GET /sync?since=<seq>: the caller's tenant's events after `since` that the caller may see
 * (same rule as the socket fan-out), or `reload: true` when they cannot all be replayed.
 */
export function syncRoutes(deps: AppDeps): Router {
  const router = new Router();
  const viewers = new TicketViewerLoader(deps);
  router.get(
    '/sync',
    requireAuth(deps.dataSource, deps.config.jwtSecret),
    validate(SyncQuerySchema, 'query'),
    async (ctx: AppContext) => {
      const body: SyncResponse = await readEventsSince(deps.dataSource, authOf(ctx), ctx.input.since, deps.config.syncMaxEvents, (auth) =>
        viewers.load(auth),
      );
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  );
  return router;
}
