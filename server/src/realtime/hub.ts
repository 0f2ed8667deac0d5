import type { Server as HttpServer } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { SOCKET_EVENTS, type InvalidTokenPayload } from '@shared/events';
import { AppError } from '../core/app-error';
import { watchRedis } from '../core/redis-watch';
import type { AuthContext } from '../core/auth-context';
import type { DomainEvent } from '../db/entities';
import { preparedQuery } from '../db/prepared';
import type { AppDeps } from '../deps';
import { decideOrigin, hostOf } from '../http/origin-policy';
import { authenticate } from '../modules/auth/require-auth';
import { chatSocketHandlers } from '../modules/internal-chat/internal-chat.socket';
import { TicketViewerLoader } from '../modules/tickets/ticket-viewer';
import { TICKET_SELECT, presentTicket, type TicketRow } from '../modules/tickets/tickets.presenter';
import type { TicketViewer } from '../modules/tickets/ticket-visibility.policy';
import { anchorEventsFor, needsTicket } from './anchor-events';
import { AnchorQueue } from './anchor-queue';
import { deliveryFor, roomsFor, roomsOf } from './audience';
import { toEnvelope, type EventPublisher } from './domain-events';
import { trackPresence } from './presence';

/** Server-to-server messages (Redis adapter): every process fans out to its own sockets. */
const TICKET_FANOUT = 'atende:ticket-event';
const FACTS_CHANGED = 'atende:viewer-facts';

interface FactsChanged {
  tenantId: number;
  /** One user's profile or queues changed; absent: the tenant's settings changed. */
  userId?: number;
}

export interface RealtimeHub extends EventPublisher {
  io: SocketServer;
  close(): Promise<void>;
}

/**
 * Socket.IO with the access token checked at handshake. Committed domain events go only to the
 * rooms their audience allows, as `event` (the envelope with its seq, for replay bookkeeping),
 * as `<tenantId>:<name>`, and translated to the anchor client's own events
 * (`<tenantId>:ticketList`, `:contactList`, `:whatsapp`; see anchor-events.ts) for the same
 * recipients.
 */
export function createRealtimeHub(httpServer: HttpServer, deps: AppDeps): RealtimeHub {
  const { corsOrigins, trustProxy } = deps.config;
  const io = new SocketServer(httpServer, {
    // The HTTP API's origin rule (http/origin-policy.ts), for polling's CORS headers...
    cors: (req, callback) => {
      const decision = decideOrigin(req.headers.origin, hostOf(req, trustProxy), corsOrigins);
      const allowed = decision.kind === 'allowed';
      callback(null, { origin: allowed ? (decision.credentials ? req.headers.origin : '*') : false, credentials: allowed && decision.credentials });
    },
    // ...and for every handshake, WebSocket included (browsers apply no CORS to WebSockets).
    allowRequest: (req, callback) => callback(null, decideOrigin(req.headers.origin, hostOf(req, trustProxy), corsOrigins).kind !== 'refused'),
    transports: ['websocket', 'polling'],
    serveClient: false,
  });
  const adapterClients: Redis[] = [];
  if (deps.redis) {
    const pub = watchRedis(deps.redis.duplicate(), deps.logger, 'sockets (publish)');
    const sub = watchRedis(deps.redis.duplicate(), deps.logger, 'sockets (subscribe)');
    adapterClients.push(pub, sub);
    // The channel key carries the deployment's prefix: servers of another deployment (or a
    // parallel test server) on the same Redis never receive these broadcasts.
    io.adapter(createAdapter(pub, sub, { key: `${deps.keyPrefix ?? 'atende'}:socket.io` }));
  }
  let closing = false;
  /** Modules' handlers of client messages, attached to every authenticated socket. */
  const moduleHandlers = [chatSocketHandlers(deps, io)];
  const viewers = new TicketViewerLoader(deps);
  const clustered = Boolean(deps.redis);

  /** Anchor events of one tenant leave in the order of its events; new messages carry their ticket, read per batch. */
  const anchors = new AnchorQueue(
    async (tenantId, ids) => {
      const rows = (await preparedQuery(deps.dataSource.manager, `${TICKET_SELECT} WHERE t.id = ANY($1::int[]) AND t."tenantId" = $2`, [
        ids,
        tenantId,
      ])) as TicketRow[];
      return new Map(rows.map((row) => [row.id, presentTicket(row)]));
    },
    (err, tenantId) => deps.logger.warn({ err, tenantId }, 'could not emit anchor socket events'),
  );
  /** Anchor events of a ticket event to the local sockets that received the event itself. */
  const emitAnchorToSockets = (event: DomainEvent, sockets: Socket[]) =>
    anchors.enqueue(event.tenantId, {
      ticketId: needsTicket(event.name) && event.audience.scope === 'ticket' ? event.audience.ticket.ticketId : null,
      run: (ticket) => {
        const emits = anchorEventsFor(event, ticket);
        for (const socket of sockets) {
          if (!socket.connected) continue;
          for (const e of emits) socket.emit(`${event.tenantId}:${e.name}`, e.payload);
        }
      },
    });
  const emitAnchorToRooms = (event: DomainEvent, rooms: string[]) =>
    anchors.enqueue(event.tenantId, {
      ticketId: null,
      run: () => {
        for (const e of anchorEventsFor(event)) io.to(rooms).emit(`${event.tenantId}:${e.name}`, e.payload);
      },
    });

  // A bad token does not fail the handshake: the socket is accepted just long enough to be told
  // why (spec section 7: the client reacts to the invalid-token event by going to login),
  // which a rejected handshake (connect_error) could not carry to clients of the anchor API.
  io.use(async (socket, next) => {
    const token =
      (socket.handshake.auth as { token?: string } | undefined)?.token ??
      (typeof socket.handshake.query.token === 'string' ? socket.handshake.query.token : undefined);
    try {
      const auth = await authenticate(deps.dataSource, deps.config.jwtSecret, token);
      socket.data.auth = auth;
      // Per-socket facts for ticket visibility, kept fresh by user:update and settings:update.
      socket.data.viewer = await viewers.load(auth);
    } catch (err) {
      if (!(err instanceof AppError)) {
        // Not the token's fault (database down): refuse this try, the client reconnects later
        // instead of being sent to the login screen.
        deps.logger.error({ err }, 'socket authentication failed');
        return next(new Error('ERR_INTERNAL'));
      }
      socket.data.authError = err;
    }
    next();
  });

  io.on('connection', (socket: Socket) => {
    const authError = socket.data.authError as AppError | undefined;
    if (authError) {
      const payload: InvalidTokenPayload = { error: authError.code, message: authError.message };
      socket.emit(SOCKET_EVENTS.invalidToken, payload);
      socket.disconnect(true);
      return;
    }
    const auth = socket.data.auth as AuthContext;
    void socket.join([...roomsOf(auth), `session:${auth.sessionId}`]);
    for (const attach of moduleHandlers) attach(socket, auth);
    trackPresence(io, deps, socket, auth, () => closing);
  });

  /**
   * Ticket events go to each local socket of the tenant that may see the ticket (or that just
   * lost sight of it: ticket:delete). Every process runs this for its own sockets.
   */
  const fanOutLocally = (event: DomainEvent) => {
    const room = io.of('/').adapter.rooms.get(`tenant:${event.tenantId}`);
    if (!room) return;
    const envelope = toEnvelope(event);
    const seeing: Socket[] = [];
    for (const id of room) {
      const socket = io.of('/').sockets.get(id);
      const auth = socket?.data.auth as AuthContext | undefined;
      if (!socket || !auth) continue;
      const delivery = deliveryFor({ ...auth, viewer: socket.data.viewer as TicketViewer | undefined }, event);
      if (!delivery) continue;
      socket.emit('event', { ...envelope, name: delivery.name, payload: delivery.payload });
      socket.emit(`${event.tenantId}:${delivery.name}`, delivery.payload);
      // A socket that only lost sight of the ticket (ticket:delete) gets no anchor event: the
      // anchor has no "leave the list" event, and the ticket's new facts are not for it.
      if (delivery.name === event.name) seeing.push(socket);
    }
    if (seeing.length > 0) emitAnchorToSockets(event, seeing);
  };

  /** Reloads the ticket-visibility facts of local sockets after a user or settings change. */
  const refreshLocally = async (change: FactsChanged) => {
    if (change.userId === undefined) viewers.invalidateSettings(change.tenantId);
    const room = io.of('/').adapter.rooms.get(change.userId === undefined ? `tenant:${change.tenantId}` : `user:${change.userId}`);
    if (!room) return;
    const sockets = [...room].map((id) => io.of('/').sockets.get(id)).filter((s): s is Socket => Boolean(s?.data.auth));
    const userIds = [...new Set(sockets.map((s) => (s.data.auth as AuthContext).userId))];
    const fresh = new Map((await viewers.loadMany(change.tenantId, userIds)).map((v) => [v.userId, v]));
    for (const socket of sockets) {
      const auth = socket.data.auth as AuthContext;
      const viewer = fresh.get(auth.userId);
      if (!viewer || auth.tenantId !== change.tenantId) continue;
      if (viewer.profile !== auth.profile) {
        // The profile rooms (profiles-scoped events) follow a role change at once.
        void socket.leave(`tenant:${auth.tenantId}:profile:${auth.profile}`);
        void socket.join(`tenant:${auth.tenantId}:profile:${viewer.profile}`);
        socket.data.auth = { ...auth, profile: viewer.profile };
      }
      socket.data.viewer = viewer;
    }
  };
  const refresh = (change: FactsChanged) =>
    void refreshLocally(change).catch((err) => deps.logger.warn({ err, ...change }, 'could not refresh socket visibility facts'));

  io.on(TICKET_FANOUT, (event: DomainEvent) => fanOutLocally(event));
  io.on(FACTS_CHANGED, (change: FactsChanged) => refresh(change));

  return {
    io,
    publish(event: DomainEvent) {
      // Shutting down: the sockets are going and the Redis clients closing; clients of this
      // event replay it with GET /sync after reconnecting elsewhere.
      if (closing) return;
      if (event.audience.scope === 'ticket') {
        fanOutLocally(event);
        if (clustered) io.serverSideEmit(TICKET_FANOUT, event);
        return;
      }
      const rooms = roomsFor(event.tenantId, event.audience);
      if (rooms.length > 0) {
        const envelope = toEnvelope(event);
        io.to(rooms).emit('event', envelope);
        io.to(rooms).emit(`${event.tenantId}:${event.name}`, event.payload);
        emitAnchorToRooms(event, rooms);
      }
      const change = factsChangeOf(event);
      if (change) {
        refresh(change);
        if (clustered) io.serverSideEmit(FACTS_CHANGED, change);
      }
    },
    async close() {
      closing = true;
      // Anchor events already under way finish first (they may be reading a ticket).
      await anchors.idle();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      for (const c of adapterClients) await c.quit().catch(() => c.disconnect());
    },
  };
}

/** Events after which sockets' visibility facts are stale: a user's profile or queues, the settings. */
function factsChangeOf(event: DomainEvent): FactsChanged | null {
  if (event.name === SOCKET_EVENTS.settingsUpdate) return { tenantId: event.tenantId };
  if (event.name === SOCKET_EVENTS.userUpdate) {
    const userId = event.audience.scope === 'user' ? event.audience.userId : (event.payload as { user?: { id?: number } } | null)?.user?.id;
    return typeof userId === 'number' ? { tenantId: event.tenantId, userId } : { tenantId: event.tenantId };
  }
  return null;
}
