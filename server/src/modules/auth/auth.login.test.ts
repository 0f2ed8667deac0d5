import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captchaAnswer, nodeSha256 } from '../../../../tests/helpers/captcha';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { captchaPowInput, leadingZeroBits, solveCaptcha } from '@shared/captcha';
import { refreshCookie } from './auth.test-support';
import { CaptchaService } from './captcha.service';

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

/**
 * Each test logs in from its own client IP (TRUST_PROXY + X-Forwarded-For), so the per-IP limit
 * counts one test's failures only.
 */
let ipCounter = 0;
const nextIp = () => `198.51.100.${++ipCounter}`;
let testIp = nextIp();
beforeEach(() => {
  testIp = nextIp();
});

/** POST /auth/login/ from the test's IP; an object body without captcha fields gets a solved challenge. */
const login = async (body: unknown, headers: Record<string, string> = {}) => {
  const withCaptcha =
    body && typeof body === 'object' && !Array.isArray(body) && !('captchaToken' in body)
      ? { ...body, ...(await captchaAnswer(server.url)) }
      : body;
  return server.request('POST', '/auth/login/', { body: withCaptcha, headers: { 'x-forwarded-for': testIp, ...headers } });
};

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
    expect(events).toEqual([{ name: 'user:status', payload: { userId: user.id, isOnline: true, presence: 'online' } }]);

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

    const noSlash = await server.request('POST', '/auth/login', {
      body: { email: user.email, password: user.password, ...(await captchaAnswer(server.url)) },
    });
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

describe('login captcha (GET /auth/captcha)', () => {
  const CAPTCHA_MESSAGE = 'Por favor, valide o CAPTCHA antes de continuar.';
  const expectCaptchaRefused = (res: { status: number; body: any }) => {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_CAPTCHA', message: CAPTCHA_MESSAGE });
  };
  const challenge = async () => (await server.request('GET', '/auth/captcha')).body;

  it('issues a fresh signed challenge with its difficulty and a short expiry, never cached', async () => {
    const res = await server.request('GET', '/auth/captcha');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.difficulty).toBe(server.deps.config.captchaDifficulty);
    const ttl = new Date(res.body.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    expect(res.body.token).not.toBe((await challenge()).token);
    // The shared solver finds a solution whose hash meets the difficulty.
    const answer = await solveCaptcha(res.body, nodeSha256);
    expect(leadingZeroBits(nodeSha256(captchaPowInput(answer.captchaToken, answer.captchaSolution)))).toBeGreaterThanOrEqual(
      res.body.difficulty,
    );
  });

  it('refuses a login without an answer, even with the right password, before the password is checked', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    expectCaptchaRefused(await login({ email: user.email, password: user.password, captchaToken: undefined }));
    const { token } = await challenge();
    expectCaptchaRefused(await login({ email: user.email, password: user.password, captchaToken: token }));
    expectCaptchaRefused(await login({ email: user.email, password: user.password, captchaToken: 42, captchaSolution: 7 }));
    expect(await server.deps.dataSource.query(`SELECT id FROM auth_sessions WHERE "userId" = $1`, [user.id])).toHaveLength(0);
  });

  it('refuses a wrong solution, a tampered token and a token of another secret', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const creds = { email: user.email, password: user.password };
    const fresh = await challenge();
    const solved = await solveCaptcha(fresh, nodeSha256);
    // A solution that does not meet the difficulty (found by searching for one that fails).
    let wrong = 0;
    while (leadingZeroBits(nodeSha256(captchaPowInput(fresh.token, `x${wrong}`))) >= fresh.difficulty) wrong++;
    expectCaptchaRefused(await login({ ...creds, captchaToken: fresh.token, captchaSolution: `x${wrong}` }));
    // The difficulty is under the signature: lowering it to 0 breaks the signature.
    const parts = fresh.token.split('.');
    parts[2] = '0';
    expectCaptchaRefused(await login({ ...creds, captchaToken: parts.join('.'), captchaSolution: '0' }));
    // Signed with another key.
    const foreign = new CaptchaService({
      config: { ...server.deps.config, jwtSecret: 'another-secret-0123456789abcdef' },
      clock: server.deps.clock,
      rateLimiter: server.deps.rateLimiter,
    }).issue();
    expectCaptchaRefused(await login({ ...creds, ...(await solveCaptcha(foreign, nodeSha256)) }));
    // The wrong tries did not burn the genuine challenge.
    expect((await login({ ...creds, ...solved })).status).toBe(200);
  });

  it('refuses an expired challenge', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const past = new CaptchaService({
      config: server.deps.config,
      clock: { now: () => new Date(Date.now() - 121_000) },
      rateLimiter: server.deps.rateLimiter,
    }).issue();
    expectCaptchaRefused(await login({ email: user.email, password: user.password, ...(await solveCaptcha(past, nodeSha256)) }));
  });

  it('accepts an answer once: a replay is refused, whether the first login succeeded or failed', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const creds = { email: user.email, password: user.password };
    const answer = await captchaAnswer(server.url);
    expect((await login({ ...creds, ...answer })).status).toBe(200);
    expectCaptchaRefused(await login({ ...creds, ...answer }));

    const second = await captchaAnswer(server.url);
    expect((await login({ ...creds, password: 'wrong-password', ...second })).body.error).toBe('ERR_INVALID_CREDENTIALS');
    expectCaptchaRefused(await login({ ...creds, ...second }));
  });
});

describe('login limits across accounts and across IPs', () => {
  const expectLimited = (res: { status: number; body: any; headers: Headers }) => {
    expect(res.status).toBe(429);
    expect(res.body.error).toBe('ERR_LIMIT_MAX');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  };

  it('limits one IP trying passwords across many accounts (successes do not count)', async () => {
    const tenant = await server.createTenant();
    const max = server.deps.config.loginRateLimitIpMax;
    const valid = await Promise.all([1, 2, 3].map(() => server.createUser(tenant.id)));
    // max - 1 failures, each on another account (no pair or account limit is reached)...
    for (let i = 0; i < max - 1; i++) {
      const res = await login({ email: `nobody-${i}-${testIp}@test.example.com`, password: 'guess-1!' });
      expect(res.status, `failure ${i}`).toBe(401);
    }
    // ...successful logins in between are not counted...
    for (const user of valid) expect((await login({ email: user.email, password: user.password })).status).toBe(200);
    // ...so the max-th failure is still answered, and the next attempt is refused, even a right password.
    expect((await login({ email: `last-${testIp}@test.example.com`, password: 'guess-1!' })).status).toBe(401);
    expectLimited(await login({ email: valid[0].email, password: valid[0].password }));
    // Another IP is not limited.
    expect((await login({ email: valid[0].email, password: valid[0].password }, { 'x-forwarded-for': nextIp() })).status).toBe(200);
  });

  it('limits one account tried from many IPs, with each IP under its own limit', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    const max = server.deps.config.loginRateLimitAccountMax;
    for (let i = 0; i < max; i++) {
      const res = await login({ email: user.email, password: `guess-${i}!` }, { 'x-forwarded-for': nextIp() });
      expect(res.status, `failure ${i}`).toBe(401);
    }
    // A fresh IP, the right password: the account is limited for the window.
    expectLimited(await login({ email: user.email, password: user.password }, { 'x-forwarded-for': nextIp() }));
    // Other accounts from those IPs are not.
    const other = await server.createUser(tenant.id);
    expect((await login({ email: other.email, password: other.password }, { 'x-forwarded-for': `198.51.100.${ipCounter}` })).status).toBe(200);
  });
});
