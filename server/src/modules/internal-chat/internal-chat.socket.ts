import type { Server as SocketServer, Socket } from 'socket.io';
import { CHAT_SOCKET_EVENTS, ChatTypingSchema, type ChatKind, type ChatTypingPayload } from '@shared/schemas/internal-chat';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { loadConversation } from './internal-chat.policy';

/** A socket's `chat:typing` for one conversation is relayed at most this often (a client sends it while keys are pressed). */
export const TYPING_RELAY_MIN_INTERVAL_MS = 1000;
/** Conversations a socket remembers for that throttle; past it the memory starts over. */
const TYPING_MEMORY_MAX = 200;

/** Attaches a module's client-message handlers to a connected, authenticated socket (realtime/hub.ts calls it). */
export type SocketHandlers = (socket: Socket, auth: AuthContext) => void;

/**
 * The typing indicator: a client's `chat:typing` {kind, id} (or `<tenantId>:chat:typing`) is
 * relayed as `chat:typing` {kind, id, userId, userName} (and `<tenantId>:chat:typing`) to the
 * conversation's OTHER users only: the other user of a one-to-one, the team's current members.
 * The same rule as every chat route (loadConversation): a conversation the sender is not part of
 * (another tenant's user, a team they are not in) relays nothing. It is ephemeral: not a domain
 * event, no seq, nothing stored, not replayed by /sync. Bad payloads are ignored (a socket
 * message has no answer to carry an error).
 */
export function chatSocketHandlers(deps: Pick<AppDeps, 'dataSource' | 'logger'>, io: SocketServer): SocketHandlers {
  return (socket, initialAuth) => {
    const relayed = new Map<string, number>();
    const onTyping = (raw: unknown) => {
      const parsed = ChatTypingSchema.safeParse(raw);
      if (!parsed.success) return;
      const { kind, id } = parsed.data;
      const tag = `${kind}:${id}`;
      const now = Date.now();
      if (now - (relayed.get(tag) ?? 0) < TYPING_RELAY_MIN_INTERVAL_MS) return;
      if (relayed.size >= TYPING_MEMORY_MAX) relayed.clear();
      relayed.set(tag, now);
      // The hub keeps socket.data.auth current (a profile change); the user and tenant do not change.
      const auth = (socket.data.auth as AuthContext | undefined) ?? initialAuth;
      void relayTyping(deps, io, auth, kind, id).catch((err: unknown) => {
        if (!(err instanceof AppError)) deps.logger.warn({ err, userId: auth.userId }, 'could not relay chat:typing');
      });
    };
    socket.on(CHAT_SOCKET_EVENTS.typing, onTyping);
    socket.on(`${initialAuth.tenantId}:${CHAT_SOCKET_EVENTS.typing}`, onTyping);
  };
}

async function relayTyping(
  deps: Pick<AppDeps, 'dataSource'>,
  io: SocketServer,
  auth: AuthContext,
  kind: ChatKind,
  id: number,
): Promise<void> {
  const conversation = await loadConversation(deps.dataSource, auth, kind, id);
  const me = conversation.users.find((u) => u.id === auth.userId);
  const others = conversation.users.filter((u) => u.id !== auth.userId).map((u) => `user:${u.id}`);
  if (!me || others.length === 0) return;
  // As the recipient names the conversation: the typing user for a one-to-one, the team for a room.
  const payload: ChatTypingPayload = { kind, id: kind === 'user' ? auth.userId : id, userId: auth.userId, userName: me.name };
  io.to(others).emit(CHAT_SOCKET_EVENTS.typing, payload);
  io.to(others).emit(`${auth.tenantId}:${CHAT_SOCKET_EVENTS.typing}`, payload);
}
