import Router from '@koa/router';
import { STATISTICS_PATHS } from '@shared/schemas/statistics';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { AgentsNowQuerySchema, DashTicketsQueuesQuerySchema } from './ticket-panel.schema';
import { TicketPanelService } from './ticket-panel.service';

/**
 * What is happening now (issue #13), the anchor's paths: the administrator's ticket panel and the
 * dashboard's agents. auth -> validate(query) -> handler; the policy is the service's first step.
 */
export function ticketPanelRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const panel = new TicketPanelService(deps);

  router.get(
    STATISTICS_PATHS.dashTicketsQueues,
    auth,
    validate(DashTicketsQueuesQuerySchema, 'query'),
    async (ctx: AppContext) => {
      ctx.body = await panel.panel(authOf(ctx), ctx.input);
    },
  );

  router.get(STATISTICS_PATHS.perUsersDetail, auth, validate(AgentsNowQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await panel.agentsNow(authOf(ctx), ctx.input);
  });

  return router;
}
