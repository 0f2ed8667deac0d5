import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { ChatFlowExportSchema, ChatFlowListQuerySchema, CreateChatFlowSchema, UpdateChatFlowSchema } from './chatflow.schema';
import { ChatFlowService } from './chatflow.service';

/**
 * Chatbot flows (issue #14; anchor paths), each a chain auth -> validate(zod) -> handler:
 *   GET    /chat-flow                        200 ChatFlow[] (supervisors); ?active=true 200 ChatFlowSummary[] (every profile)
 *   POST   /chat-flow                        201 ChatFlow
 *   POST   /chat-flow/import                 201 ChatFlow (body: the export file; stored inactive)
 *   GET    /chat-flow/:chatFlowId            200 ChatFlow
 *   GET    /chat-flow/:chatFlowId/export     200 the export file (attachment)
 *   POST   /chat-flow/:chatFlowId/duplicate  201 ChatFlow (inactive copy)
 *   PUT    /chat-flow/:chatFlowId            200 ChatFlow
 *   DELETE /chat-flow/:chatFlowId            204
 * Activation (active: true) refuses a flow with graph problems: 400 ERR_CHATFLOW_INVALID.
 * `POST /chat-flow/:chatFlowId/test` (run against the test number) belongs to the engine.
 */
export function chatFlowRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const flows = new ChatFlowService(deps);
  const body = { echoed: ECHOED_ROW_FIELDS };

  router.get('/chat-flow', auth, validate(ChatFlowListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await flows.list(authOf(ctx), ctx.input);
  });
  router.post('/chat-flow', auth, validate(CreateChatFlowSchema, 'body', body), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await flows.create(authOf(ctx), ctx.input);
  });
  router.post('/chat-flow/import', auth, validate(ChatFlowExportSchema, 'body', body), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await flows.importFlow(authOf(ctx), ctx.input);
  });
  router.get('/chat-flow/:chatFlowId', auth, async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await flows.get(authOf(ctx), intParam(ctx, 'chatFlowId'));
  });
  router.get('/chat-flow/:chatFlowId/export', auth, async (ctx: AppContext) => {
    const file = await flows.exportFlow(authOf(ctx), intParam(ctx, 'chatFlowId'));
    ctx.set('Cache-Control', 'no-store');
    ctx.attachment(file.fileName);
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(file.body, null, 2);
  });
  router.post('/chat-flow/:chatFlowId/duplicate', auth, async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await flows.duplicate(authOf(ctx), intParam(ctx, 'chatFlowId'));
  });
  router.put('/chat-flow/:chatFlowId', auth, validate(UpdateChatFlowSchema, 'body', body), async (ctx: AppContext) => {
    ctx.body = await flows.update(authOf(ctx), intParam(ctx, 'chatFlowId'), ctx.input);
  });
  router.delete('/chat-flow/:chatFlowId', auth, async (ctx: AppContext) => {
    await flows.remove(authOf(ctx), intParam(ctx, 'chatFlowId'));
    ctx.status = 204;
  });

  return router;
}
