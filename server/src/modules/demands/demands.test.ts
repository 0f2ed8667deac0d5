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
  path: '/demands',
  table: 'demands',
  notFound: 'ERR_NO_DEMAND_FOUND',
  events: { update: SOCKET_EVENTS.demandUpdate, delete: SOCKET_EVENTS.demandDelete },
  createBody: () => ({ name: `Dúvida ${uniqueSuffix()}`, active: true }),
  updateBody: () => ({ name: `Reclamação ${uniqueSuffix()}`, active: false }),
  malformed: { body: { name: 'x'.repeat(101) }, field: 'name' },
});

describe('demands rules', () => {
  it('keeps names unique per tenant, case-insensitive (409 ERR_DEMAND_EXISTS)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    await server.request('POST', '/demands', { token: a.users.admin.token, body: { name: 'Orçamento' } });
    const dup = await server.request('POST', '/demands', { token: a.users.admin.token, body: { name: 'ORÇAMENTO' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DEMAND_EXISTS');
    expect((await server.request('POST', '/demands', { token: b.users.admin.token, body: { name: 'Orçamento' } })).status).toBe(
      201,
    );
  });

  it('accepts multipart-style booleans ("false") as false', async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('POST', '/demands', {
      token: a.users.admin.token,
      body: { name: 'Texto', active: 'false' },
    });
    expect(res.status).toBe(201);
    expect(res.body.active).toBe(false);
    const bad = await server.request('POST', '/demands', {
      token: a.users.admin.token,
      body: { name: 'Outro', active: 'talvez' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('active');
  });
});
