import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { describeCatalogRoutes, uniqueSuffix } from '../../../../tests/helpers/catalog-route-suite';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('kanban columns', () => {
  describeCatalogRoutes(() => server, {
    path: '/kanban',
    table: 'kanbans',
    notFound: 'ERR_NO_KANBAN_FOUND',
    events: { update: SOCKET_EVENTS.kanbanUpdate, delete: SOCKET_EVENTS.kanbanDelete },
    createBody: () => ({ name: `Novo ${uniqueSuffix()}`, color: '#123456' }),
    updateBody: () => ({ name: `Em negociação ${uniqueSuffix()}`, active: false }),
    malformed: { body: { name: 12 }, field: 'name' },
    reorder: true,
  });

  it('leaves the contacts of a deleted column without a column', async () => {
    const a = await server.createTenantWithUsers();
    const column = await server.request('POST', '/kanban', { token: a.users.admin.token, body: { name: 'Fechado' } });
    const ds = server.deps.dataSource;
    const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name, "kanbanId") VALUES ($1, 'Ana', $2) RETURNING id`, [
      a.tenant.id,
      column.body.id,
    ]);
    expect((await server.request('DELETE', `/kanban/${column.body.id}`, { token: a.users.admin.token })).status).toBe(204);
    const [row] = await ds.query(`SELECT "kanbanId" FROM contacts WHERE id = $1`, [contact.id]);
    expect(row.kanbanId).toBeNull();
  });

  it('gives concurrently created columns distinct positions', async () => {
    const a = await server.createTenantWithUsers();
    const created = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((name) => server.request('POST', '/kanban', { token: a.users.admin.token, body: { name } })),
    );
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(created.map((r) => r.body.position).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('puts a column created after a delete at the end', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const first = await server.request('POST', '/kanban', { token, body: { name: 'A' } });
    const second = await server.request('POST', '/kanban', { token, body: { name: 'B' } });
    await server.request('DELETE', `/kanban/${first.body.id}`, { token });
    const third = await server.request('POST', '/kanban', { token, body: { name: 'C' } });
    const list = await server.request('GET', '/kanban', { token });
    expect(list.body.map((k: { id: number }) => k.id)).toEqual([second.body.id, third.body.id]);
  });
});

describe('lanes', () => {
  describeCatalogRoutes(() => server, {
    path: '/lanes',
    table: 'lanes',
    notFound: 'ERR_NO_LANE_FOUND',
    events: { update: SOCKET_EVENTS.laneUpdate, delete: SOCKET_EVENTS.laneDelete },
    createBody: () => ({ name: `Triagem ${uniqueSuffix()}`, color: '#abc' }),
    updateBody: () => ({ name: `Retorno ${uniqueSuffix()}` }),
    malformed: { body: { name: '' }, field: 'name' },
    reorder: true,
  });
});
