import { randomUUID } from 'node:crypto';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import type { DomainEventEnvelope, InvalidTokenPayload } from '@shared/events';
import type { TestServer, TestUser } from '../../../tests/helpers/test-server';
import { signAccessToken } from '../modules/auth/tokens';

/**
 * Test support for the realtime suites. Sessions are minted directly (an auth_sessions row and a
 * signed access token) so these suites exercise the socket and /sync, not the login flow.
 */
export async function issueToken(server: TestServer, user: TestUser, opts: { ttlSeconds?: number } = {}): Promise<{ token: string; sessionId: string }> {
  const sessionId = randomUUID();
  await server.deps.dataSource.query(
    `INSERT INTO auth_sessions (id, "tenantId", "userId", "expiresAt") VALUES ($1, $2, $3, now() + interval '1 day')`,
    [sessionId, user.tenantId, user.id],
  );
  const token = signAccessToken(
    server.deps.config.jwtSecret,
    { sub: String(user.id), tid: user.tenantId, sid: sessionId, profile: user.profile },
    opts.ttlSeconds ?? 900,
  );
  return { token, sessionId };
}

/** A client socket that records everything it receives, as the desktop app's socket would. */
export interface RecordingSocket {
  socket: ClientSocket;
  /** `event` envelopes, in arrival order. */
  envelopes: DomainEventEnvelope[];
  /** Every named message: [name, payload]. */
  received: [string, unknown][];
  close(): void;
}

export function openSocket(url: string, token: string | undefined): RecordingSocket {
  const socket = connectClient(url, {
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const envelopes: DomainEventEnvelope[] = [];
  const received: [string, unknown][] = [];
  socket.onAny((name: string, payload: unknown) => {
    received.push([name, payload]);
    if (name === 'event') envelopes.push(payload as DomainEventEnvelope);
  });
  return { socket, envelopes, received, close: () => void socket.disconnect() };
}

/** Connects with a valid token and resolves once connected; fails on an invalid-token answer. */
export async function connectAs(url: string, token: string): Promise<RecordingSocket> {
  const s = openSocket(url, token);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect within 15 s')), 15_000);
    s.socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    s.socket.once('tokenInvalid', (p: InvalidTokenPayload) => reject(new Error(`token refused: ${p.error}`)));
    s.socket.once('connect_error', (err) => reject(err));
  });
  return s;
}

/** Connects with a bad token; resolves with the invalid-token payload and the disconnect reason. */
export async function connectExpectingRefusal(url: string, token: string | undefined): Promise<{ payload: InvalidTokenPayload; reason: string }> {
  const s = openSocket(url, token);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no invalid-token event and disconnect within 15 s')), 15_000);
    let payload: InvalidTokenPayload | undefined;
    s.socket.on('tokenInvalid', (p: InvalidTokenPayload) => (payload = p));
    s.socket.on('disconnect', (reason) => {
      clearTimeout(timer);
      if (!payload) reject(new Error(`disconnected (${reason}) without the invalid-token event`));
      else resolve({ payload, reason });
    });
    s.socket.on('connect_error', (err) => reject(err));
  });
}

export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long a socket must stay silent for "never receives" to hold. The positive delivery to a
 * socket on the same server is awaited first, so this only covers reordering across sockets.
 */
export const ABSENCE_WAIT_MS = 400;
