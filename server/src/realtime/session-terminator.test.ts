import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvalidTokenPayload } from '@shared/events';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { connectAs } from './realtime.test-support';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** Resolves with the invalid-token payload and disconnect reason, or rejects after 5 s. */
function waitForEviction(s: Awaited<ReturnType<typeof connectAs>>) {
  return new Promise<{ payload?: InvalidTokenPayload; reason: string }>((resolve, reject) => {
    let payload: InvalidTokenPayload | undefined;
    const timer = setTimeout(() => reject(new Error('socket still connected 5 s after revocation')), 5000);
    s.socket.on('tokenInvalid', (p: InvalidTokenPayload) => (payload = p));
    s.socket.on('disconnect', (reason) => {
      clearTimeout(timer);
      resolve({ payload, reason });
    });
  });
}

describe('revoked sessions lose their live sockets', () => {
  it('logout disconnects that session only', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const a = await server.login(user);
    const b = await server.login(user);
    const sa = await connectAs(server.url, a.token);
    const sb = await connectAs(server.url, b.token);
    const evicted = waitForEviction(sa);
    const res = await server.request('POST', '/auth/logout/', { token: a.token });
    expect(res.status).toBe(204);
    const { payload, reason } = await evicted;
    expect(payload?.error).toBe('ERR_INVALID_TOKEN');
    expect(reason).toBe('io server disconnect');
    await new Promise((r) => setTimeout(r, 200));
    expect(sb.socket.connected).toBe(true);
    sb.close();
  });

  it('a replayed refresh token disconnects the session', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const login = await server.login(user);
    const s = await connectAs(server.url, login.token);
    const first = await server.request('POST', '/auth/refresh_token', { body: { refreshToken: login.refreshToken } });
    expect(first.status).toBe(200);
    expect(s.socket.connected).toBe(true);
    const evicted = waitForEviction(s);
    const replay = await server.request('POST', '/auth/refresh_token', { body: { refreshToken: login.refreshToken } });
    expect(replay.status).toBe(401);
    expect((await evicted).reason).toBe('io server disconnect');
  });
});
