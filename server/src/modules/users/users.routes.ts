import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { UpdateUserConfigsSchema, UpdateUserOnlineSchema } from './users.schema';
import { UsersService } from './users.service';

/**
 * Users routes (spec section 7, "Users"): auth -> validate -> handler.
 * Paths without a trailing slash also match with one.
 */
export function usersRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const users = new UsersService(deps);

  router.get('/users/:id', auth, async (ctx: AppContext) => {
    ctx.body = await users.getProfile(authOf(ctx), intParam(ctx, 'id'));
  });

  router.put('/users/:id/configs', auth, validate(UpdateUserConfigsSchema), async (ctx: AppContext) => {
    ctx.body = await users.updateConfigs(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });

  router.put('/usersIsOnline/:id', auth, validate(UpdateUserOnlineSchema), async (ctx: AppContext) => {
    ctx.body = await users.updateOnlineStatus(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });

  return router;
}
