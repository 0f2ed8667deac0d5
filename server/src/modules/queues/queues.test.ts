import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { describeCatalogRoutes, uniqueSuffix } from '../../../../tests/helpers/catalog-route-suite';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describeCatalogRoutes(() => server, {
  path: '/queue',
  table: 'queues',
  notFound: 'ERR_NO_QUEUE_FOUND',
  events: { update: SOCKET_EVENTS.queueUpdate, delete: SOCKET_EVENTS.queueDelete },
  createBody: () => ({
    name: `Suporte ${uniqueSuffix()}`,
    color: '#AA00FF',
    greetingMessage: 'Olá! Em que podemos ajudar?',
    active: true,
  }),
  updateBody: () => ({ name: `Vendas ${uniqueSuffix()}`, active: false }),
  malformed: { body: { name: '   ', color: 'azul' }, field: 'name' },
});

describe('queues rules', () => {
  it('refuses a second queue with the same name in any letter case (409 ERR_QUEUE_EXISTS), but another tenant may use it', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const name = `Financeiro ${uniqueSuffix()}`;
    expect((await server.request('POST', '/queue', { token: a.users.admin.token, body: { name } })).status).toBe(201);
    const dup = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: name.toUpperCase() } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_QUEUE_EXISTS');
    expect(dup.body.fields[0].path).toBe('name');
    expect((await server.request('POST', '/queue', { token: b.users.admin.token, body: { name } })).status).toBe(201);
  });

  it('refuses renaming onto another queue name', async () => {
    const a = await server.createTenantWithUsers();
    await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Suporte' } });
    const other = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Vendas' } });
    const res = await server.request('PUT', `/queue/${other.body.id}`, { token: a.users.admin.token, body: { name: 'suporte' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_QUEUE_EXISTS');
  });

  it('applies defaults and answers the full shape', async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('POST', '/queue', {
      token: a.users.admin.token,
      body: { name: 'Geral', greetingMessage: '' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Geral',
      color: '#5C7CFA',
      greetingMessage: null,
      active: true,
      businessHours: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('refuses to delete a queue that has tickets (409 ERR_QUEUE_TICKET_EXISTS) and keeps it', async () => {
    const a = await server.createTenantWithUsers();
    const queue = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Com atendimentos' } });
    const ds = server.deps.dataSource;
    const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name) VALUES ($1, 'Maria') RETURNING id`, [a.tenant.id]);
    await ds.query(`INSERT INTO tickets ("tenantId", "contactId", "queueId", status) VALUES ($1, $2, $3, 'closed')`, [
      a.tenant.id,
      contact.id,
      queue.body.id,
    ]);
    const res = await server.request('DELETE', `/queue/${queue.body.id}`, { token: a.users.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_QUEUE_TICKET_EXISTS');
    expect(await ds.query(`SELECT id FROM queues WHERE id = $1`, [queue.body.id])).toHaveLength(1);
  });
});

describe('queue business hours', () => {
  const week = (type: 'O' | 'C' | 'H') =>
    Array.from({ length: 7 }, (_, day) => ({ day, type, hr1: '09:00', hr2: '12:00', hr3: '13:00', hr4: '17:00' }));

  it('stores the queue week, answers it sorted, and clears it with null (the tenant hours apply again)', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const created = await server.request('POST', '/queue', { token, body: { name: 'Plantão', businessHours: week('H').reverse() } });
    expect(created.status).toBe(201);
    expect(created.body.businessHours.map((d: { day: number }) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const edited = await server.request('PUT', `/queue/${created.body.id}`, { token, body: { businessHours: week('O') } });
    expect(edited.body.businessHours[3]).toMatchObject({ day: 3, type: 'O' });
    const cleared = await server.request('PUT', `/queue/${created.body.id}`, { token, body: { businessHours: null } });
    expect(cleared.body.businessHours).toBeNull();
  });

  it('refuses a week that is not the 7 days or has a period ending before it starts (400 naming the field)', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const short = await server.request('POST', '/queue', { token, body: { name: 'X', businessHours: week('O').slice(0, 3) } });
    expect(short.status).toBe(400);
    expect(short.body.fields[0].path).toBe('businessHours');
    const bad = week('H');
    bad[2] = { ...bad[2], hr1: '15:00' };
    const res = await server.request('POST', '/queue', { token, body: { name: 'Y', businessHours: bad } });
    expect(res.status).toBe(400);
    expect(res.body.fields[0].path).toBe('businessHours.2.hr2');
  });
});

describe('GET /queue/user', () => {
  it("answers the caller's queues only, skipping ids of deleted queues", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const mine = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Minha' } });
    const other = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Outra' } });
    const gone = await server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Removida' } });
    const foreign = await server.request('POST', '/queue', { token: b.users.admin.token, body: { name: 'Estrangeira' } });
    await server.request('DELETE', `/queue/${gone.body.id}`, { token: a.users.admin.token });
    await server.deps.dataSource.query(`UPDATE users SET queues = $1::jsonb WHERE id = $2`, [
      JSON.stringify([mine.body.id, gone.body.id, foreign.body.id]),
      a.users.user.id,
    ]);
    const res = await server.request('GET', '/queue/user', { token: a.users.user.token });
    expect(res.status).toBe(200);
    expect(res.body.map((q: { id: number }) => q.id)).toEqual([mine.body.id]);
    expect(res.body.map((q: { id: number }) => q.id)).not.toContain(other.body.id);
    const admin = await server.request('GET', '/queue/user', { token: a.users.admin.token });
    expect(admin.body).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/queue/user')).status).toBe(401);
  });
});
