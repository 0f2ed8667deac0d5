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
  path: '/teams',
  table: 'teams',
  notFound: 'ERR_NO_TEAM_FOUND',
  events: { update: SOCKET_EVENTS.teamUpdate, delete: SOCKET_EVENTS.teamDelete },
  createBody: () => ({ name: `Equipe ${uniqueSuffix()}`, active: true }),
  updateBody: () => ({ name: `Time ${uniqueSuffix()}`, active: false }),
  malformed: { body: { name: 'Equipe', users: ['abc'] }, field: 'users.0' },
});

describe('team members', () => {
  it('sets, answers and replaces the members', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const created = await server.request('POST', '/teams', {
      token,
      body: { name: 'Suporte N1', users: [a.users.user.id, a.users.super.id, a.users.user.id] },
    });
    expect(created.status).toBe(201);
    expect(created.body.users.map((u: { id: number }) => u.id).sort()).toEqual([a.users.user.id, a.users.super.id].sort());
    expect(created.body.users[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      email: expect.any(String),
      profile: expect.any(String),
    });

    const renamed = await server.request('PUT', `/teams/${created.body.id}`, { token, body: { name: 'Suporte N2' } });
    expect(renamed.body.users).toHaveLength(2);

    const replaced = await server.request('PUT', `/teams/${created.body.id}`, { token, body: { users: [a.users.admin.id] } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.users.map((u: { id: number }) => u.id)).toEqual([a.users.admin.id]);

    const list = await server.request('GET', '/teams', { token: a.users.user.token });
    expect(list.body.find((t: { id: number }) => t.id === created.body.id).users.map((u: { id: number }) => u.id)).toEqual([
      a.users.admin.id,
    ]);
  });

  it("refuses another tenant's user (400 naming users) and changes nothing", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const team = await server.request('POST', '/teams', {
      token: a.users.admin.token,
      body: { name: 'Vendas', users: [a.users.user.id] },
    });
    const res = await server.request('PUT', `/teams/${team.body.id}`, {
      token: a.users.admin.token,
      body: { name: 'Vendas 2', users: [b.users.user.id] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields[0].path).toBe('users');
    const rows = await server.deps.dataSource.query(`SELECT "userId" FROM team_users WHERE "teamId" = $1`, [team.body.id]);
    expect(rows.map((r: { userId: number }) => r.userId)).toEqual([a.users.user.id]);
    const [row] = await server.deps.dataSource.query(`SELECT name FROM teams WHERE id = $1`, [team.body.id]);
    expect(row.name).toBe('Vendas');
    const create = await server.request('POST', '/teams', {
      token: a.users.admin.token,
      body: { name: 'Outra', users: [b.users.admin.id] },
    });
    expect(create.status).toBe(400);
  });

  it('refuses a duplicate team name (409 ERR_TEAM_EXISTS)', async () => {
    const a = await server.createTenantWithUsers();
    await server.request('POST', '/teams', { token: a.users.admin.token, body: { name: 'Noturno' } });
    const dup = await server.request('POST', '/teams', { token: a.users.admin.token, body: { name: 'noturno' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_TEAM_EXISTS');
  });
});
