import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SmtpCapture } from '../../../../tests/fakes/smtp-capture';
import { captchaAnswer } from '../../../../tests/helpers/captcha';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import { startIsolatedTestServer } from '../../../../tests/helpers/isolated-server';

/**
 * The platform's e-mail settings (issue #17, /configuracoesTenant/smtp-tenant): stored by the
 * super administrator, used by the platform's mails at once (no restart), the password never
 * sent back. Two real SMTP servers: `envSmtp` is the server's SMTP_URL, `storedSmtp` the one the
 * super administrator configures.
 */

const envSmtp = new SmtpCapture();
const storedSmtp = new SmtpCapture();
let server: TestServer;
let superadmin: TestUser & { token: string };

const settingsFor = (port: number, extra: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port,
  secure: false,
  user: 'mailer',
  password: 'smtp-secret-1',
  from: 'Plataforma <no-reply@plataforma.example>',
  ...extra,
});

const asSuper = (method: string, url: string, body?: unknown) => server.request(method, url, { token: superadmin.token, body });
const storedRow = async () => (await server.deps.dataSource.query(`SELECT * FROM platform_mail_settings`))[0];

/** A loopback port with nothing listening (bound, then closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  await envSmtp.start();
  await storedSmtp.start();
  server = await startIsolatedTestServer({ SMTP_URL: `smtp://127.0.0.1:${envSmtp.port}`, MAIL_FROM: 'Env <env@plataforma.example>' });
  const platform = await platformTenant(server);
  const su = await server.createUser(platform.id, { profile: 'superadmin' });
  superadmin = { ...su, token: (await server.login(su)).token };
});
// The settings are platform-wide: never left behind for the next test (or another file sharing the database).
afterEach(async () => {
  await asSuper('DELETE', '/admin/platform-mail');
});
afterAll(async () => {
  await server?.close();
  await envSmtp.stop();
  await storedSmtp.stop();
});

describe('platform e-mail settings (/admin/platform-mail)', () => {
  it('shows the environment configuration until settings are stored', async () => {
    const res = await asSuper('GET', '/admin/platform-mail');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ host: '', port: 587, secure: false, user: '', from: 'Env <env@plataforma.example>', passwordSet: false, source: 'env' });
  });

  it('stores the settings without ever answering the password, keeps it when left empty and drops it with the user', async () => {
    const saved = await asSuper('PUT', '/admin/platform-mail', settingsFor(2525));
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      host: '127.0.0.1',
      port: 2525,
      secure: false,
      user: 'mailer',
      from: 'Plataforma <no-reply@plataforma.example>',
      passwordSet: true,
      source: 'stored',
    });
    expect(JSON.stringify(saved.body)).not.toContain('smtp-secret-1');
    const read = await asSuper('GET', '/admin/platform-mail');
    expect(read.body).toEqual(saved.body);
    expect(JSON.stringify(read.body)).not.toContain('smtp-secret-1');
    expect((await storedRow()).password).toBe('smtp-secret-1');

    // The screen sends back what it read (passwordSet, source) and an empty password: the stored one stays.
    const kept = await asSuper('PUT', '/admin/platform-mail', { ...read.body, port: '2526', password: '' });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ port: 2526, passwordSet: true });
    expect((await storedRow()).password).toBe('smtp-secret-1');
    expect((await asSuper('PUT', '/admin/platform-mail', settingsFor(2526, { password: undefined }))).body.passwordSet).toBe(true);
    expect((await storedRow()).password).toBe('smtp-secret-1');

    const changed = await asSuper('PUT', '/admin/platform-mail', settingsFor(2526, { password: 'novo-segredo' }));
    expect(changed.body.passwordSet).toBe(true);
    expect((await storedRow()).password).toBe('novo-segredo');

    const anonymous = await asSuper('PUT', '/admin/platform-mail', settingsFor(2526, { user: '' }));
    expect(anonymous.body).toMatchObject({ user: '', passwordSet: false });
    expect((await storedRow()).password).toBeNull();

    const reset = await asSuper('DELETE', '/admin/platform-mail');
    expect(reset.status).toBe(200);
    expect(reset.body.source).toBe('env');
    expect(await storedRow()).toBeUndefined();
  });

  it('sends the test e-mail and the platform mails through the stored server at once, and through SMTP_URL again once removed', async () => {
    expect((await asSuper('PUT', '/admin/platform-mail', settingsFor(storedSmtp.port))).status).toBe(200);
    const test = await asSuper('POST', '/admin/platform-mail/test', { to: ' Teste@Destino.example ' });
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ message: 'E-mail de teste enviado para teste@destino.example.' });
    const mail = await storedSmtp.waitForMail('teste@destino.example');
    expect(mail.subject).toBe('E-mail de teste');
    expect(mail.from).toContain('no-reply@plataforma.example');
    expect(storedSmtp.logins).toContainEqual({ user: 'mailer', password: 'smtp-secret-1' });

    // A password-reset mail (another platform mail) goes the same way, without a restart.
    const tenant = await server.createTenant();
    const user = await server.createUser(tenant.id, { profile: 'admin' });
    expect((await server.request('POST', '/password-reset', { body: { email: user.email } })).status).toBe(200);
    expect((await storedSmtp.waitForMail(user.email)).subject).toBe('Redefinição de senha');

    expect((await asSuper('DELETE', '/admin/platform-mail')).status).toBe(200);
    expect((await asSuper('POST', '/admin/platform-mail/test', { to: 'de-volta@destino.example' })).status).toBe(200);
    expect((await envSmtp.waitForMail('de-volta@destino.example')).from).toContain('env@plataforma.example');
    expect(storedSmtp.mails.some((m) => m.to.includes('de-volta@destino.example'))).toBe(false);
  });

  it("answers ERR_SMTP_TEST_FAILED with the server's reason when the stored server cannot be reached", async () => {
    expect((await asSuper('PUT', '/admin/platform-mail', settingsFor(await closedPort()))).status).toBe(200);
    const res = await asSuper('POST', '/admin/platform-mail/test', { to: 'ninguem@destino.example' });
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('ERR_SMTP_TEST_FAILED');
    expect(res.body.message).toMatch(/^Não foi possível enviar o e-mail de teste: .*ECONNREFUSED/);

    // A sign-up whose confirmation mail cannot go out says so; the tenant waits for the super administrator.
    const [{ id: planId }] = await server.deps.dataSource.query(`INSERT INTO plans (name, value) VALUES ('Plano e-mail', 0) RETURNING id`);
    const email = `sem-email-${Date.now()}@signup.example.com`;
    const signup = await server.request('POST', '/empresa/signup', {
      body: { name: 'Sem E-mail', taxId: '52998224725', email, phone: '11987654321', password: 'segura#2024', planId, ...(await captchaAnswer(server.url)) },
    });
    expect(signup.status).toBe(201);
    expect(signup.body).toEqual({
      message: 'Cadastro realizado, mas não foi possível enviar o e-mail de confirmação. Solicite ao Super Administrador a validação do email.',
      email,
      mailSent: false,
    });
    const pending = await asSuper('GET', '/admin/signups');
    expect(pending.body.map((p: { email: string }) => p.email)).toContain(email);
  });

  it('refuses malformed bodies with 400 naming the field, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ ...settingsFor(25), host: '' }, 'host'],
      [{ ...settingsFor(25), host: 'smtp://mail.example.com' }, 'host'],
      [{ ...settingsFor(25), host: 'mail.example.com:25' }, 'host'],
      [{ ...settingsFor(25), port: 'abc' }, 'port'],
      [{ ...settingsFor(25), port: 70000 }, 'port'],
      [{ ...settingsFor(25), port: 0 }, 'port'],
      [{ ...settingsFor(25), secure: 'yes' }, 'secure'],
      [{ ...settingsFor(25), from: 'não é e-mail' }, 'from'],
      [{ ...settingsFor(25), from: '' }, 'from'],
      [{ ...settingsFor(25), password: 42 }, 'password'],
      [{ ...settingsFor(25), tls: true }, 'tls'],
      ['[]', 'body'],
    ];
    for (const [body, field] of cases) {
      const res = await asSuper('PUT', '/admin/platform-mail', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: { path: string }) => f.path), JSON.stringify(body)).toContain(field);
    }
    for (const body of [{}, { to: 'not-an-email' }, { to: 'a@b.example', cc: 'x' }]) {
      const res = await asSuper('POST', '/admin/platform-mail/test', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect(await storedRow()).toBeUndefined();
  });

  it('is refused to every other profile of two tenants (and a superadmin profile outside the platform tenant)', async () => {
    expect((await asSuper('PUT', '/admin/platform-mail', settingsFor(storedSmtp.port))).status).toBe(200);
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const strayUser = await server.createUser(b.tenant.id, { profile: 'superadmin' });
    const stray = { ...strayUser, token: (await server.login(strayUser)).token };
    for (const caller of [a.users.admin, a.users.super, a.users.user, b.users.admin, b.users.super, b.users.user, stray]) {
      const who = `${caller.profile} of tenant ${caller.tenantId}`;
      const calls = [
        await server.request('GET', '/admin/platform-mail', { token: caller.token }),
        await server.request('PUT', '/admin/platform-mail', { token: caller.token, body: settingsFor(25, { host: 'evil.example' }) }),
        await server.request('DELETE', '/admin/platform-mail', { token: caller.token }),
        await server.request('POST', '/admin/platform-mail/test', { token: caller.token, body: { to: 'x@evil.example' } }),
      ];
      for (const res of calls) {
        expect(res.status, who).toBe(403);
        expect(res.body.error, who).toBe('ERR_NO_PERMISSION');
        expect(JSON.stringify(res.body)).not.toContain('smtp-secret-1');
      }
    }
    expect(await storedRow()).toMatchObject({ host: '127.0.0.1', port: storedSmtp.port, password: 'smtp-secret-1' });
    expect(storedSmtp.mails.some((m) => m.to.includes('x@evil.example'))).toBe(false);
    expect((await server.request('GET', '/admin/platform-mail')).status).toBe(401);
  });
});
