import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@shared/profiles';
import { FakeAsaas } from '../../../../tests/fakes/asaas.fake';
import { postJson } from '../../../../tests/fakes/fake-http-server';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { type TestServer, type TestTenant, type TestUser } from '../../../../tests/helpers/test-server';
import { startIsolatedTestServer } from '../../../../tests/helpers/isolated-server';
import { PAYMENTS_OVERDUE_TASK } from './payments.routes';

const DAY_MS = 24 * 60 * 60_000;
const WEBHOOK_TOKEN = 'whk-token-0123456789abcdef';
const GRACE_DAYS = 5;

/**
 * A controllable clock. It starts 40 days in the past, so due dates made with it are in the
 * past of the real calendar too: with DATABASE_URL several test servers share the database, and
 * their own (real-clock) overdue sweeps then agree with this file's.
 */
let offsetMs = -40 * DAY_MS;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const dayOf = (extraDays: number) => new Date(clock.now().getTime() + extraDays * DAY_MS).toISOString().slice(0, 10);

let server: TestServer;
let fake: FakeAsaas;
let platform: TestTenant;
let superadmin: TestUser & { token: string };
type Team = Awaited<ReturnType<TestServer['createTenantWithUsers']>> & { superadminElsewhere: TestUser & { token: string } };
let a: Team;
let b: Team;

async function signedIn(tenantId: number, profile: Profile): Promise<TestUser & { token: string }> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

async function tenantOnPlan(value: number): Promise<Team> {
  const team = await server.createTenantWithUsers();
  const [plan] = await server.deps.dataSource.query(`INSERT INTO plans (name, value) VALUES ($1, $2) RETURNING id`, [`Plano ${value}`, value]);
  await server.deps.dataSource.query(`UPDATE tenants SET "planId" = $2 WHERE id = $1`, [team.tenant.id, plan.id]);
  // A superadmin profile outside the platform tenant has no platform power.
  return { ...team, superadminElsewhere: await signedIn(team.tenant.id, 'superadmin') };
}

const webhookUrl = () => `${server.url}/subscription/whazing/webhook`;
const configure = (body: Record<string, unknown>) => server.request('PUT', '/admin/payments/config', { token: superadmin.token, body });
const charge = (tenantId: number, dueDate = dayOf(1)) =>
  server.request('POST', '/admin/invoices', { token: superadmin.token, body: { tenantId, dueDate } });
const paymentRow = async (providerId: string) =>
  (await server.deps.dataSource.query(`SELECT status, "paidAt", "updatedAt" FROM tenant_payments WHERE "providerId" = $1`, [providerId]))[0];

beforeAll(async () => {
  fake = await new FakeAsaas().start();
  server = await startIsolatedTestServer({}, { clock });
  platform = await platformTenant(server);
  superadmin = await signedIn(platform.id, 'superadmin');
  a = await tenantOnPlan(149.9);
  b = await tenantOnPlan(99);
  fake.webhook = { url: webhookUrl(), token: WEBHOOK_TOKEN };
});
afterAll(async () => {
  await server?.close();
  await fake?.stop();
});

describe('super administrator only', () => {
  const calls: [string, string, unknown?][] = [
    ['GET', '/admin/payments/config'],
    ['PUT', '/admin/payments/config', { baseUrl: 'http://127.0.0.1:9', graceDays: 3 }],
    ['GET', '/admin/payments/tenants'],
    ['POST', '/admin/invoices', { tenantId: 1, dueDate: '2999-01-01' }],
    ['GET', '/invoices/all'],
  ];

  it('refuses every call to every other profile of two tenants (403), changing nothing', async () => {
    for (const team of [a, b]) {
      for (const caller of [team.users.user, team.users.super, team.users.admin, team.superadminElsewhere]) {
        for (const [method, path, body] of calls) {
          const res = await server.request(method, path, { token: caller.token, body });
          expect(res.status, `${caller.profile} of tenant ${team.tenant.id}: ${method} ${path}`).toBe(403);
          expect(res.body.error).toBe('ERR_NO_PERMISSION');
        }
      }
    }
    expect(await server.deps.dataSource.query(`SELECT 1 FROM settings WHERE key = 'platform:payments.baseUrl' AND value = 'http://127.0.0.1:9'`)).toEqual([]);
  });

  it('refuses anonymous calls (401)', async () => {
    for (const [method, path, body] of calls) expect((await server.request(method, path, { body })).status).toBe(401);
  });
});

describe('provider configuration', () => {
  it('a charge before the provider is configured is refused with a clear 422', async () => {
    const res = await charge(a.tenant.id);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('ERR_PAYMENT_PROVIDER_NOT_CONFIGURED');
  });

  it('stores base URL, key, webhook token and grace days; never echoes the secrets', async () => {
    const res = await configure({ baseUrl: fake.url, apiKey: fake.apiKey, webhookToken: WEBHOOK_TOKEN, graceDays: GRACE_DAYS });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ baseUrl: fake.url, graceDays: GRACE_DAYS, apiKeySet: true, webhookTokenSet: true });
    const read = await server.request('GET', '/admin/payments/config', { token: superadmin.token });
    expect(read.body).toEqual(res.body);
    // Nor through the tenant settings list of the platform tenant.
    const settings = await server.request('GET', '/settings', { token: superadmin.token });
    expect(settings.status).toBe(200);
    expect(JSON.stringify(settings.body)).not.toContain(fake.apiKey);
    expect(JSON.stringify(settings.body)).not.toContain(WEBHOOK_TOKEN);
  });

  it('an empty key keeps the stored one', async () => {
    const res = await configure({ baseUrl: fake.url, apiKey: '', webhookToken: '', graceDays: GRACE_DAYS });
    expect(res.body).toMatchObject({ apiKeySet: true, webhookTokenSet: true });
    const [row] = await server.deps.dataSource.query(`SELECT value FROM settings WHERE "tenantId" = 1 AND key = 'platform:payments.apiKey'`);
    expect(row.value).toBe(fake.apiKey);
  });

  it('refuses a malformed body naming each field (400)', async () => {
    const res = await configure({ baseUrl: 'ftp://x', graceDays: -1, webhookToken: 'short', surprise: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['baseUrl', 'graceDays', 'surprise', 'webhookToken']);
    expect((await server.request('PUT', '/admin/payments/config', { token: superadmin.token, body: '{not json' })).status).toBe(400);
  });
});

describe('charges', () => {
  it('creates the customer and a charge of the plan value at the provider, with bank slip and payment link', async () => {
    const res = await charge(a.tenant.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tenantId: a.tenant.id, value: 149.9, status: 'pending', dueDate: dayOf(1), tenantName: expect.any(String) });
    expect(res.body.bankSlipUrl).toBe(`${fake.url}/b/${res.body.providerId}`);
    expect(res.body.invoiceUrl).toBe(`${fake.url}/i/${res.body.providerId}`);
    const sent = fake.requestsTo('/v3/payments', 'POST').at(-1)!;
    expect(sent.headers['access_token']).toBe(fake.apiKey);
    expect(sent.json).toMatchObject({ value: 149.9, dueDate: dayOf(1), billingType: 'UNDEFINED', externalReference: `tenant:${a.tenant.id}` });
    const [tenant] = await server.deps.dataSource.query(`SELECT "customerId", "paymentActive" FROM tenants WHERE id = $1`, [a.tenant.id]);
    expect(tenant).toEqual({ customerId: sent.json.customer, paymentActive: true });

    // The second charge reuses the customer.
    const customers = fake.requestsTo('/v3/customers', 'POST').length;
    expect((await charge(a.tenant.id, dayOf(31))).status).toBe(201);
    expect(fake.requestsTo('/v3/customers', 'POST')).toHaveLength(customers);
  });

  it('refuses a tenant without a priced plan, an unknown tenant, the platform tenant and a past due date', async () => {
    const bare = await server.createTenant();
    expect((await charge(bare.id)).body.error).toBe('ERR_TENANT_NO_PLAN');
    // A value given for the charge needs no plan.
    const extra = await server.request('POST', '/admin/invoices', { token: superadmin.token, body: { tenantId: bare.id, dueDate: dayOf(2), value: '35,50' } });
    expect(extra.status).toBe(201);
    expect(extra.body.value).toBe(35.5);
    expect(fake.requestsTo('/v3/payments', 'POST').at(-1)!.json.value).toBe(35.5);
    const badValue = await server.request('POST', '/admin/invoices', { token: superadmin.token, body: { tenantId: bare.id, dueDate: dayOf(2), value: -1 } });
    expect(badValue.body.fields).toEqual([{ path: 'value', message: 'deve ser maior que zero' }]);
    expect((await charge(2_000_000_000)).status).toBe(404);
    expect((await charge(platform.id)).status).toBe(404);
    const past = await charge(a.tenant.id, dayOf(-1));
    expect(past.status).toBe(400);
    expect(past.body.fields).toEqual([{ path: 'dueDate', message: 'não pode ser anterior a hoje' }]);
    const malformed = await server.request('POST', '/admin/invoices', { token: superadmin.token, body: { tenantId: 'x', dueDate: '31/02/2030' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['dueDate', 'tenantId']);
  });

  it('answers the provider’s refusal as ERR_PAYMENT_PROVIDER with its description, storing nothing', async () => {
    fake.failNext({ status: 400, body: { errors: [{ code: 'invalid_customer', description: 'Cliente removido.' }] } }, { match: (r) => r.path === '/v3/payments' });
    const before = await server.request('GET', `/invoices/all?tenantId=${b.tenant.id}`, { token: superadmin.token });
    const res = await charge(b.tenant.id);
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('ERR_PAYMENT_PROVIDER');
    expect(res.body.message).toContain('Cliente removido.');
    const after = await server.request('GET', `/invoices/all?tenantId=${b.tenant.id}`, { token: superadmin.token });
    expect(after.body).toHaveLength(before.body.length);
  });

  it('lists every tenant’s charges to the super administrator, filtered by status and tenant', async () => {
    const bCharge = await charge(b.tenant.id);
    const all = await server.request('GET', '/invoices/all', { token: superadmin.token });
    expect(all.status).toBe(200);
    const tenants = new Set(all.body.map((i: { tenantId: number }) => i.tenantId));
    expect(tenants.has(a.tenant.id) && tenants.has(b.tenant.id)).toBe(true);
    const ofB = await server.request('GET', `/invoices/all?tenantId=${b.tenant.id}`, { token: superadmin.token });
    expect(ofB.body.map((i: { id: number }) => i.id)).toContain(bCharge.body.id);
    expect(ofB.body.every((i: { tenantId: number }) => i.tenantId === b.tenant.id)).toBe(true);
    const pending = await server.request('GET', '/invoices/all?status=pending', { token: superadmin.token });
    expect(pending.body.map((i: { id: number }) => i.id)).toContain(bCharge.body.id);
    expect(pending.body.every((i: { status: string }) => i.status === 'pending')).toBe(true);
    const paid = await server.request('GET', '/invoices/all?status=paid', { token: superadmin.token });
    expect(paid.body.map((i: { id: number }) => i.id)).not.toContain(bCharge.body.id);
    expect((await server.request('GET', '/invoices/all?status=received', { token: superadmin.token })).status).toBe(400);
    const billable = await server.request('GET', '/admin/payments/tenants', { token: superadmin.token });
    expect(billable.body.find((t: { id: number }) => t.id === b.tenant.id)).toMatchObject({ planValue: 99, blocked: false });
    expect(billable.body.find((t: { id: number }) => t.id === platform.id)).toBeUndefined();
  });
});

describe('a tenant’s own invoices and subscription', () => {
  it('shows the tenant admin its own invoices only; another tenant’s invoice is not found', async () => {
    const own = await server.request('GET', '/invoices', { token: a.users.admin.token });
    expect(own.status).toBe(200);
    expect(own.body.length).toBeGreaterThan(0);
    expect(own.body.every((i: { tenantId: number }) => i.tenantId === a.tenant.id)).toBe(true);
    const bInvoices = await server.request('GET', '/invoices', { token: b.users.admin.token });
    const foreign = bInvoices.body[0];
    expect(foreign.tenantId).toBe(b.tenant.id);
    expect((await server.request('GET', `/invoices/${foreign.id}`, { token: a.users.admin.token })).status).toBe(404);
    const mine = await server.request('GET', `/invoices/${own.body[0].id}`, { token: a.users.admin.token });
    expect(mine.body).toEqual(own.body[0]);
    expect((await server.request('GET', '/invoices/abc', { token: a.users.admin.token })).status).toBe(400);

    const subscription = await server.request('GET', '/subscription', { token: a.users.admin.token });
    expect(subscription.body).toMatchObject({ tenantId: a.tenant.id, plan: { name: 'Plano 149.9', value: 149.9 }, blocked: false, graceDays: GRACE_DAYS });
    expect(subscription.body.invoices).toEqual(own.body);
  });

  it('keeps invoices from agents and supervisors (403)', async () => {
    for (const caller of [a.users.user, a.users.super, b.users.user, b.users.super]) {
      for (const path of ['/invoices', '/subscription']) expect((await server.request('GET', path, { token: caller.token })).status).toBe(403);
    }
  });
});

describe('webhooks', () => {
  it('a forged webhook (missing or wrong token) is refused and changes nothing', async () => {
    const created = await charge(b.tenant.id);
    const providerId = created.body.providerId;
    expect((await fake.pay(providerId, { token: 'not-the-token-0123456789' })).status).toBe(401);
    const body = { id: 'evt_forged', event: 'PAYMENT_RECEIVED', payment: { id: providerId, status: 'RECEIVED' } };
    expect((await postJson(webhookUrl(), body)).status).toBe(401);
    expect((await paymentRow(providerId)).status).toBe('pending');
  });

  it('a valid PAYMENT_RECEIVED marks the charge paid; its replay and a same-status event change nothing', async () => {
    const created = await charge(b.tenant.id);
    const providerId = created.body.providerId;
    const paid = await fake.pay(providerId);
    expect(paid).toEqual({ status: 200, body: { received: true, applied: true } });
    const row = await paymentRow(providerId);
    expect(row.status).toBe('paid');
    expect(row.paidAt).not.toBeNull();

    const replay = await fake.replayLast();
    expect(replay).toEqual({ status: 200, body: { received: true, applied: false, reason: 'duplicate' } });
    const confirmed = await fake.deliver('PAYMENT_CONFIRMED', providerId);
    expect(confirmed.body).toEqual({ received: true, applied: false, reason: 'unchanged' });
    // A late PAYMENT_OVERDUE cannot take a paid charge back.
    expect((await fake.deliver('PAYMENT_OVERDUE', providerId)).body.applied).toBe(false);
    const after = await paymentRow(providerId);
    expect(after).toEqual(row);
  });

  it('answers an unknown charge 200 without change and a malformed event 400', async () => {
    const unknown = await postJson(webhookUrl(), { id: 'evt_x1', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_nope' } }, { 'asaas-access-token': WEBHOOK_TOKEN });
    expect(unknown).toEqual({ status: 200, body: { received: true, applied: false, reason: 'unknown-payment' } });
    const malformed = await postJson(webhookUrl(), { id: 'evt_x2', payment: 'x' }, { 'asaas-access-token': WEBHOOK_TOKEN });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('ERR_VALIDATION');
  });
});

describe('overdue charges block the tenant past the grace days', () => {
  it('marks overdue, blocks normal calls with ERR_ASAAS_OVERDUE but keeps the blocked menu’s, and a payment unblocks at once', async () => {
    const team = await tenantOnPlan(59.9);
    const bystander = await tenantOnPlan(59.9);
    const created = await charge(team.tenant.id, dayOf(1));
    const providerId = created.body.providerId;
    const tickets = () => server.request('GET', '/tickets', { token: team.users.admin.token });
    expect((await tickets()).status).toBe(200);

    // Two days after the due date: overdue, within the grace days, not blocked.
    offsetMs += 3 * DAY_MS;
    await server.deps.periodic.runNow(PAYMENTS_OVERDUE_TASK);
    expect((await paymentRow(providerId)).status).toBe('overdue');
    expect((await tickets()).status).toBe(200);

    // Past the grace days: blocked.
    offsetMs += GRACE_DAYS * DAY_MS;
    await server.deps.periodic.runNow(PAYMENTS_OVERDUE_TASK);
    for (const caller of [team.users.admin, team.users.user]) {
      const res = await server.request('GET', '/tickets', { token: caller.token });
      expect(res.status, caller.profile).toBe(402);
      expect(res.body.error).toBe('ERR_ASAAS_OVERDUE');
    }
    expect((await server.request('GET', '/contacts', { token: team.users.admin.token })).status).toBe(402);
    // What the blocked menu needs stays reachable.
    const subscription = await server.request('GET', '/subscription', { token: team.users.admin.token });
    expect(subscription.status).toBe(200);
    expect(subscription.body.blocked).toBe(true);
    expect(subscription.body.invoices[0]).toMatchObject({ providerId, status: 'overdue', invoiceUrl: `${fake.url}/i/${providerId}` });
    expect((await server.request('GET', '/invoices', { token: team.users.admin.token })).status).toBe(200);
    expect((await server.request('GET', '/settings', { token: team.users.admin.token })).status).toBe(200);
    expect((await server.request('GET', `/users/${team.users.admin.id}`, { token: team.users.admin.token })).status).toBe(200);
    // Other tenants and the super administrator are not affected.
    expect((await server.request('GET', '/tickets', { token: bystander.users.admin.token })).status).toBe(200);
    const listed = await server.request('GET', `/invoices/all?status=overdue&tenantId=${team.tenant.id}`, { token: superadmin.token });
    expect(listed.body.map((i: { providerId: string }) => i.providerId)).toEqual([providerId]);

    expect((await fake.pay(providerId)).body.applied).toBe(true);
    expect((await tickets()).status).toBe(200);
    expect((await server.request('GET', '/subscription', { token: team.users.admin.token })).body.blocked).toBe(false);
  });

  it('the provider’s PAYMENT_OVERDUE marks a pending charge overdue, and the grace days setting takes effect', async () => {
    const team = await tenantOnPlan(39.9);
    const created = await charge(team.tenant.id, dayOf(1));
    const providerId = created.body.providerId;
    offsetMs += 2 * DAY_MS;
    expect((await fake.overdue(providerId)).body.applied).toBe(true);
    expect((await paymentRow(providerId)).status).toBe('overdue');
    expect((await server.request('GET', '/tickets', { token: team.users.admin.token })).status).toBe(200);

    // Grace 0: one day overdue is past it; saving the setting applies it at once.
    await configure({ baseUrl: fake.url, graceDays: 0 });
    expect((await server.request('GET', '/tickets', { token: team.users.admin.token })).status).toBe(402);
    await configure({ baseUrl: fake.url, graceDays: GRACE_DAYS });
    expect((await server.request('GET', '/tickets', { token: team.users.admin.token })).status).toBe(200);
  });
});
