import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { scheduleTicketSweeps } from './ticket-closing';
import { TicketNotesService } from './ticket-notes.service';
import { authorizeTicketRecords } from './ticket-records.policy';
import { TicketRecordsService } from './ticket-records.service';
import {
  CreateTicketNoteSchema,
  CreateTicketSchema,
  ForceTicketSchema,
  MassTransferSchema,
  NullUserTicketSchema,
  TicketChannelIdSchema,
  TicketChatBotSchema,
  TicketListQuerySchema,
  TicketRatingSchema,
  TicketRecordsQuerySchema,
  TicketsChannelSchema,
  TicketsClearQuerySchema,
  TicketsMarkAllReadQuerySchema,
  UpdateTicketSchema,
} from './tickets.schema';
import { TicketsService } from './tickets.service';

/**
 * Ticket routes: the paths of spec section 7 ("Tickets"), plus notes, rating, spy and mass
 * transfer in the same style. Each route: auth -> validate(zod) -> handler. Fixed paths under
 * /tickets are declared before /tickets/:ticketId. The deferred-close and idle sweeps start here.
 */
export function ticketsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const tickets = new TicketsService(deps);
  const notes = new TicketNotesService(deps);
  const records = new TicketRecordsService(deps);
  // Protocols and notes across tickets: the profile is checked before the query is read.
  const recordsAllowed: Middleware = async (ctx, next) => {
    authorizeTicketRecords(authOf(ctx as AppContext));
    await next();
  };
  scheduleTicketSweeps(deps);

  router.get('/tickets', auth, validate(TicketListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await tickets.list(authOf(ctx), ctx.input);
  });

  // The anchor marks an agent-opened ticket `isActiveDemand: true`; every ticket opened here is one.
  router.post('/tickets', auth, validate(CreateTicketSchema, 'body', { echoed: ['isActiveDemand'] }), async (ctx: AppContext) => {
    const { ticket, created } = await tickets.create(authOf(ctx), ctx.input);
    ctx.status = created ? 201 : 200;
    ctx.body = ticket;
  });

  router.post('/tickets/mass-transfer', auth, validate(MassTransferSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.massTransfer(authOf(ctx), ctx.input);
  });

  router.get('/protocol', auth, recordsAllowed, validate(TicketRecordsQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await records.protocols(authOf(ctx), ctx.input);
  });

  router.get('/tickets/notes', auth, recordsAllowed, validate(TicketRecordsQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await records.notes(authOf(ctx), ctx.input);
  });

  router.delete('/tickets/notes/:noteId', auth, async (ctx: AppContext) => {
    await notes.remove(authOf(ctx), intParam(ctx, 'noteId'));
    ctx.status = 204;
  });

  router.get('/tickets/:ticketId', auth, async (ctx: AppContext) => {
    ctx.body = await tickets.get(authOf(ctx), intParam(ctx, 'ticketId'));
  });

  router.put('/tickets/:ticketId', auth, validate(UpdateTicketSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.update(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input);
  });

  router.get('/tickets/:ticketId/logs', auth, async (ctx: AppContext) => {
    ctx.body = await tickets.logs(authOf(ctx), intParam(ctx, 'ticketId'));
  });

  router.post('/tickets/:ticketId/spy', auth, async (ctx: AppContext) => {
    ctx.body = await tickets.spy(authOf(ctx), intParam(ctx, 'ticketId'));
  });

  router.get('/tickets/:ticketId/notes', auth, async (ctx: AppContext) => {
    ctx.body = await notes.list(authOf(ctx), intParam(ctx, 'ticketId'));
  });

  router.post('/tickets/:ticketId/notes', auth, validate(CreateTicketNoteSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await notes.add(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input.note);
  });

  router.post('/tickets/:ticketId/rating', auth, validate(TicketRatingSchema), async (ctx: AppContext) => {
    ctx.body = await notes.rate(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input.rating);
  });

  router.put('/ticketsForce/:ticketId', auth, validate(ForceTicketSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.force(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input);
  });

  router.put('/ticketsNull/:ticketId', auth, validate(NullUserTicketSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.nullUser(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input);
  });

  router.put('/ticketsChatBot/:ticketId', auth, validate(TicketChatBotSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.chatBot(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input);
  });

  router.put('/ticketsChannelId/:ticketId', auth, validate(TicketChannelIdSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.moveToChannel(authOf(ctx), intParam(ctx, 'ticketId'), ctx.input);
  });

  router.put('/ticketsChannel', auth, validate(TicketsChannelSchema), async (ctx: AppContext) => {
    ctx.body = await tickets.moveChannelTickets(authOf(ctx), ctx.input);
  });

  router.get('/ticketsClear', auth, validate(TicketsClearQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await tickets.clearChannel(authOf(ctx), ctx.input);
  });

  router.get('/ticketsMarkAllUnread', auth, validate(TicketsMarkAllReadQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await tickets.markAllRead(authOf(ctx), ctx.input);
  });

  router.post('/pending/resolvePending', auth, async (ctx: AppContext) => {
    ctx.body = await tickets.resolvePending(authOf(ctx));
  });

  return router;
}
