import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpCapture, type CapturedMail } from '../../../../tests/fakes/smtp-capture';
import { loginBody } from '../../../../tests/helpers/captcha';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { movableClock } from './auth.test-support';

const PUBLIC_URL = 'https://atende.test.example';
const RESET_TTL = 900;

const smtp = new SmtpCapture();
const mails = smtp.mails;
const waitForMail = (to: string) => smtp.waitForMail(to);
const clock = movableClock();
let server: TestServer;

const linkPattern = new RegExp(`${PUBLIC_URL.replace(/[.]/g, '\\.')}/#/reset/([A-Za-z0-9_-]+)`);
const tokenOf = (mail: CapturedMail): string => {
  const match = mail.text.match(linkPattern);
  if (!match) throw new Error(`no reset link in mail: ${mail.text}`);
  return match[1];
};

beforeAll(async () => {
  await smtp.start();
  const port = smtp.port;
  server = await startTestServer(
    {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      PUBLIC_URL,
      PASSWORD_RESET_TTL_SECONDS: String(RESET_TTL),
      LOGIN_RATE_LIMIT_MAX: '5',
      TRUST_PROXY: 'true',
    },
    { clock },
  );
});
afterAll(async () => {
  await server?.close();
  await smtp.stop();
});

const requestReset = (email: string, headers: Record<string, string> = {}) =>
  server.request('POST', '/password-reset', { body: { email }, headers });
const resetPassword = (body: Record<string, unknown>) => server.request('POST', '/reset-password', { body });
const login = async (email: string, password: string) =>
  server.request('POST', '/auth/login/', { body: await loginBody(server.url, { email, password }) });

describe('password reset (POST /password-reset, POST /reset-password)', () => {
  it('mails a single-use link that sets a new password and ends every session', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id, { name: 'Carla Dias' });
    const before = (await login(user.email, user.password)).body;

    const asked = await requestReset(`  ${user.email.toUpperCase()} `);
    expect(asked.status).toBe(200);
    expect(typeof asked.body.message).toBe('string');

    const mail = await waitForMail(user.email);
    expect(mail.subject).toBe('Redefinição de senha');
    expect(mail.text).toContain('Olá, Carla Dias!');
    expect(mail.text).toContain('15 minutos');
    const token = tokenOf(mail);

    // Only the hash of the token is stored.
    const [row] = await server.deps.dataSource.query(
      `SELECT "tokenHash", "usedAt", "expiresAt" FROM password_resets WHERE "userId" = $1`,
      [user.id],
    );
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.usedAt).toBeNull();
    expect(new Date(row.expiresAt).getTime() - clock.now().getTime()).toBeGreaterThan((RESET_TTL - 60) * 1000);

    const newPassword = 'Nova-senha-2025!';
    const done = await resetPassword({ token, password: newPassword });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Senha redefinida com sucesso!' });

    const old = await login(user.email, user.password);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_INVALID_CREDENTIALS');
    expect((await login(user.email, newPassword)).status).toBe(200);

    // Sessions opened with the old password are over: access and refresh tokens.
    const [u] = await server.deps.dataSource.query(`SELECT "tokenVersion" FROM users WHERE id = $1`, [user.id]);
    expect(u.tokenVersion).toBe(1);
    const [oldSession] = await server.deps.dataSource.query(
      `SELECT "revokedAt", "revokedReason" FROM auth_sessions WHERE id = $1`,
      [JSON.parse(Buffer.from(before.token.split('.')[1], 'base64url').toString()).sid],
    );
    expect(oldSession.revokedAt).not.toBeNull();
    expect(oldSession.revokedReason).toBe('password_reset');
    expect((await server.request('POST', '/auth/logout/', { token: before.token })).status).toBe(401);
    expect((await server.request('POST', '/auth/refresh_token', { body: { refreshToken: before.refreshToken } })).status).toBe(
      401,
    );

    const reused = await resetPassword({ token, password: 'Outra-senha-9!' });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('ERR_INVALID_RESET_TOKEN');
    expect((await login(user.email, newPassword)).status).toBe(200);
  });

  it('accepts newPassword as the name of the new password', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    await requestReset(user.email);
    const token = tokenOf(await waitForMail(user.email));
    const res = await resetPassword({ token, newPassword: 'Senha#nova7' });
    expect(res.status).toBe(200);
    expect((await login(user.email, 'Senha#nova7')).status).toBe(200);
  });

  it('refuses a password outside the policy without spending the token', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    await requestReset(user.email);
    const token = tokenOf(await waitForMail(user.email));
    for (const weak of ['ab1!', 'abcdefgh!', '12345678!', 'abcd12345']) {
      const res = await resetPassword({ token, password: weak });
      expect(res.status, weak).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['password']));
    }
    const missing = await resetPassword({ password: 'Valida-123' });
    expect(missing.body.fields.map((f: { path: string }) => f.path)).toContain('token');
    expect((await resetPassword({ token, password: 'Valida-123' })).status).toBe(200);
  });

  it('refuses an expired token', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    await requestReset(user.email);
    const token = tokenOf(await waitForMail(user.email));
    clock.advance((RESET_TTL + 1) * 1000);
    const res = await resetPassword({ token, password: 'Tarde-demais-1' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_INVALID_RESET_TOKEN');
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('keeps only the newest link valid', async () => {
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id);
    await requestReset(user.email);
    const first = tokenOf(await waitForMail(user.email));
    mails.splice(0, mails.length);
    await requestReset(user.email);
    const second = tokenOf(await waitForMail(user.email));
    expect(second).not.toBe(first);
    expect((await resetPassword({ token: first, password: 'Primeira-1' })).body.error).toBe('ERR_INVALID_RESET_TOKEN');
    expect((await resetPassword({ token: second, password: 'Segunda-2!' })).status).toBe(200);
  });

  it('answers an unknown e-mail exactly like a known one and sends it nothing', async () => {
    const tenant = await server.createTenant();
    const known = await server.createUser(tenant.id);
    const unknownEmail = `ghost-${known.id}@test.example.com`;
    const unknown = await requestReset(unknownEmail);
    const knownRes = await requestReset(known.email);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(knownRes.body);
    await waitForMail(known.email);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mails.filter((m) => m.to.includes(unknownEmail))).toHaveLength(0);
    expect(await server.deps.dataSource.query(`SELECT id FROM password_resets WHERE "userId" = $1`, [known.id])).toHaveLength(1);
  });

  it('refuses unknown tokens and malformed bodies', async () => {
    const res = await resetPassword({ token: 'not-a-token', password: 'Valida-123' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_INVALID_RESET_TOKEN');
    const bad = await server.request('POST', '/password-reset', { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(bad.body.fields[0].path).toBe('email');
  });

  it('limits reset requests per e-mail and client with ERR_LIMIT_MAX', async () => {
    const email = `limited-${Date.now()}@test.example.com`;
    for (let i = 0; i < 5; i++) expect((await requestReset(email)).status).toBe(200);
    const limited = await requestReset(email);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_LIMIT_MAX');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another client (address given by the trusted proxy) is counted apart.
    expect((await requestReset(email, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
  });
});
