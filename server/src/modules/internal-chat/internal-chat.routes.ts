import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  ChatHistoryQuerySchema,
  ChatSearchQuerySchema,
  EditChatMessageSchema,
  MarkChatReadSchema,
  SendChatMessageSchema,
} from '@shared/schemas/internal-chat';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { mediaUpload, receivedMediaOf, respondWithStoredFile } from '../messages/message-media';
import { InternalChatService } from './internal-chat.service';

/** A route that takes no body fields: any field is refused as unknown. */
const NoBodySchema = z.strictObject({});

/**
 * PUT /chat-interno/mensagens/{id} takes `kind` in its body or, for clients that send no body,
 * in the query string (`?kind=team`); the body wins.
 */
const kindFromQuery: Middleware = async (ctx, next) => {
  const request = ctx.request as unknown as { body?: unknown };
  const body = request.body;
  const fromQuery = ctx.query.kind;
  const empty =
    body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  if (empty && typeof fromQuery === 'string') request.body = { kind: fromQuery };
  await next();
};

/**
 * Internal chat (/chat-privado; docs/api.md "Internal chat"; anchor paths `/chat-interno/*`):
 * GET /chat-interno/conversations, GET /chat-interno/count/mensagens, GET /chat-interno/search,
 * GET /chat-interno/media/:messageId, GET /chat-interno/mensagens/:id (history),
 * POST /chat-interno/mensagens (JSON or multipart `medias`), PUT /chat-interno/mensagens/:messageId/edit,
 * PUT /chat-interno/mensagens/:messageId/nao-lida, PUT /chat-interno/mensagens/:id (read),
 * DELETE /chat-interno/mensagens/:messageId. Rules: internal-chat.policy.ts. The typing relay is
 * a socket handler (internal-chat.socket.ts).
 */
export function internalChatRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const chat = new InternalChatService(deps);
  const media = mediaUpload(deps.config.dataDir);

  router.get('/chat-interno/conversations', auth, async (ctx: AppContext) => {
    ctx.body = await chat.conversations(authOf(ctx));
  });

  router.get('/chat-interno/count/mensagens', auth, async (ctx: AppContext) => {
    ctx.body = await chat.unreadCount(authOf(ctx));
  });

  router.get('/chat-interno/search', auth, validate(ChatSearchQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await chat.search(authOf(ctx), ctx.input.q, ctx.input.limit);
  });

  router.get('/chat-interno/media/:messageId', auth, async (ctx: AppContext) => {
    respondWithStoredFile(ctx, await chat.openMedia(authOf(ctx), intParam(ctx, 'messageId')));
  });

  router.get('/chat-interno/mensagens/:id', auth, validate(ChatHistoryQuerySchema, 'query'), async (ctx: AppContext) => {
    const id = intParam(ctx, 'id');
    ctx.body = await chat.history(authOf(ctx), ctx.input.kind, id, { before: ctx.input.before, limit: ctx.input.limit });
  });

  router.post('/chat-interno/mensagens', auth, media, validate(SendChatMessageSchema), async (ctx: AppContext) => {
    const { status, message } = await chat.send(authOf(ctx), ctx.input, receivedMediaOf(ctx));
    ctx.status = status;
    ctx.body = message;
  });

  router.put('/chat-interno/mensagens/:messageId/edit', auth, validate(EditChatMessageSchema), async (ctx: AppContext) => {
    ctx.body = await chat.edit(authOf(ctx), intParam(ctx, 'messageId'), ctx.input);
  });

  router.put('/chat-interno/mensagens/:messageId/nao-lida', auth, validate(NoBodySchema), async (ctx: AppContext) => {
    ctx.body = await chat.markUnread(authOf(ctx), intParam(ctx, 'messageId'));
  });

  router.put('/chat-interno/mensagens/:id', auth, kindFromQuery, validate(MarkChatReadSchema), async (ctx: AppContext) => {
    ctx.body = await chat.markRead(authOf(ctx), ctx.input.kind, intParam(ctx, 'id'));
  });

  router.delete('/chat-interno/mensagens/:messageId', auth, async (ctx: AppContext) => {
    ctx.body = await chat.remove(authOf(ctx), intParam(ctx, 'messageId'));
  });

  return router;
}
