import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  GroupBanCreateSchema,
  GroupCreateOperationSchema,
  GroupExportQuerySchema,
  GroupMessageCreateSchema,
  GroupOperationIdSchema,
  GroupParticipantsOperationSchema,
  GroupRulesQuerySchema,
  GroupsQuerySchema,
  GroupSyncSchema,
  GroupUpdateOperationSchema,
  GroupWordCreateSchema,
} from '@shared/schemas/groups';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { GroupOperationsService } from './group-operations.service';
import { GroupRulesService, type GroupRuleKind } from './group-rules.service';
import { groupModerationOf } from './group-wiring';
import { authorizeGroups } from './groups.policy';
import { GroupsService } from './groups.service';

const operationsByDeps = new WeakMap<AppDeps, GroupOperationsService>();

/** The mass operations of a server (one per app, so tests can wait for them). */
export function groupOperationsOf(deps: AppDeps): GroupOperationsService {
  let ops = operationsByDeps.get(deps);
  if (!ops) operationsByDeps.set(deps, (ops = new GroupOperationsService(deps)));
  return ops;
}

/**
 * WhatsApp groups of QR channels (issue #16 parts 5 and 6; screens /grupo/*), docs/api.md
 * "Groups". Every route: auth -> profile gate (supervisors and admins; agents 403) -> validate
 * -> handler. A channel whose type has no groups answers 400 ERR_CHANNEL_OPERATION_UNSUPPORTED.
 */
export function groupsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const allowed: Middleware = async (ctx, next) => {
    authorizeGroups(authOf(ctx as AppContext));
    await next();
  };
  const groups = new GroupsService(deps);
  const rules = new GroupRulesService(deps);
  const operations = groupOperationsOf(deps);
  groupModerationOf(deps);

  router.get('/groups', auth, allowed, validate(GroupsQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await groups.list(authOf(ctx), ctx.input.whatsappId);
  });
  router.post('/groups/sync', auth, allowed, validate(GroupSyncSchema), async (ctx: AppContext) => {
    ctx.body = await groups.sync(authOf(ctx), ctx.input.whatsappId);
  });
  router.get('/groups/participants/export', auth, allowed, validate(GroupExportQuerySchema, 'query'), async (ctx: AppContext) => {
    const file = await groups.exportParticipants(authOf(ctx), ctx.input);
    ctx.attachment(file.fileName);
    ctx.type = file.contentType;
    ctx.body = file.body;
  });

  // Rules: ban list, forbidden words, greetings, farewells.
  const ruleRoutes: [string, GroupRuleKind, Parameters<typeof validate>[0]][] = [
    ['banlist', 'ban', GroupBanCreateSchema],
    ['wordlist', 'word', GroupWordCreateSchema],
    ['greetings', 'greeting', GroupMessageCreateSchema],
    ['farewells', 'farewell', GroupMessageCreateSchema],
  ];
  for (const [path, kind, schema] of ruleRoutes) {
    router.get(`/groups/${path}`, auth, allowed, validate(GroupRulesQuerySchema, 'query'), async (ctx: AppContext) => {
      ctx.body = await rules.list(authOf(ctx), kind, ctx.input.whatsappId);
    });
    router.post(`/groups/${path}`, auth, allowed, validate(schema), async (ctx: AppContext) => {
      ctx.status = 201;
      ctx.body = kind === 'ban' ? await rules.createBan(authOf(ctx), ctx.input) : await rules.createText(authOf(ctx), kind, ctx.input);
    });
    router.delete(`/groups/${path}/:id`, auth, allowed, async (ctx: AppContext) => {
      await rules.remove(authOf(ctx), kind, intParam(ctx, 'id'));
      ctx.status = 204;
    });
  }

  // Mass operations (202 with the operation; progress as group:operation and GET /groups/operations/{id}).
  router.post('/groups/operations/update', auth, allowed, validate(GroupUpdateOperationSchema), async (ctx: AppContext) => {
    ctx.status = 202;
    ctx.body = await operations.update(authOf(ctx), ctx.input);
  });
  router.post('/groups/operations/create', auth, allowed, validate(GroupCreateOperationSchema), async (ctx: AppContext) => {
    ctx.status = 202;
    ctx.body = await operations.create(authOf(ctx), ctx.input);
  });
  router.post('/groups/operations/participants', auth, allowed, validate(GroupParticipantsOperationSchema), async (ctx: AppContext) => {
    ctx.status = 202;
    ctx.body = await operations.participants(authOf(ctx), ctx.input);
  });
  router.get('/groups/operations', auth, allowed, async (ctx: AppContext) => {
    ctx.body = await operations.list(authOf(ctx));
  });
  router.get('/groups/operations/:id', auth, allowed, validate(GroupOperationIdSchema, 'params'), async (ctx: AppContext) => {
    ctx.body = await operations.get(authOf(ctx), ctx.input.id);
  });

  // After the fixed paths above.
  router.get('/groups/:groupId/participants', auth, allowed, async (ctx: AppContext) => {
    ctx.body = await groups.participants(authOf(ctx), intParam(ctx, 'groupId'));
  });

  return router;
}
