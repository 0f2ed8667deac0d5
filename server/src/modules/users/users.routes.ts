import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import {
  ChatUsersQuerySchema,
  CreateUserSchema,
  CreateUserTenantSchema,
  DeleteUserTenantSchema,
  UpdateUserConfigsSchema,
  UpdateUserOnlineSchema,
  UpdateUserSchema,
  UpdateUserTenantSchema,
  UserListQuerySchema,
  UserTenantListQuerySchema,
} from './users.schema';
import { UserTenantsService } from './user-tenants.service';
import { UsersService } from './users.service';

/**
 * Users routes (spec section 7, "Users"): auth -> validate -> handler.
 * Paths without a trailing slash also match with one.
 */
export function usersRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const users = new UsersService(deps);
  const userTenants = new UserTenantsService(deps);

  router.get('/users', auth, validate(UserListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await users.list(authOf(ctx), ctx.input);
  });

  router.post('/users', auth, validate(CreateUserSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await users.create(authOf(ctx), ctx.input);
  });

  // Declared before `/users/:id`, which would otherwise take `chat-privado` as an id.
  router.get('/users/chat-privado', auth, validate(ChatUsersQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await users.listForChat(authOf(ctx), ctx.input);
  });

  router.get('/users/:id', auth, async (ctx: AppContext) => {
    ctx.body = await users.getProfile(authOf(ctx), intParam(ctx, 'id'));
  });

  // The anchor's user form sends `id` and `tenantId` with the fields it edits.
  router.put('/users/:id', auth, validate(UpdateUserSchema, 'body', { echoed: ['id', 'tenantId'] }), async (ctx: AppContext) => {
    ctx.body = await users.update(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });

  router.delete('/users/:id', auth, async (ctx: AppContext) => {
    await users.remove(authOf(ctx), intParam(ctx, 'id'));
    ctx.status = 204;
  });

  // Takes no body (an empty JSON object, or none): the id says it all.
  router.post('/users/:id/desktop-purge', auth, async (ctx: AppContext) => {
    ctx.body = await users.purgeDesktop(authOf(ctx), intParam(ctx, 'id'));
  });

  router.put('/users/:id/configs', auth, validate(UpdateUserConfigsSchema), async (ctx: AppContext) => {
    ctx.body = await users.updateConfigs(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });

  router.put('/usersIsOnline/:id', auth, validate(UpdateUserOnlineSchema), async (ctx: AppContext) => {
    ctx.body = await users.updateOnlineStatus(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });

  router.get('/userTenants', auth, validate(UserTenantListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await userTenants.list(authOf(ctx), ctx.input);
  });

  router.post('/userTenants', auth, validate(CreateUserTenantSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await userTenants.create(authOf(ctx), ctx.input);
  });

  router.put('/userTenants/:id', auth, validate(UpdateUserTenantSchema), async (ctx: AppContext) => {
    ctx.body = await userTenants.update(authOf(ctx), intParam(ctx, 'id'), ctx.input);
  });

  // The spec sends `{tenantId}` in the body of this DELETE; the app-wide parser reads bodies of
  // POST/PUT/PATCH only, so this route parses its own JSON body.
  const deleteBody: Middleware<any, any> = bodyParser({
    parsedMethods: ['DELETE'],
    enableTypes: ['json'],
    jsonLimit: deps.config.bodyLimit,
  });
  router.delete('/userTenants/:id', auth, deleteBody, validate(DeleteUserTenantSchema), async (ctx: AppContext) => {
    await userTenants.remove(authOf(ctx), intParam(ctx, 'id'), ctx.input);
    ctx.status = 204;
  });

  return router;
}
