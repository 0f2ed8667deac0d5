import Router from '@koa/router';
import {
  AutoReplyActionSchema,
  AutoReplyStepSchema,
  CreateAutoReplySchema,
  UpdateAutoReplySchema,
} from '@shared/schemas/auto-reply';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate, type ValidateOptions } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { AutoRepliesService } from './auto-replies.service';

/** The anchor's names for fields, and what its screen echoes back of the rows it read. */
const REPLY_BODY: ValidateOptions = {
  aliases: { isActive: 'active', celularTeste: 'testNumber' },
  echoed: [...ECHOED_ROW_FIELDS, 'stepsReply'],
};
const STEP_BODY: ValidateOptions = { echoed: [...ECHOED_ROW_FIELDS, 'idAutoReply', 'stepsReplyAction'] };
const ACTION_BODY: ValidateOptions = { aliases: { queue: 'queueId' }, echoed: [...ECHOED_ROW_FIELDS] };

/**
 * Auto-reply (anchor paths, spec section 2 /auto-resposta). Each route: auth -> validate(zod) ->
 * handler.
 *   GET/POST /auto-reply, PUT/DELETE /auto-reply/:autoReplyId
 *   POST /auto-reply/:idAutoReply/steps, PUT/DELETE /auto-reply/:idAutoReply/steps/:stepsReplyId
 *   POST /auto-reply-action, PUT/DELETE /auto-reply-action/:stepsReplyActionId
 */
export function autoRepliesRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const service = new AutoRepliesService(deps);

  router.get('/auto-reply', auth, async (ctx: AppContext) => {
    ctx.body = await service.list(authOf(ctx));
  });
  router.post('/auto-reply', auth, validate(CreateAutoReplySchema, 'body', REPLY_BODY), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await service.create(authOf(ctx), ctx.input);
  });
  router.put('/auto-reply/:autoReplyId', auth, validate(UpdateAutoReplySchema, 'body', REPLY_BODY), async (ctx: AppContext) => {
    ctx.body = await service.update(authOf(ctx), intParam(ctx, 'autoReplyId'), ctx.input);
  });
  router.delete('/auto-reply/:autoReplyId', auth, async (ctx: AppContext) => {
    await service.remove(authOf(ctx), intParam(ctx, 'autoReplyId'));
    ctx.status = 204;
  });

  router.post(
    '/auto-reply/:idAutoReply/steps',
    auth,
    validate(AutoReplyStepSchema, 'body', STEP_BODY),
    async (ctx: AppContext) => {
      ctx.status = 201;
      ctx.body = await service.createStep(authOf(ctx), intParam(ctx, 'idAutoReply'), ctx.input);
    },
  );
  router.put(
    '/auto-reply/:idAutoReply/steps/:stepsReplyId',
    auth,
    validate(AutoReplyStepSchema, 'body', STEP_BODY),
    async (ctx: AppContext) => {
      ctx.body = await service.updateStep(authOf(ctx), intParam(ctx, 'idAutoReply'), intParam(ctx, 'stepsReplyId'), ctx.input);
    },
  );
  router.delete('/auto-reply/:idAutoReply/steps/:stepsReplyId', auth, async (ctx: AppContext) => {
    await service.removeStep(authOf(ctx), intParam(ctx, 'idAutoReply'), intParam(ctx, 'stepsReplyId'));
    ctx.status = 204;
  });

  router.post('/auto-reply-action', auth, validate(AutoReplyActionSchema, 'body', ACTION_BODY), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await service.createAction(authOf(ctx), ctx.input);
  });
  router.put(
    '/auto-reply-action/:stepsReplyActionId',
    auth,
    validate(AutoReplyActionSchema, 'body', ACTION_BODY),
    async (ctx: AppContext) => {
      ctx.body = await service.updateAction(authOf(ctx), intParam(ctx, 'stepsReplyActionId'), ctx.input);
    },
  );
  router.delete('/auto-reply-action/:stepsReplyActionId', auth, async (ctx: AppContext) => {
    await service.removeAction(authOf(ctx), intParam(ctx, 'stepsReplyActionId'));
    ctx.status = 204;
  });

  return router;
}
