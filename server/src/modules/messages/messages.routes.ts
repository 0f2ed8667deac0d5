import Router from '@koa/router';
import type { Middleware } from 'koa';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { MessageBirthdayService } from './message-birthday.service';
import { mediaUpload, receivedMediaOf, respondWithStoredFile } from './message-media';
import { MessageScheduleService } from './message-schedule.service';
import { MessageSendService, type SendOutcome } from './message-send.service';
import { registerMessageJobs } from './messages.jobs';
import {
  DeleteMessageSchema,
  EditMessageSchema,
  ForwardMessagesSchema,
  GhostMessageSchema,
  ListParticipantsSchema,
  MentionAllMessageSchema,
  MentionMessageSchema,
  MessageListQuerySchema,
  ReactionMessageSchema,
  ScheduleMessageSchema,
  ScheduledMessagesQuerySchema,
  SearchMessageQuerySchema,
  SendBirthdaySchema,
  SendButtonSchema,
  SendMessageSchema,
  SendNowSchema,
  SendTemplateSchema,
  SyncOldMessagesSchema,
  UpdateMessageSchema,
} from './messages.schema';
import { MessagesService } from './messages.service';
import { OutboundDelivery, type ChannelAdapterSource } from './outbound-delivery';

/**
 * The anchor's composer sends its local message row with the text: `read: 1`, `fromMe: true`,
 * `mediaUrl: ''` and a client-side `id`. They describe the message it draws, not the send, and
 * are accepted and ignored.
 */
const ANCHOR_SEND_ECHOED = ['read', 'fromMe', 'mediaUrl', 'id'];
const DELETE_BODY_MAX_BYTES = 16 * 1024;

/**
 * DELETE /messages carries `{id, messageId}` in its body (spec section 7), which the app's body
 * parser reads only for POST, PUT and PATCH. Read here (small JSON), falling back to the query
 * string for clients that cannot send a DELETE body.
 */
const deleteBody: Middleware = async (ctx, next) => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DELETE_BODY_MAX_BYTES)
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'corpo grande demais' }] });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  let body: unknown = { ...ctx.query };
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'JSON inválido' }] });
    }
  }
  (ctx.request as unknown as { body: unknown }).body = body;
  await next();
};
const mediaOf = receivedMediaOf;
/** The schedule date as the request wrote it (the schema's output is already a Date). */
const typedScheduleDate = (ctx: AppContext): unknown => ((ctx.request as unknown as { body?: Record<string, unknown> }).body ?? {}).scheduleDate;

/**
 * Messages (spec section 7 "Messages", paths exactly as there; docs/api.md and the module's
 * README-style comments in each service describe the shapes). Every route: auth -> (multipart)
 * -> validate(zod) -> handler. Paths written with a trailing slash in the spec are declared
 * without it (@koa/router matches both). The fixed paths under /messages/ are declared before
 * /messages/:ticketId so that `ghostMessage` is never read as a ticket id.
 */
export function messagesRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const adapters = (): ChannelAdapterSource => deps.channels;
  const delivery = new OutboundDelivery(deps, adapters);
  const messages = new MessagesService(deps);
  const sender = new MessageSendService(deps, delivery, adapters);
  const schedules = new MessageScheduleService(deps);
  const birthdays = new MessageBirthdayService(deps, delivery);
  registerMessageJobs(deps, { delivery, schedules, birthdays });

  /** Multipart files (field `medias`) to the tenant's private folder; JSON passes through. Dropped if the request fails. */
  const media = mediaUpload(deps.config.dataDir);
  /**
   * The input with its schedule date read in the tenant's `timeZone` setting when it was typed
   * as a wall time (the schema read it in America/Sao_Paulo); an ISO date with offset is kept.
   */
  const inTenantZone = async <T extends { scheduleDate?: Date | null }>(ctx: AppContext, input: T): Promise<T> => {
    if (!input.scheduleDate) return input;
    const raw = typedScheduleDate(ctx);
    const typed = Array.isArray(raw) ? raw.find((value) => value !== '') : raw;
    return { ...input, scheduleDate: await schedules.tenantDate(authOf(ctx), input.scheduleDate, typed) };
  };
  const reply = (ctx: AppContext, outcome: SendOutcome) => {
    ctx.status = outcome.status;
    ctx.body = outcome.body;
  };

  // ---- reads ----
  router.get('/messages/media/:messageId', auth, async (ctx: AppContext) => {
    respondWithStoredFile(ctx, await messages.openMedia(authOf(ctx), intParam(ctx, 'messageId')));
  });
  router.get('/tickets/:ticketId/messaging-window', auth, async (ctx: AppContext) => {
    ctx.body = await sender.messagingWindow(authOf(ctx), intParam(ctx, 'ticketId'));
  });
  router.get('/tickets/:ticketId/templates', auth, async (ctx: AppContext) => {
    ctx.body = await sender.ticketTemplates(authOf(ctx), intParam(ctx, 'ticketId'));
  });
  router.get('/searchMessage', auth, validate(SearchMessageQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await messages.search(authOf(ctx), ctx.input);
  });
  router.get('/scheduleMessages', auth, validate(ScheduledMessagesQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await schedules.list(authOf(ctx), ctx.input);
  });

  // ---- fixed paths under /messages/ (before /messages/:ticketId) ----
  router.post('/messages/ghostMessage', auth, validate(GhostMessageSchema), async (ctx: AppContext) => {
    reply(ctx, await sender.ghost(authOf(ctx), ctx.input));
  });
  router.post('/messages/mentionMessage', auth, validate(MentionMessageSchema), async (ctx: AppContext) => {
    reply(ctx, await sender.mention(authOf(ctx), ctx.input));
  });
  router.post('/messages/mentionAllMessage', auth, validate(MentionAllMessageSchema), async (ctx: AppContext) => {
    reply(ctx, await sender.mentionAll(authOf(ctx), ctx.input));
  });
  router.post('/messages/listParticipants', auth, validate(ListParticipantsSchema), async (ctx: AppContext) => {
    ctx.body = await sender.listParticipants(authOf(ctx), ctx.input.ticketId);
  });
  router.post('/messages/reactionMessage', auth, validate(ReactionMessageSchema), async (ctx: AppContext) => {
    ctx.body = await sender.react(authOf(ctx), ctx.input);
  });
  router.post('/messages/editMessage', auth, validate(EditMessageSchema), async (ctx: AppContext) => {
    ctx.body = await sender.edit(authOf(ctx), ctx.input);
  });
  router.post('/messages/syncOld', auth, validate(SyncOldMessagesSchema), async (ctx: AppContext) => {
    ctx.body = await sender.syncOld(authOf(ctx), ctx.input);
  });
  router.post('/messages/syncOldByUser', auth, validate(SyncOldMessagesSchema), async (ctx: AppContext) => {
    ctx.body = await sender.syncOld(authOf(ctx), ctx.input);
  });
  router.post('/messages/sendBirthday', auth, validate(SendBirthdaySchema), async (ctx: AppContext) => {
    ctx.body = await birthdays.send(authOf(ctx), ctx.input);
  });
  router.post('/messages/:ticketId/template', auth, validate(SendTemplateSchema), async (ctx: AppContext) => {
    reply(ctx, await sender.sendTemplate(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input));
  });
  router.post('/messages/:id/retry', auth, async (ctx: AppContext) => {
    ctx.body = await sender.retry(authOf(ctx), intParam(ctx, 'id'));
  });

  // ---- one ticket's thread ----
  router.get('/messages/:ticketId', auth, validate(MessageListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await messages.list(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input);
  });
  router.post('/messages/:ticketId', auth, media, validate(SendMessageSchema, 'body', { echoed: ANCHOR_SEND_ECHOED }), async (ctx: AppContext) => {
    reply(ctx, await sender.send(authOf(ctx), intParam(ctx, 'ticketId'), await inTenantZone(ctx, ctx.input), mediaOf(ctx)));
  });
  router.patch('/messages/:id', auth, validate(UpdateMessageSchema), async (ctx: AppContext) => {
    const id = intParam(ctx, 'id');
    if (ctx.input.read) {
      ctx.body = await messages.markRead(authOf(ctx), id);
      return;
    }
    ctx.body = await schedules.update(authOf(ctx), id, await inTenantZone(ctx, ctx.input));
  });
  router.delete('/messages', auth, deleteBody, validate(DeleteMessageSchema), async (ctx: AppContext) => {
    ctx.body = await sender.remove(authOf(ctx), ctx.input);
  });
  // The anchor client's path: the provider id in the path (`null` for a message not sent yet)
  // and the message it shows as the body; the body's `id` names it, as above.
  router.delete('/messages/:messageId', auth, deleteBody, validate(DeleteMessageSchema), async (ctx: AppContext) => {
    const fromPath = ctx.params.messageId;
    const pathId = fromPath === 'null' || fromPath === 'undefined' ? null : fromPath;
    if (pathId !== null && ctx.input.messageId && ctx.input.messageId !== pathId) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'messageId', message: 'difere do id da mensagem no caminho' }] });
    }
    ctx.body = await sender.remove(authOf(ctx), { id: ctx.input.id, messageId: ctx.input.messageId ?? pathId });
  });

  // ---- scheduling, forwarding, queue-less send, buttons ----
  router.post('/messagesSchedule', auth, media, validate(ScheduleMessageSchema), async (ctx: AppContext) => {
    const { status, message } = await schedules.create(authOf(ctx), await inTenantZone(ctx, ctx.input), mediaOf(ctx));
    ctx.status = status;
    ctx.body = message;
  });
  router.delete('/messagesSchedule/:id', auth, async (ctx: AppContext) => {
    ctx.body = await schedules.update(authOf(ctx), intParam(ctx, 'id'), { status: 'canceled' });
  });
  router.post('/forward-messages', auth, validate(ForwardMessagesSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await sender.forward(authOf(ctx), ctx.input);
  });
  router.post('/noRedis', auth, media, validate(SendNowSchema, 'body', { echoed: ANCHOR_SEND_ECHOED }), async (ctx: AppContext) => {
    const { ticketId, ...input } = await inTenantZone(ctx, ctx.input);
    reply(ctx, await sender.sendNow(authOf(ctx), ticketId, input, mediaOf(ctx)));
  });
  router.post('/sendButton', auth, validate(SendButtonSchema), async (ctx: AppContext) => {
    reply(ctx, await sender.sendButtons(authOf(ctx), ctx.input));
  });

  return router;
}
