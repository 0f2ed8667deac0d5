import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { refreshCookie } from './auth.test-support';

const ACCESS_TTL = 600;
const REFRESH_TTL = 3 * 24 * 3600;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    LOGIN_RATE_LIMIT_MAX: '5',
    TRUST_PROXY: 'true',
    LOGIN_RATE_LIMIT_WINDOW_MS: '60000',
    ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL),
    REFRESH_TOKEN_TTL_SECONDS: String(REFRESH_TTL),
  });
});
afterAll(async () => server?.close());

const login = (body: unknown, headers: Record<string, string> = {}) => server.request('POST', '/auth/login/', { body, headers });

describe('POST /auth/login/', () => {
  it('answers every field of the login response and opens a session', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id, { profile: 'admin', name: 'Ana Souza' });
    await server.deps.dataSource.query(
      `UPDATE users SET queues = $2, "allowedConnections" = $3, "blockVoice" = true, configs = $4 WHERE id = $1`,
      [
        user.id,
        JSON.stringify([3, 7]),
        JSON.stringify([11]),
        JSON.stringify({ filtrosAtendimento: { status: ['open'] }, isDark: true }),
      ],
    );

    const res = await login({ email: user.email, password: user.password }, { 'user-agent': 'auth-test/1.0' });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        'token',
        'refreshToken',
        'username',
        'profile',
        'userId',
        'tenantId',
        'email',
        'queues',
        'blockWavoip',
        'whatsappAllowed',
        'configs',
      ].sort(),
    );
    expect(body).toMatchObject({
      username: 'Ana Souza',
      profile: 'admin',
      userId: user.id,
      tenantId: tenant.id,
      email: user.email,
      queues: [3, 7],
      blockWavoip: true,
      whatsappAllowed: [11],
      configs: { filtrosAtendimento: { status: ['open'] }, isDark: true },
    });

    // Access token: signed with the server secret, bound to the new session, with the configured ttl.
    const claims = jwt.verify(body.token, server.deps.config.jwtSecret) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: String(user.id), tid: tenant.id, profile: 'admin' });
    expect(claims.exp! - claims.iat!).toBe(ACCESS_TTL);

    const [session] = await server.deps.dataSource.query(`SELECT * FROM auth_sessions WHERE id = $1`, [claims.sid]);
    expect(session).toMatchObject({
      userId: user.id,
      tenantId: tenant.id,
      tokenVersion: 0,
      userAgent: 'auth-test/1.0',
      revokedAt: null,
    });
    expect(session.ip).toBeTruthy();
    const sessionTtl = (new Date(session.expiresAt).getTime() - new Date(session.createdAt).getTime()) / 1000;
    expect(sessionTtl).toBeCloseTo(REFRESH_TTL, 0);

    // Only the hash of the refresh token is stored.
    const tokens = await server.deps.dataSource.query(`SELECT "tokenHash", "usedAt" FROM refresh_tokens WHERE "sessionId" = $1`, [
      claims.sid,
    ]);
    expect(tokens).toEqual([{ tokenHash: createHash('sha256').update(body.refreshToken).digest('hex'), usedAt: null }]);
    expect(JSON.stringify(tokens)).not.toContain(body.refreshToken);

    const [u] = await server.deps.dataSource.query(`SELECT "isOnline", "lastOnline" FROM users WHERE id = $1`, [user.id]);
    expect(u.isOnline).toBe(true);
    expect(u.lastOnline).not.toBeNull();
    // ...and the tenant is told (a domain event, replayable through /sync).
    const events = await server.deps.dataSource.query(`SELECT name, payload FROM domain_events WHERE "tenantId" = $1`, [
      tenant.id,
    ]);
    expect(events).toEqual([{ name: 'user:status', payload: { userId: user.id, isOnline: true } }]);

    // The refresh token also travels as an httpOnly, SameSite=Strict cookie scoped to /auth.
    const cookie = refreshCookie(res.headers)!;
    expect(cookie.value).toBe(body.refreshToken);
    expect(cookie.attributes.httponly).toBe(true);
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe('strict');
    expect(cookie.attributes.path).toBe('/auth');
    expect(cookie.attributes.secure).toBeUndefined(); // plain http
    const expires = new Date(String(cookie.attributes.expires)).getTime();
    expect(Math.abs(expires - (Date.now() + REFRESH_TTL * 1000))).toBeLessThan(60_000);
  });

  it('marks the refresh cookie Secure when the request came over https (through the proxy)', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const res = await login({ email: user.email, password: user.password }, { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(200);
    expect(refreshCookie(res.headers)!.attributes.secure).toBe(true);
  });

  it('trims the e-mail and ignores its case, with and without the trailing slash', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const res = await login({ email: `  ${user.email.toUpperCase()}  `, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(user.id);
    expect(res.body.email).toBe(user.email);

    const noSlash = await server.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    expect(noSlash.status).toBe(200);
    expect(noSlash.body.userId).toBe(user.id);
  });

  it('answers a wrong password and an unknown e-mail with the same ERR_INVALID_CREDENTIALS', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const wrong = await login({ email: user.email, password: `${user.password}x` });
    const unknown = await login({ email: `nobody-${user.id}@test.example.com`, password: user.password });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
      expect(res.body.message).toBe('Informe usuário e senha corretamente.');
      expect(res.body.token).toBeUndefined();
      expect(refreshCookie(res.headers)).toBeUndefined();
    }
    const sessions = await server.deps.dataSource.query(`SELECT id FROM auth_sessions WHERE "userId" = $1`, [user.id]);
    expect(sessions).toHaveLength(0);
  });

  it('refuses with ERR_LIMIT_MAX and Retry-After once 5 failures were made, even with the right password', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    for (let i = 0; i < 5; i++) {
      const res = await login({ email: user.email, password: 'wrong-password' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
    }
    const limited = await login({ email: user.email, password: user.password });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_LIMIT_MAX');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // The key is e-mail + client IP: the same e-mail typed differently is the same key...
    const variant = await login({ email: ` ${user.email.toUpperCase()}`, password: user.password });
    expect(variant.status).toBe(429);
    // ...another e-mail from the same client is not limited.
    const other = await server.createUser(tenant.id);
    expect((await login({ email: other.email, password: other.password })).status).toBe(200);
  });

  it('resets the failure count on a successful login', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    for (let i = 0; i < 4; i++) expect((await login({ email: user.email, password: 'nope' })).status).toBe(401);
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
    // Five fresh failures are allowed again; the sixth attempt is refused.
    for (let i = 0; i < 5; i++) expect((await login({ email: user.email, password: 'nope' })).status).toBe(401);
    expect((await login({ email: user.email, password: user.password })).status).toBe(429);
  });

  it('refuses users of an inactive tenant with ERR_TENANT_INACTIVE, but not the superadmin', async () => {
    const tenant = await server.createTenant({ status: 'inactive' });
    const user = await server.createUser(tenant.id, { profile: 'admin' });
    const res = await login({ email: user.email, password: user.password });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_TENANT_INACTIVE');
    expect(await server.deps.dataSource.query(`SELECT id FROM auth_sessions WHERE "userId" = $1`, [user.id])).toHaveLength(0);

    // With a wrong password the tenant's state is not revealed.
    const wrong = await login({ email: user.email, password: 'wrong-password' });
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');

    const superadmin = await server.createUser(tenant.id, { profile: 'superadmin' });
    expect((await login({ email: superadmin.email, password: superadmin.password })).status).toBe(200);
  });

  it('answers malformed bodies with 400 ERR_VALIDATION naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ password: 'x' }, 'email'],
      [{ email: 'not-an-email', password: 'x' }, 'email'],
      [{ email: 42, password: 'x' }, 'email'],
      [{ email: 'someone@test.example.com' }, 'password'],
      [{ email: 'someone@test.example.com', password: '' }, 'password'],
    ];
    for (const [body, field] of cases) {
      const res = await login(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(field);
    }
    const notAnObject = await login([1, 2]);
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.error).toBe('ERR_VALIDATION');
  });
});
