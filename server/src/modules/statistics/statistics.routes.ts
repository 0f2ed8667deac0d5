import Router from '@koa/router';
import type { Middleware } from 'koa';
import { STATISTICS_PATHS } from '@shared/schemas/statistics';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { authorizeStatistics } from './statistics.policy';
import { PeriodQuerySchema, type PeriodQuery } from './statistics.schema';
import { StatisticsService } from './statistics.service';

/**
 * The dashboard's statistics calls (issue #13), on the anchor's paths (shared/schemas/
 * statistics.ts). Each: auth -> profile gate (an agent is refused before its query is read) ->
 * validate(period query) -> handler. The ticket panel's calls (/dash-tickets-queues,
 * /statistics-tickets-per-users-detail) live in their own module.
 */
export function statisticsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const statistics = new StatisticsService(deps);
  const gate: Middleware = async (ctx, next) => {
    authorizeStatistics(authOf(ctx as unknown as AppContext));
    await next();
  };

  const route = (path: string, answer: (auth: AuthContext, query: PeriodQuery) => Promise<unknown>) =>
    router.get(path, auth, gate, validate(PeriodQuerySchema, 'query'), async (ctx: AppContext) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await answer(authOf(ctx), ctx.input);
    });

  route(STATISTICS_PATHS.ticketsTimes, (a, q) => statistics.ticketsTimes(a, q));
  route(STATISTICS_PATHS.ticketsChannels, (a, q) => statistics.ticketsChannels(a, q));
  route(STATISTICS_PATHS.ticketsEvolutionByPeriod, (a, q) => statistics.evolutionByPeriod(a, q));
  route(STATISTICS_PATHS.ticketsEvolutionChannels, (a, q) => statistics.evolutionChannels(a, q));
  route(STATISTICS_PATHS.ticketsQueue, (a, q) => statistics.ticketsQueue(a, q));
  route(STATISTICS_PATHS.ticketsHours, (a, q) => statistics.ticketsHours(a, q));
  route(STATISTICS_PATHS.perUsers, async (a, q) => (await statistics.perUsers(a, q)).rows);
  route(STATISTICS_PATHS.countMessages, (a, q) => statistics.countMessages(a, q));

  return router;
}
