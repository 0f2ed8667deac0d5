import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchaAnswer, loginBody } from '../../../../tests/helpers/captcha';
import { SmtpCapture, type CapturedMail } from '../../../../tests/fakes/smtp-capture';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import { startIsolatedTestServer } from '../../../../tests/helpers/isolated-server';
import { movableClock } from '../auth/auth.test-support';

/**
 * Self sign-up (issue #17): POST /empresa/signup through the real server, the real captcha, the
 * real nodemailer transport to a real SMTP server on a loopback port, then the e-mailed link.
 */

const PUBLIC_URL = 'https://atende.signup.example';
const FILL_ALL = 'Preencha todos os campos!';
const PENDING_TEXT = 'Tenant inválido. Solicite ao Super Administrador a validação do email.';

const smtp = new SmtpCapture();
const clock = movableClock();
let server: TestServer;
let planId: number;
let superadmin: TestUser & { token: string };

let ipCounter = 0;
/** Every call from its own client IP (TRUST_PROXY), so the per-IP limits of one test do not reach another. */
const nextIp = () => `198.51.100.${++ipCounter % 250}`;
const unique = () => randomBytes(4).toString('hex');

const validForm = () => ({
  name: `Empresa ${unique()}`,
  taxId: '529.982.247-25',
  email: `dono-${unique()}@signup.example.com`,
  phone: '(11) 98765-4321',
  password: 'segura#2024',
  planId,
});

const signup = (body: unknown, ip = nextIp()) =>
  server.request('POST', '/empresa/signup', { body, headers: { 'x-forwarded-for': ip } });
const signupWithCaptcha = async (body: Record<string, unknown>, ip = nextIp()) =>
  signup({ ...body, ...(await captchaAnswer(server.url)) }, ip);
const confirm = (token: unknown, ip = nextIp()) =>
  server.request('POST', '/empresa/signup/confirm', { body: { token }, headers: { 'x-forwarded-for': ip } });
const login = async (email: string, password: string) =>
  server.request('POST', '/auth/login/', { body: await loginBody(server.url, { email, password }), headers: { 'x-forwarded-for': nextIp() } });

const linkPattern = new RegExp(`${PUBLIC_URL.replace(/[.]/g, '\\.')}/#/signup/confirm/([A-Za-z0-9_-]+)`);
const tokenOf = (mail: CapturedMail): string => {
  const match = mail.text.match(linkPattern);
  if (!match) throw new Error(`no confirmation link in mail: ${mail.text}`);
  return match[1];
};

const tenantOf = async (email: string) =>
  (
    await server.deps.dataSource.query(
      `SELECT t.id, t.name, t.status, t.identity, t."planId", t."maxUsers", t."maxConnections", u.id AS "userId", u.profile, u.name AS "userName"
         FROM users u JOIN tenants t ON t.id = u."tenantId" WHERE u.email = $1`,
      [email],
    )
  )[0];

beforeAll(async () => {
  await smtp.start();
  server = await startIsolatedTestServer(
    {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      PUBLIC_URL,
      TRUST_PROXY: 'true',
      LOGIN_RATE_LIMIT_MAX: '5',
      LOGIN_RATE_LIMIT_IP_MAX: '12',
    },
    { clock },
  );
  const platform = await platformTenant(server);
  const su = await server.createUser(platform.id, { profile: 'superadmin' });
  superadmin = { ...su, token: (await server.login(su)).token };
  [{ id: planId }] = await server.deps.dataSource.query(
    `INSERT INTO plans (name, value, "maxUsers", "maxConnections", trial, "trialDays") VALUES ($1, 99, 4, 2, true, 7) RETURNING id`,
    [`Plano ${unique()}`],
  );
  // Another file sharing the database may have switched sign-up off.
  await server.request('PUT', '/admin/signup-settings', { token: superadmin.token, body: { allowSignup: true } });
});
afterAll(async () => {
  await server?.close();
  await smtp.stop();
});

describe('POST /empresa/signup and the e-mailed link', () => {
  it('creates a pending tenant on the plan, mails a single-use link that activates it, and then its admin logs in', async () => {
    const form = validForm();
    const res = await signupWithCaptcha({ ...form, email: `  ${form.email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: 'Cadastro realizado! Enviamos um link de confirmação para o seu e-mail.',
      email: form.email,
      mailSent: true,
    });

    const tenant = await tenantOf(form.email);
    expect(tenant).toMatchObject({ name: form.name, status: 'inactive', identity: '52998224725', planId, maxUsers: 4, maxConnections: 2, profile: 'admin', userName: form.name });
    const [settings] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM settings WHERE "tenantId" = $1`, [tenant.id]);
    expect(settings.n).toBeGreaterThan(0);

    const mail = await smtp.waitForMail(form.email);
    expect(mail.subject).toBe('Confirme o seu cadastro');
    expect(mail.text).toContain(`Olá, ${form.name}!`);
    expect(mail.text).toContain('48 horas');
    const token = tokenOf(mail);
    const [row] = await server.deps.dataSource.query(`SELECT "tokenHash", phone, "confirmedAt" FROM signups WHERE "tenantId" = $1`, [tenant.id]);
    expect(row).toEqual({ tokenHash: createHash('sha256').update(token).digest('hex'), phone: '11987654321', confirmedAt: null });

    // Before the confirmation: the right password is refused with the spec's text, a wrong one says nothing more.
    const early = await login(form.email, form.password);
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ error: 'ERR_TENANT_EMAIL_NOT_CONFIRMED', message: PENDING_TEXT });
    const wrong = await login(form.email, 'outra#senha1');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ message: 'E-mail confirmado! A sua empresa está ativa: entre com o seu e-mail e senha.', email: form.email });
    expect((await tenantOf(form.email)).status).toBe('active');

    const ok = await login(form.email, form.password);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ profile: 'admin', tenantId: tenant.id, email: form.email });

    // The link works once.
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'ERR_INVALID_SIGNUP_TOKEN', message: 'Link de confirmação inválido, expirado ou já utilizado.' });
  });

  it('refuses an expired link; the super administrator lists the pending tenant and confirms it', async () => {
    const form = validForm();
    expect((await signupWithCaptcha(form)).status).toBe(201);
    const token = tokenOf(await smtp.waitForMail(form.email));
    const tenant = await tenantOf(form.email);

    clock.advance(49 * 3600_000);
    try {
      const late = await confirm(token);
      expect(late.status).toBe(400);
      expect(late.body.error).toBe('ERR_INVALID_SIGNUP_TOKEN');
      expect((await tenantOf(form.email)).status).toBe('inactive');

      const pending = await server.request('GET', '/admin/signups', { token: superadmin.token });
      expect(pending.status).toBe(200);
      const item = pending.body.find((p: { tenantId: number }) => p.tenantId === tenant.id);
      expect(item).toMatchObject({
        tenantId: tenant.id,
        tenantName: form.name,
        identity: '52998224725',
        adminName: form.name,
        email: form.email,
        phone: '11987654321',
        planId,
      });
      expect(typeof item.planName).toBe('string');
      expect(Date.parse(item.linkExpiresAt)).toBeLessThan(clock.now().getTime());

      const done = await server.request('POST', `/admin/signups/${tenant.id}/confirm`, { token: superadmin.token });
      expect(done.status).toBe(200);
      expect(done.body.email).toBe(form.email);
      expect((await tenantOf(form.email)).status).toBe('active');
      const [row] = await server.deps.dataSource.query(`SELECT "confirmedBy" FROM signups WHERE "tenantId" = $1`, [tenant.id]);
      expect(row.confirmedBy).toBe('superadmin');
      expect((await login(form.email, form.password)).status).toBe(200);

      const listed = await server.request('GET', '/admin/signups', { token: superadmin.token });
      expect(listed.body.some((p: { tenantId: number }) => p.tenantId === tenant.id)).toBe(false);
      const twice = await server.request('POST', `/admin/signups/${tenant.id}/confirm`, { token: superadmin.token });
      expect(twice.status).toBe(404);
      expect(twice.body.error).toBe('ERR_NO_SIGNUP_FOUND');
      // The link of a tenant the super administrator confirmed no longer works either.
      expect((await confirm(token)).status).toBe(400);
    } finally {
      clock.advance(-49 * 3600_000);
    }
  });

  it('refuses a made-up or malformed token', async () => {
    expect((await confirm('x'.repeat(43))).body.error).toBe('ERR_INVALID_SIGNUP_TOKEN');
    for (const bad of [undefined, '', 42, 'y'.repeat(600)]) {
      const res = await confirm(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
  });
});

describe('sign-up validation (spec section 5)', () => {
  const fieldsOf = (body: { fields?: { path: string; message: string }[] }) =>
    Object.fromEntries((body.fields ?? []).map((f) => [f.path, f.message]));

  it("answers 'Preencha todos os campos!' for each empty field", async () => {
    const empty = await signup({});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('ERR_VALIDATION');
    expect(fieldsOf(empty.body)).toEqual({ name: FILL_ALL, taxId: FILL_ALL, email: FILL_ALL, phone: FILL_ALL, password: FILL_ALL, planId: FILL_ALL });
    for (const field of ['name', 'taxId', 'email', 'phone', 'password'] as const) {
      const res = await signup({ ...validForm(), [field]: '   '.slice(0, field === 'password' ? 0 : 3) });
      expect(res.status, field).toBe(400);
      expect(fieldsOf(res.body), field).toEqual({ [field]: FILL_ALL });
    }
    const noPlan = await signup({ ...validForm(), planId: null });
    expect(fieldsOf(noPlan.body)).toEqual({ planId: FILL_ALL });
  });

  it('checks the CPF/CNPJ digits, the e-mail, the mobile phone and the password policy', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ taxId: '529.982.247-24' }, { taxId: 'CPF/CNPJ inválido' }],
      [{ taxId: '111.111.111-11' }, { taxId: 'CPF/CNPJ inválido' }],
      [{ taxId: '11.222.333/0001-80' }, { taxId: 'CPF/CNPJ inválido' }],
      [{ taxId: '12345' }, { taxId: 'CPF/CNPJ inválido' }],
      [{ email: 'maria@' }, { email: 'E-mail inválido' }],
      [{ email: 'maria example.com' }, { email: 'E-mail inválido' }],
      [{ phone: '1234' }, { phone: 'Celular inválido' }],
      [{ password: 'ab1!' }, { password: 'A senha deve ter no mínimo 7 caracteres' }],
      [{ password: 'abcdefg!' }, { password: 'A senha deve conter números' }],
      [{ password: '1234567!' }, { password: 'A senha deve conter letras' }],
      [{ password: 'abcd1234' }, { password: 'A senha deve conter um caractere especial' }],
    ];
    for (const [change, expected] of cases) {
      const res = await signup({ ...validForm(), ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(change)).toEqual(expected);
    }
    // A CNPJ with valid digits is accepted (the answer moves on to the captcha).
    const cnpj = await signup({ ...validForm(), taxId: '11.222.333/0001-81' });
    expect(cnpj.body.error).toBe('ERR_CAPTCHA');
  });

  it('refuses a body that is not an object, unknown fields and a plan that is not offered', async () => {
    for (const body of ['[]', '"x"', 'null']) {
      const res = await server.request('POST', '/empresa/signup', { body, headers: { 'x-forwarded-for': nextIp() } });
      expect(res.status, body).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const extra = await signup({ ...validForm(), profile: 'superadmin' });
    expect(extra.status).toBe(400);
    expect(fieldsOf(extra.body)).toHaveProperty('profile');

    const [{ id: hidden }] = await server.deps.dataSource.query(
      `INSERT INTO plans (name, value, active) VALUES ('Plano interno', 0, false) RETURNING id`,
    );
    for (const plan of [hidden, 2147483000]) {
      const form = { ...validForm(), planId: plan };
      const res = await signupWithCaptcha(form);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_PLAN_FOUND');
      expect(await tenantOf(form.email)).toBeUndefined();
    }
  });

  it('refuses an e-mail already used by any user, in any case, and creates nothing', async () => {
    const other = await server.createTenant();
    const existing = await server.createUser(other.id, { profile: 'user' });
    const before = (await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tenants`))[0].n;
    const res = await signupWithCaptcha({ ...validForm(), email: existing.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS', message: 'Já existe um usuário com este e-mail.' });
    expect((await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tenants`))[0].n).toBe(before);
  });
});

describe('sign-up captcha, rate limit and switch', () => {
  it('requires an unused, correct captcha answer before anything is created', async () => {
    const CAPTCHA_TEXT = 'Por favor, valide o CAPTCHA antes de continuar.';
    const form = validForm();
    const missing = await signup(form);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'ERR_CAPTCHA', message: CAPTCHA_TEXT });

    const answer = await captchaAnswer(server.url);
    const wrong = await signup({ ...form, captchaToken: answer.captchaToken, captchaSolution: 'not-the-answer' });
    expect(wrong.body).toMatchObject({ error: 'ERR_CAPTCHA', message: CAPTCHA_TEXT });
    const forged = await signup({ ...form, captchaToken: `${answer.captchaToken}x`, captchaSolution: answer.captchaSolution });
    expect(forged.body.error).toBe('ERR_CAPTCHA');
    expect(await tenantOf(form.email)).toBeUndefined();

    expect((await signup({ ...form, ...answer })).status).toBe(201);
    // The same answer again (a replay) is refused.
    const replay = await signup({ ...form, email: `outro-${form.email}`, ...answer });
    expect(replay.body.error).toBe('ERR_CAPTCHA');
    expect(await tenantOf(`outro-${form.email}`)).toBeUndefined();
  });

  it('limits attempts per e-mail and IP, then per IP, with ERR_LIMIT_MAX and Retry-After', async () => {
    const ip = nextIp();
    const form = validForm();
    for (let i = 0; i < 5; i++) expect((await signup({ ...form, taxId: 'x' }, ip)).status).toBe(400);
    const limited = await signup(form, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_LIMIT_MAX');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other e-mails from the same IP until the IP's own limit (12).
    for (let i = 0; i < 6; i++) expect((await signup({ ...validForm(), taxId: 'x' }, ip)).status).toBe(400);
    expect((await signup({ ...validForm(), taxId: 'x' }, ip)).status).toBe(429);
    // Another IP is not affected.
    expect((await signup({ ...form, taxId: 'x' })).status).toBe(400);
  });

  it('answers ERR_USER_CREATION_DISABLED to every sign-up while the super administrator has it switched off', async () => {
    const off = await server.request('PUT', '/admin/signup-settings', { token: superadmin.token, body: { allowSignup: false } });
    try {
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ allowSignup: false });
      expect((await server.request('GET', '/empresa/signup/status')).body).toEqual({ allowSignup: false });
      expect((await server.request('GET', '/admin/signup-settings', { token: superadmin.token })).body).toEqual({ allowSignup: false });
      const form = validForm();
      for (const body of [form, {}]) {
        const res = await signupWithCaptcha(body as Record<string, unknown>);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error: 'ERR_USER_CREATION_DISABLED', message: 'Criação de usuários desabilitada pelo administrador.' });
      }
      expect(await tenantOf(form.email)).toBeUndefined();
    } finally {
      const on = await server.request('PUT', '/admin/signup-settings', { token: superadmin.token, body: { allowSignup: true } });
      expect(on.body).toEqual({ allowSignup: true });
    }
    expect((await server.request('GET', '/empresa/signup/status')).body).toEqual({ allowSignup: true });
    expect((await signupWithCaptcha(validForm())).status).toBe(201);
  });
});

describe('sign-up administration is the super administrator\'s', () => {
  it('refuses every other profile of two tenants (and a superadmin profile outside the platform tenant)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const strayUser = await server.createUser(b.tenant.id, { profile: 'superadmin' });
    const stray = { ...strayUser, token: (await server.login(strayUser)).token };
    const form = validForm();
    expect((await signupWithCaptcha(form)).status).toBe(201);
    const pending = await tenantOf(form.email);
    const callers = [a.users.admin, a.users.super, a.users.user, b.users.admin, b.users.super, b.users.user, stray];
    for (const caller of callers) {
      const who = `${caller.profile} of tenant ${caller.tenantId}`;
      const calls = [
        await server.request('GET', '/admin/signups', { token: caller.token }),
        await server.request('POST', `/admin/signups/${pending.id}/confirm`, { token: caller.token }),
        await server.request('POST', `/admin/signups/not-an-id/confirm`, { token: caller.token }),
        await server.request('GET', '/admin/signup-settings', { token: caller.token }),
        await server.request('PUT', '/admin/signup-settings', { token: caller.token, body: { allowSignup: false } }),
      ];
      for (const res of calls) {
        expect(res.status, who).toBe(403);
        expect(res.body.error, who).toBe('ERR_NO_PERMISSION');
      }
    }
    expect((await tenantOf(form.email)).status).toBe('inactive');
    expect((await server.request('GET', '/empresa/signup/status')).body).toEqual({ allowSignup: true });
    // Without a session: 401.
    expect((await server.request('GET', '/admin/signups')).status).toBe(401);
  });

  it('answers 400 to a malformed switch or id and 404 to an unknown tenant', async () => {
    for (const body of [{}, { allowSignup: 'yes' }, { allowSignup: true, extra: 1 }, '[]']) {
      const res = await server.request('PUT', '/admin/signup-settings', { token: superadmin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const badId = await server.request('POST', '/admin/signups/abc/confirm', { token: superadmin.token });
    expect(badId.status).toBe(400);
    const unknown = await server.request('POST', '/admin/signups/2147483000/confirm', { token: superadmin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_SIGNUP_FOUND');
    // A tenant that did not come from sign-up has nothing to confirm.
    const plain = await server.createTenant();
    expect((await server.request('POST', `/admin/signups/${plain.id}/confirm`, { token: superadmin.token })).status).toBe(404);
  });
});
