import type { Server as SocketServer, Socket } from 'socket.io';
import { SOCKET_EVENTS } from '@shared/events';
import { CHAT_SOCKET_EVENTS, type Presence } from '@shared/schemas/internal-chat';
import { UserPresenceSchema } from '@shared/schemas/users';
import type { AuthContext } from '../core/auth-context';
import type { AppDeps } from '../deps';
import { settlePresence } from '../modules/users/presence';

/** What one socket says of its user: unset until its app announces itself. */
export type SocketPresence = 'online' | 'away';

/**
 * A user's presence from their sockets' (issue #18): online while any announced socket is
 * active, away when every announced one reported idle, offline when none is connected. A socket
 * counts once its app announced itself (`<tenantId>:setUserActive`, or `user:presence`), as the
 * anchor's client does after each connect; a bare connection does not make a user online.
 */
export function presenceFromSockets(states: readonly (SocketPresence | undefined)[]): Presence {
  let away = false;
  for (const state of states) {
    if (state === 'online') return 'online';
    if (state === 'away') away = true;
  }
  return away ? 'away' : 'offline';
}

/**
 * Presence of one socket's user: `<tenantId>:setUserActive` (the socket is active, unless it
 * already said it is idle), `user:presence` {presence: 'online'|'away'} (the app's idle counter),
 * and leaving. Each settles the user's presence from all their sockets, on every server process
 * (fetchSockets goes through the Redis adapter), and the tenant hears `user:status` when it
 * changed. A malformed `user:presence` is ignored; an acknowledgement, when asked, carries the
 * error.
 */
export function trackPresence(
  io: SocketServer,
  deps: Pick<AppDeps, 'events' | 'logger'>,
  socket: Socket,
  auth: AuthContext,
  closing: () => boolean,
): void {
  const settle = () =>
    settlePresence(deps, auth, async () => {
      const sockets = await io.in(`user:${auth.userId}`).fetchSockets();
      return presenceFromSockets(sockets.map((s) => (s.data as { presence?: SocketPresence }).presence));
    }).catch((err) => {
      deps.logger.warn({ err, userId: auth.userId }, 'could not update presence');
      return null;
    });

  socket.on(`${auth.tenantId}:${SOCKET_EVENTS.setUserActive}`, () => {
    socket.data.presence ??= 'online';
    void settle();
  });

  socket.on(CHAT_SOCKET_EVENTS.presence, (...args: unknown[]) => {
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (answer: unknown) => void) : undefined;
    const parsed = UserPresenceSchema.safeParse(args[0]);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message }));
      ack?.({
        error: 'ERR_VALIDATION',
        message: `Ops! Verifique os erros... ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`,
        fields,
      });
      return;
    }
    socket.data.presence = parsed.data.presence;
    void settle().then((presence) => ack?.({ presence }));
  });

  socket.on('disconnect', () => {
    // On shutdown the user is not leaving: another server takes the reconnect.
    if (closing()) return;
    void settle();
  });
}
