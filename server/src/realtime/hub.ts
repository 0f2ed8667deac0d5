import type { Server as HttpServer } from 'node:http';
import { Server as SocketServer, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { SOCKET_EVENTS } from '@shared/events';
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
  if (deps.redis) {
    const pub = deps.redis.duplicate();
    const sub = deps.redis.duplicate();
    io.adapter(createAdapter(pub, sub));
  }

  io.use(async (socket, next) => {
    const token =
      (socket.handshake.auth as { token?: string } | undefined)?.token ??
      (typeof socket.handshake.query.token === 'string' ? socket.handshake.query.token : undefined);
    try {
      socket.data.auth = await authenticate(deps.dataSource, deps.config.jwtSecret, token);
      next();
    } catch (err) {
      const code = err instanceof AppError ? err.code : 'ERR_INVALID_TOKEN';
      const error = new Error(code) as Error & { data?: unknown };
      error.data = { error: code, event: SOCKET_EVENTS.invalidToken };
      next(error);
    }
  });

  io.on('connection', (socket: Socket) => {
    const auth = socket.data.auth as AuthContext;
    for (const room of roomsOf(auth)) void socket.join(room);
    socket.on(`${auth.tenantId}:${SOCKET_EVENTS.setUserActive}`, () => void markOnline(deps, auth, true));
    socket.on('disconnect', () => {
      void stillConnected(io, auth.userId).then((connected) => {
        if (!connected) void markOnline(deps, auth, false);
      });
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
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

async function stillConnected(io: SocketServer, userId: number): Promise<boolean> {
  const sockets = await io.in(`user:${userId}`).fetchSockets();
  return sockets.length > 0;
}

/** `{tenantId}:setUserActive` marks the user online and tells the tenant (user status update). */
async function markOnline(deps: AppDeps, auth: AuthContext, online: boolean): Promise<void> {
  try {
    await deps.events.transaction(async (tx, emit) => {
      await tx.query(`UPDATE users SET "isOnline" = $1, "lastOnline" = now() WHERE id = $2 AND "tenantId" = $3`, [
        online,
        auth.userId,
        auth.tenantId,
      ]);
      await emit(auth.tenantId, SOCKET_EVENTS.userStatus, { userId: auth.userId, isOnline: online });
    });
  } catch (err) {
    deps.logger.warn({ err, userId: auth.userId }, 'could not update online status');
  }
}
