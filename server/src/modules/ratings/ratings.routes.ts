import Router from '@koa/router';
import { RatingListQuerySchema } from '@shared/schemas/ratings';
import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { authorizeRatings } from './ratings.policy';
import { RatingsService } from './ratings.service';

/**
 * Ratings (issue #14, screen /avaliacoes/listar): auth -> profile gate -> validate -> handler.
 *   GET /ratings?startDate&endDate&queuesIds&usersIds&ratings&pageNumber&pageSize   200 RatingListAnswer
 * The rating settings are /tenants/rating/ (tenants module); a ticket is rated by the customer's
 * reply (tickets module) or by POST /tickets/{ticketId}/rating.
 */
export function ratingsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const ratings = new RatingsService(deps);
  const allowed: Middleware = async (ctx, next) => {
    authorizeRatings(authOf(ctx as AppContext));
    await next();
  };

  router.get('/ratings', auth, allowed, validate(RatingListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await ratings.list(authOf(ctx), ctx.input);
  });

  return router;
}
