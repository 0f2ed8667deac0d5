import type { Server as HttpServer } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { SOCKET_EVENTS, type InvalidTokenPayload } from '@shared/events';
import { AppError } from '../core/app-error';
import type { AuthContext } from '../core/auth-context';
import type { DomainEvent } from '../db/entities';
import type { AppDeps } from '../deps';
import { authenticate } from '../modules/auth/require-auth';
import { roomsFor, roomsOf } from './audience';
import { toEnvelope, type EventPublisher } from './domain-events';

export interface RealtimeHub extends EventPublisher {
  io: SocketServer;
  close(): Promise<void>;
}

/**
 * Socket.IO with the access token checked at handshake. Committed domain events go only to the
 * rooms their audience allows, as `event` (the envelope with its seq, for replay bookkeeping)
 * and as `<tenantId>:<name>` (the anchor clients' event naming).
 */
export function createRealtimeHub(httpServer: HttpServer, deps: AppDeps): RealtimeHub {
  const io = new SocketServer(httpServer, {
    cors: { origin: true, credentials: true },
    transports: ['websocket', 'polling'],
    serveClient: false,
  });
  const adapterClients: Redis[] = [];
  if (deps.redis) {
    const pub = deps.redis.duplicate();
    const sub = deps.redis.duplicate();
    adapterClients.push(pub, sub);
    // The channel key carries the deployment's prefix: servers of another deployment (or a
    // parallel test server) on the same Redis never receive these broadcasts.
    io.adapter(createAdapter(pub, sub, { key: `${deps.keyPrefix ?? 'atende'}:socket.io` }));
  }
  let closing = false;

  // A bad token does not fail the handshake: the socket is accepted just long enough to be told
  // why (spec section 7: the client reacts to the invalid-token event by going to login),
  // which a rejected handshake (connect_error) could not carry to clients of the anchor API.
  io.use(async (socket, next) => {
    const token =
      (socket.handshake.auth as { token?: string } | undefined)?.token ??
      (typeof socket.handshake.query.token === 'string' ? socket.handshake.query.token : undefined);
    try {
      socket.data.auth = await authenticate(deps.dataSource, deps.config.jwtSecret, token);
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
    socket.on(`${auth.tenantId}:${SOCKET_EVENTS.setUserActive}`, () => void markOnline(deps, auth, true));
    socket.on('disconnect', () => {
      // On shutdown the user is not leaving: another server takes the reconnect.
      if (closing) return;
      void stillConnected(io, auth.userId)
        .then((connected) => (connected ? undefined : markOnline(deps, auth, false)))
        .catch((err) => deps.logger.warn({ err, userId: auth.userId }, 'could not check remaining sockets'));
    });
  });

  return {
    io,
    publish(event: DomainEvent) {
      const envelope = toEnvelope(event);
      const rooms = roomsFor(event.tenantId, event.audience);
      if (rooms.length === 0) return;
      io.to(rooms).emit('event', envelope);
      io.to(rooms).emit(`${event.tenantId}:${event.name}`, event.payload);
    },
    async close() {
      closing = true;
      await new Promise<void>((resolve) => io.close(() => resolve()));
      for (const c of adapterClients) await c.quit().catch(() => c.disconnect());
    },
  };
}

async function stillConnected(io: SocketServer, userId: number): Promise<boolean> {
  const sockets = await io.in(`user:${userId}`).fetchSockets();
  return sockets.length > 0;
}

/**
 * `{tenantId}:setUserActive` marks the user online and tells the tenant (user status update);
 * the user's last socket leaving marks them offline. Only a change is announced: clients send
 * setUserActive on every reconnect, and a user who never went online does not "leave".
 */
async function markOnline(deps: AppDeps, auth: AuthContext, online: boolean): Promise<void> {
  try {
    await deps.events.transaction(async (tx, emit) => {
      const [user] = (await tx.query(`SELECT "isOnline" FROM users WHERE id = $1 AND "tenantId" = $2 FOR UPDATE`, [
        auth.userId,
        auth.tenantId,
      ])) as { isOnline: boolean }[];
      if (!user) return;
      await tx.query(`UPDATE users SET "isOnline" = $1, "lastOnline" = now() WHERE id = $2`, [online, auth.userId]);
      if (user.isOnline !== online) {
        await emit(auth.tenantId, SOCKET_EVENTS.userStatus, { userId: auth.userId, isOnline: online });
      }
    });
  } catch (err) {
    deps.logger.warn({ err, userId: auth.userId }, 'could not update online status');
  }
}
