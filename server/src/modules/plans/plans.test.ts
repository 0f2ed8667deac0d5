import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicPlan } from '@shared/schemas/plans';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function createPlan(fields: {
  name: string;
  value: string;
  active: boolean;
  trial?: boolean;
  trialDays?: number;
}): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO plans (name, value, "maxConnections", "maxUsers", trial, "trialDays", active) VALUES ($1, $2, 2, 5, $3, $4, $5) RETURNING id`,
    [fields.name, fields.value, fields.trial ?? false, fields.trialDays ?? 0, fields.active],
  );
  return row.id;
}

describe('GET /plans/listpublic', () => {
  it('lists active plans, cheapest first, with the sign-up fields only, without a token', async () => {
    const tag = randomBytes(3).toString('hex');
    const premium = await createPlan({ name: `Premium ${tag}`, value: '199.90', active: true, trial: true, trialDays: 7 });
    const basic = await createPlan({ name: `Básico ${tag}`, value: '49.00', active: true });
    const retired = await createPlan({ name: `Antigo ${tag}`, value: '10.00', active: false });

    const res = await server.request('GET', '/plans/listpublic');
    expect(res.status).toBe(200);
    const mine = (res.body as PublicPlan[]).filter((p) => [premium, basic, retired].includes(p.id));
    expect(mine).toEqual([
      { id: basic, name: `Básico ${tag}`, value: 49, maxUsers: 5, maxConnections: 2, trial: false, trialDays: 0 },
      { id: premium, name: `Premium ${tag}`, value: 199.9, maxUsers: 5, maxConnections: 2, trial: true, trialDays: 7 },
    ]);
    for (const plan of res.body as Record<string, unknown>[]) {
      expect(Object.keys(plan).sort()).toEqual(['id', 'maxConnections', 'maxUsers', 'name', 'trial', 'trialDays', 'value']);
    }
  });

  it('answers the same to a signed-in caller and with a trailing slash', async () => {
    const { users } = await server.createTenantWithUsers();
    const id = await createPlan({ name: `Plano ${randomBytes(3).toString('hex')}`, value: '5.50', active: true });
    // Other files may add plans meanwhile (shared database): compare this file's plan only.
    const pick = (body: PublicPlan[]) => body.find((p) => p.id === id);
    const anonymous = await server.request('GET', '/plans/listpublic');
    const signedIn = await server.request('GET', '/plans/listpublic/', { token: users.user.token });
    expect(signedIn.status).toBe(200);
    expect(pick(anonymous.body)).toMatchObject({ id, value: 5.5 });
    expect(pick(signedIn.body)).toEqual(pick(anonymous.body));
  });
});

describe('plans management (platform super administrator)', () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    name: `Plano ${randomBytes(3).toString('hex')}`,
    value: 149.9,
    maxUsers: 5,
    maxConnections: 2,
    trial: true,
    trialDays: 7,
    active: true,
    ...extra,
  });

  it('creates, lists, edits and deletes a plan; an inactive plan leaves the public list', async () => {
    const { token } = await server.platformSuperadmin();
    const created = await server.request('POST', '/plans', { token, body: body({ name: 'Profissional' }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Profissional', value: 149.9, maxUsers: 5, maxConnections: 2, trial: true, trialDays: 7, active: true, tenantCount: 0 });
    const id = created.body.id;

    const list = await server.request('GET', '/plans/list', { token });
    expect(list.status).toBe(200);
    expect((list.body as any[]).find((p) => p.id === id)).toMatchObject({ name: 'Profissional' });

    const edited = await server.request('PUT', `/plans/${id}`, { token, body: { value: '199.00', active: false, trial: false } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ value: 199, active: false, trial: false, trialDays: 7 });
    const publicList = await server.request('GET', '/plans/listpublic');
    expect((publicList.body as PublicPlan[]).some((p) => p.id === id)).toBe(false);
    const reactivated = await server.request('PUT', `/plans/${id}`, { token, body: { active: true } });
    expect(reactivated.body.active).toBe(true);
    expect(((await server.request('GET', '/plans/listpublic')).body as PublicPlan[]).some((p) => p.id === id)).toBe(true);

    expect((await server.request('DELETE', `/plans/${id}`, { token })).status).toBe(204);
    expect((await server.request('DELETE', `/plans/${id}`, { token })).status).toBe(404);
  });

  it('refuses to delete a plan some tenant is on (409), which stays', async () => {
    const { planId } = await server.createTenantThroughApi({ maxUsers: 9, maxConnections: 9 }); // limits no other test uses: a plan of its own
    const { token } = await server.platformSuperadmin();
    const res = await server.request('DELETE', `/plans/${planId}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_PLAN_IN_USE');
    const list = await server.request('GET', '/plans/list', { token });
    expect((list.body as any[]).find((p) => p.id === planId)).toMatchObject({ tenantCount: 1 });
  });

  it('answers malformed bodies 400 naming the field, an unknown plan 404', async () => {
    const { token } = await server.platformSuperadmin();
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [body({ name: '   ' }), 'name'],
      [body({ value: -1 }), 'value'],
      [body({ value: 'caro' }), 'value'],
      [body({ maxUsers: 0 }), 'maxUsers'],
      [body({ maxConnections: 1.5 }), 'maxConnections'],
      [body({ trial: true, trialDays: 0 }), 'trialDays'],
      [body({ active: 'sim' }), 'active'],
    ];
    for (const [payload, field] of cases) {
      const res = await server.request('POST', '/plans', { token, body: payload });
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(JSON.stringify(res.body.fields)).toContain(field);
    }
    expect((await server.request('PUT', '/plans/99999999', { token, body: { name: 'x' } })).status).toBe(404);
    expect((await server.request('PUT', '/plans/abc', { token, body: { name: 'x' } })).status).toBe(400);
    const created = await server.request('POST', '/plans', { token, body: body() });
    expect((await server.request('PUT', `/plans/${created.body.id}`, { token, body: {} })).status).toBe(400);
    // Turning the trial on for a plan with 0 days is refused too.
    const noTrial = await server.request('POST', '/plans', { token, body: body({ trial: false, trialDays: 0 }) });
    const bad = await server.request('PUT', `/plans/${noTrial.body.id}`, { token, body: { trial: true } });
    expect(bad.status).toBe(400);
  });
});

describe('the user limit comes from the plan', () => {
  const newUser = (token: string) =>
    server.request('POST', '/users', {
      token,
      body: { name: 'Agente', email: `agente-${randomBytes(4).toString('hex')}@test.example.com`, password: 'Senha#123', profile: 'user' },
    });

  it('exactly maxUsers users are allowed, one more is refused; a bigger plan lets it in', async () => {
    const { admin, tenant } = await server.createTenantThroughApi({ maxUsers: 3 });
    // The admin is user 1 of 3.
    expect((await newUser(admin.token)).status).toBe(201);
    expect((await newUser(admin.token)).status).toBe(201);
    const over = await newUser(admin.token);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'ERR_USER_LIMIT', message: 'Limite de usuários atingido.' });
    const [count] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE "tenantId" = $1`, [tenant.id]);
    expect(count.n).toBe(3);

    const { token } = await server.platformSuperadmin();
    const bigger = await server.request('POST', '/plans', { token, body: { name: `Maior ${randomBytes(3).toString('hex')}`, value: 1, maxUsers: 4, maxConnections: 1 } });
    const moved = await server.request('PUT', `/admin/empresa/${tenant.id}`, { token, body: { planId: bigger.body.id } });
    expect(moved.body.maxUsers).toBe(4);
    expect((await newUser(admin.token)).status).toBe(201);
    expect((await newUser(admin.token)).status).toBe(400);
  });
});
