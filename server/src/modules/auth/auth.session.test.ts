import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginBody } from '../../../../tests/helpers/captcha';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { authenticate } from './require-auth';
import { movableClock, refreshCookie } from './auth.test-support';

const REFRESH_TTL = 3600;
const clock = movableClock();

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ REFRESH_TOKEN_TTL_SECONDS: String(REFRESH_TTL) }, { clock });
});
afterAll(async () => server?.close());

async function loggedInUser() {
  const tenant = await server.createTenant();
  const user = await server.createUser(tenant.id, { profile: 'super', name: 'Bruno Lima' });
  const res = await server.request('POST', '/auth/login/', { body: await loginBody(server.url, user) });
  expect(res.status).toBe(200);
  return { tenant, user, login: res.body, cookie: refreshCookie(res.headers)!.value };
}

const refreshWithBody = (refreshToken: string) => server.request('POST', '/auth/refresh_token', { body: { refreshToken } });
const refreshWithCookie = (value: string) =>
  server.request('POST', '/auth/refresh_token', { headers: { cookie: `jrt=${value}` } });
const logout = (token: string) => server.request('POST', '/auth/logout/', { token });
/** The same check every authenticated route and the socket handshake make. */
const accessWorks = (token: string) =>
  authenticate(server.deps.dataSource, server.deps.config.jwtSecret, token).then(
    () => true,
    () => false,
  );
const sessionOf = async (userId: number) =>
  (await server.deps.dataSource.query(`SELECT * FROM auth_sessions WHERE "userId" = $1`, [userId])) as {
    id: string;
    revokedAt: Date | null;
    revokedReason: string | null;
  }[];

describe('POST /auth/refresh_token', () => {
  it('rotates the refresh token given in the body', async () => {
    const { tenant, user, login } = await loggedInUser();
    const res = await refreshWithBody(login.refreshToken);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['profile', 'refreshToken', 'tenantId', 'token', 'userId', 'username']);
    expect(res.body).toMatchObject({ username: 'Bruno Lima', profile: 'super', userId: user.id, tenantId: tenant.id });
    expect(res.body.refreshToken).not.toBe(login.refreshToken);
    // A new access token for the same session.
    const sid = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;
    expect(sid(res.body.token)).toBe(sid(login.token));
    expect(await accessWorks(res.body.token)).toBe(true);
    // The cookie is reset to the new token.
    const cookie = refreshCookie(res.headers)!;
    expect(cookie.value).toBe(res.body.refreshToken);
    expect(cookie.attributes).toMatchObject({ httponly: true, path: '/auth' });

    // Same session: the presented token is spent, a new one issued.
    const [session] = await sessionOf(user.id);
    const tokens = await server.deps.dataSource.query(
      `SELECT "usedAt" FROM refresh_tokens WHERE "sessionId" = $1 ORDER BY "createdAt", "usedAt" NULLS LAST`,
      [session.id],
    );
    expect(tokens.map((t: { usedAt: Date | null }) => t.usedAt !== null)).toEqual([true, false]);

    // The successor rotates in turn.
    const again = await refreshWithBody(res.body.refreshToken);
    expect(again.status).toBe(200);
    expect(await sessionOf(user.id)).toHaveLength(1);
  });

  it('rotates the refresh token of the jrt cookie', async () => {
    const { user, cookie } = await loggedInUser();
    const res = await refreshWithCookie(cookie);
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(user.id);
    const next = refreshCookie(res.headers)!.value;
    expect(next).not.toBe(cookie);
    expect((await refreshWithCookie(next)).status).toBe(200);
  });

  it('revokes the whole session when a spent refresh token is presented again', async () => {
    const { user, login } = await loggedInUser();
    const rotated = await refreshWithBody(login.refreshToken);
    expect(rotated.status).toBe(200);

    const replay = await refreshWithBody(login.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('ERR_INVALID_TOKEN');
    // The stale cookie is cleared.
    expect(refreshCookie(replay.headers)!.value).toBe('');

    const [session] = await sessionOf(user.id);
    expect(session.revokedAt).not.toBeNull();
    expect(session.revokedReason).toBe('refresh_reuse');

    // Even the newest token of that session is refused, and so are its access tokens.
    const newest = await refreshWithBody(rotated.body.refreshToken);
    expect(newest.status).toBe(401);
    expect(newest.body.error).toBe('ERR_INVALID_TOKEN');
    expect(await accessWorks(rotated.body.token)).toBe(false);
    const denied = await logout(login.token);
    expect(denied.status).toBe(401);
    expect(denied.body.error).toBe('ERR_INVALID_TOKEN');
  });

  it('lets only one of two concurrent refreshes with the same token win', async () => {
    const { login } = await loggedInUser();
    const results = await Promise.all([refreshWithBody(login.refreshToken), refreshWithBody(login.refreshToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('answers unknown, missing and expired refresh tokens with 401 ERR_INVALID_TOKEN', async () => {
    for (const res of [
      await refreshWithBody('no-such-token'),
      await refreshWithCookie('no-such-token'),
      await server.request('POST', '/auth/refresh_token', { body: {} }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_TOKEN');
    }

    const { user, login } = await loggedInUser();
    clock.advance((REFRESH_TTL + 1) * 1000);
    const expired = await refreshWithBody(login.refreshToken);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('ERR_INVALID_TOKEN');
    // An expired token is not a replay: the session is simply left to expire.
    expect((await sessionOf(user.id))[0].revokedReason).toBeNull();
  });

  it('refuses a malformed body with 400 ERR_VALIDATION', async () => {
    const res = await server.request('POST', '/auth/refresh_token', { body: { refreshToken: 123 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields[0].path).toBe('refreshToken');
  });

  it('stops refreshing once the tenant is inactive', async () => {
    const { tenant, login } = await loggedInUser();
    await server.deps.dataSource.query(`UPDATE tenants SET status = 'inactive' WHERE id = $1`, [tenant.id]);
    const res = await refreshWithBody(login.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_TENANT_INACTIVE');
  });
});

describe('POST /auth/logout/', () => {
  it('revokes the session, clears the cookie and marks the user offline', async () => {
    const { user, login } = await loggedInUser();
    const res = await logout(login.token);
    expect(res.status).toBe(204);
    const cleared = refreshCookie(res.headers)!;
    expect(cleared.value).toBe('');
    expect(cleared.attributes.path).toBe('/auth');
    expect(new Date(String(cleared.attributes.expires)).getTime()).toBeLessThan(Date.now());

    const [session] = await sessionOf(user.id);
    expect(session.revokedAt).not.toBeNull();
    expect(session.revokedReason).toBe('logout');
    const [u] = await server.deps.dataSource.query(`SELECT "isOnline" FROM users WHERE id = $1`, [user.id]);
    expect(u.isOnline).toBe(false);
    const [event] = await server.deps.dataSource.query(
      `SELECT name, payload FROM domain_events WHERE "tenantId" = $1 ORDER BY seq DESC LIMIT 1`,
      [user.tenantId],
    );
    expect(event).toEqual({ name: 'user:status', payload: { userId: user.id, isOnline: false, presence: 'offline' } });

    // The same access token no longer works, nor does the session's refresh token.
    const second = await server.request('POST', '/auth/logout', { token: login.token });
    expect(second.status).toBe(401);
    expect(second.body.error).toBe('ERR_INVALID_TOKEN');
    expect((await refreshWithBody(login.refreshToken)).status).toBe(401);
  });

  it('ends only the session it was called with', async () => {
    const { user, login } = await loggedInUser();
    const other = await server.request('POST', '/auth/login/', { body: await loginBody(server.url, user) });
    expect((await logout(login.token)).status).toBe(204);
    expect(await accessWorks(other.body.token)).toBe(true);
    expect((await refreshWithBody(other.body.refreshToken)).status).toBe(200);
  });

  it('requires authentication', async () => {
    const none = await server.request('POST', '/auth/logout/');
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('ERR_INVALID_TOKEN');
    const forged = await logout('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.invalid');
    expect(forged.status).toBe(401);
  });
});
