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
  path: '/tags',
  table: 'tags',
  notFound: 'ERR_NO_TAG_FOUND',
  events: { update: SOCKET_EVENTS.tagUpdate, delete: SOCKET_EVENTS.tagDelete },
  createBody: () => ({ name: `VIP ${uniqueSuffix()}`, color: '#ff0000', active: true }),
  updateBody: () => ({ name: `Lead ${uniqueSuffix()}`, color: '#00ff00', active: false }),
  malformed: { body: { name: 'Ok', color: 'red' }, field: 'color' },
});

describe('tags rules', () => {
  it('refuses to delete a tag linked to a contact (409 ERR_TAG_CONTACTS_EXISTS) and keeps it', async () => {
    const a = await server.createTenantWithUsers();
    const tag = await server.request('POST', '/tags', { token: a.users.admin.token, body: { name: 'Cliente' } });
    const ds = server.deps.dataSource;
    const [contact] = await ds.query(`INSERT INTO contacts ("tenantId", name) VALUES ($1, 'João') RETURNING id`, [a.tenant.id]);
    await ds.query(`INSERT INTO contact_tags ("contactId", "tagId", "tenantId") VALUES ($1, $2, $3)`, [
      contact.id,
      tag.body.id,
      a.tenant.id,
    ]);
    const res = await server.request('DELETE', `/tags/${tag.body.id}`, { token: a.users.admin.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_TAG_CONTACTS_EXISTS');
    expect(await ds.query(`SELECT id FROM tags WHERE id = $1`, [tag.body.id])).toHaveLength(1);
  });

  it('refuses a duplicate name in the tenant (409 ERR_TAG_EXISTS)', async () => {
    const a = await server.createTenantWithUsers();
    const name = `Quente ${uniqueSuffix()}`;
    await server.request('POST', '/tags', { token: a.users.admin.token, body: { name } });
    const dup = await server.request('POST', '/tags', { token: a.users.super.token, body: { name: ` ${name.toLowerCase()} ` } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_TAG_EXISTS');
  });
});
