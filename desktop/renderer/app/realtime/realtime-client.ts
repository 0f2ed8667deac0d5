import { SOCKET_EVENTS, type DomainEventEnvelope, type SyncResponse } from '@shared/events';
import { CHAT_SOCKET_EVENTS } from '@shared/schemas/internal-chat';
import type { UserPresenceInput } from '@shared/schemas/users';

/**
 * The Socket.IO client of spec section 7: token authentication, automatic reconnection trying
 * websocket then polling, a reconnect after a server-initiated disconnect unless the token was
 * refused, `<tenantId>:setUserActive` after each connect, the app's idle state (`user:presence`,
 * issue #18), and replay of missed events.
 *
 * Every event carries a per-tenant `seq`. The client remembers the last one it applied; after a
 * reconnect it asks GET /sync?since=<seq> and applies what it missed, in order, before the
 * events that arrive live meanwhile (which are held back until the replay is done). When the
 * server answers `reload: true`, or the client never saw a seq, it refetches instead.
 */

/** The part of a socket.io-client Socket this module uses (a fake in tests). */
export interface SocketLike {
  on(event: string, listener: (...args: any[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export interface SocketOptions {
  auth: (cb: (data: { token: string | null }) => void) => void;
  reconnection: true;
  transports: ['websocket', 'polling'];
}

export interface RealtimeClientDeps {
  createSocket(options: SocketOptions): SocketLike;
  getToken(): string | null;
  tenantId: number;
  fetchSince(seq: number): Promise<SyncResponse>;
  onEvent(event: DomainEventEnvelope): void;
  /** Refetch everything: the gap cannot be replayed. */
  onResyncRequired(): void;
  /** The server refused the token (with its error code): log out and go to login. */
  onTokenInvalid(code: string | undefined): void;
  /** The access token expired at handshake: get a new one; false when that is refused. */
  refreshToken(): Promise<boolean>;
  onError?(error: unknown): void;
  /** The socket connected (true) or lost its connection (false): the console's offline banner. */
  onConnectionChange?(connected: boolean): void;
  /** Every envelope the socket delivers, as received (before de-duplication): the desktop's cache sync. */
  onEnvelope?(event: DomainEventEnvelope): void;
  /**
   * Events sent outside the seq stream (no envelope, never replayed: the internal chat's typing
   * indicator), by their plain name.
   */
  volatile?: { names: readonly string[]; handle(name: string, payload: unknown): void };
}

/** What this app says of its user: active, or idle (app/session/presence-tracker.ts). */
export type AppPresence = UserPresenceInput['presence'];

export interface RealtimeClient {
  connect(): void;
  disconnect(): void;
  lastSeq(): number | null;
  /** Tells the server at once when connected, and again after every reconnect while away. */
  setPresence(presence: AppPresence): void;
  /** Sends a client event (e.g. `chat:typing`) when connected; false when there is no live socket. */
  emit(name: string, payload: unknown): boolean;
}

const isEnvelope = (value: unknown): value is DomainEventEnvelope =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as DomainEventEnvelope).seq === 'number' &&
  typeof (value as DomainEventEnvelope).name === 'string';

export function createRealtimeClient(deps: RealtimeClientDeps): RealtimeClient {
  let socket: SocketLike | null = null;
  let connected = false;
  let lastSeq: number | null = null;
  let connectedBefore = false;
  let tokenRefused = false;
  let closedByClient = false;
  let refreshing = false;
  let replaying = false;
  let heldBack: DomainEventEnvelope[] = [];
  let presence: AppPresence = 'online';

  const apply = (event: DomainEventEnvelope) => {
    if (lastSeq !== null && event.seq <= lastSeq) return; // already applied (replay overlap)
    lastSeq = event.seq;
    deps.onEvent(event);
  };

  const refuseToken = (code?: string) => {
    if (tokenRefused) return;
    tokenRefused = true;
    socket?.disconnect();
    deps.onTokenInvalid(code);
  };

  async function replay() {
    if (lastSeq === null) {
      deps.onResyncRequired();
      return;
    }
    replaying = true;
    try {
      const answer = await deps.fetchSince(lastSeq);
      if (answer.reload) {
        deps.onResyncRequired();
        lastSeq = answer.lastSeq;
      } else {
        for (const event of [...answer.events].sort((a, b) => a.seq - b.seq)) apply(event);
        if (lastSeq === null || answer.lastSeq > lastSeq) lastSeq = answer.lastSeq;
      }
    } catch (error) {
      // The replay failed (offline again, server restarting): refetching is the safe answer.
      deps.onError?.(error);
      deps.onResyncRequired();
    } finally {
      replaying = false;
      const pending = heldBack.sort((a, b) => a.seq - b.seq);
      heldBack = [];
      for (const event of pending) apply(event);
    }
  }

  function connect() {
    if (socket) return;
    closedByClient = false;
    tokenRefused = false;
    const current = deps.createSocket({
      auth: (cb) => cb({ token: deps.getToken() }),
      reconnection: true,
      transports: ['websocket', 'polling'],
    });
    socket = current;

    current.on('connect', () => {
      connected = true;
      deps.onConnectionChange?.(true);
      // An idle app says so before announcing itself: its user goes straight to away, not online first.
      if (presence === 'away') current.emit(CHAT_SOCKET_EVENTS.presence, { presence } satisfies UserPresenceInput);
      current.emit(`${deps.tenantId}:${SOCKET_EVENTS.setUserActive}`);
      if (connectedBefore) void replay();
      connectedBefore = true;
    });

    for (const name of deps.volatile?.names ?? []) current.on(name, (payload: unknown) => deps.volatile?.handle(name, payload));

    current.on('event', (event: unknown) => {
      if (!isEnvelope(event)) return;
      deps.onEnvelope?.(event);
      if (replaying) heldBack.push(event);
      else apply(event);
    });

    // An expired access token is renewed once and the socket reconnects with the new one; any
    // other refusal (revoked session, bad signature) ends the session.
    const rejected = (code: string | undefined) => {
      if (code !== 'ERR_SESSION_EXPIRED') {
        refuseToken(code);
        return;
      }
      if (refreshing) return;
      refreshing = true;
      void deps
        .refreshToken()
        .catch(() => false)
        .then((ok) => {
          refreshing = false;
          if (!ok) refuseToken(code);
          else if (!closedByClient) current.connect();
        });
    };

    // The server accepts a socket with a bad token just long enough to say why, then closes it.
    current.on(SOCKET_EVENTS.invalidToken, (payload?: { error?: string }) => rejected(payload?.error));

    current.on('disconnect', (reason: string) => {
      connected = false;
      deps.onConnectionChange?.(false);
      // Socket.IO does not reconnect by itself after the server closed the connection.
      if (reason === 'io server disconnect' && !tokenRefused && !closedByClient && !refreshing) current.connect();
    });

    // Servers that refuse the handshake itself carry the reason in the error's data.
    current.on('connect_error', (error: { data?: { error?: string; event?: string } }) => {
      deps.onConnectionChange?.(false);
      const code = error?.data?.error;
      if (code === 'ERR_SESSION_EXPIRED' || code === 'ERR_INVALID_TOKEN' || error?.data?.event === SOCKET_EVENTS.invalidToken)
        rejected(code);
    });
  }

  return {
    connect,
    disconnect() {
      closedByClient = true;
      connected = false;
      socket?.disconnect();
      socket = null;
    },
    lastSeq: () => lastSeq,
    setPresence(next) {
      if (next === presence) return;
      presence = next;
      // While disconnected nothing is sent: the next connect reports it (see 'connect').
      if (connected) socket?.emit(CHAT_SOCKET_EVENTS.presence, { presence: next } satisfies UserPresenceInput);
    },
    emit(name, payload) {
      if (!socket || !connected) return false;
      socket.emit(name, payload);
      return true;
    },
  };
}
