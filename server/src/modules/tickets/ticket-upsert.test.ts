import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { upsertActiveTicket } from './ticket-upsert';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('upsertActiveTicket', () => {
  it('creates one pending ticket with a protocol and a log, then reuses it', async () => {
    const tenant = await server.createTenant();
    const [contact] = await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Ana', '5511999990001') RETURNING id`, [tenant.id]);
    const first = await server.deps.dataSource.transaction((tx) => upsertActiveTicket(tx, { tenantId: tenant.id, contactId: contact.id, channelId: null }));
    expect(first.created).toBe(true);
    expect(first.ticket.status).toBe('pending');
    expect(first.ticket.protocol).toMatch(/^\d{8}\d{8}$/);
    const again = await server.deps.dataSource.transaction((tx) => upsertActiveTicket(tx, { tenantId: tenant.id, contactId: contact.id, channelId: null }));
    expect(again.created).toBe(false);
    expect(again.ticket.id).toBe(first.ticket.id);
    const logs = await server.deps.dataSource.query(`SELECT type FROM ticket_logs WHERE "ticketId" = $1`, [first.ticket.id]);
    expect(logs).toEqual([{ type: 'create' }]);
  });

  it('a burst of concurrent upserts for one contact yields exactly one active ticket', async () => {
    const tenant = await server.createTenant();
    const [contact] = await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Bia', '5511999990002') RETURNING id`, [tenant.id]);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.deps.dataSource.transaction((tx) => upsertActiveTicket(tx, { tenantId: tenant.id, contactId: contact.id, channelId: null })),
      ),
    );
    expect(new Set(results.map((r) => r.ticket.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM tickets WHERE "contactId" = $1`, [contact.id]);
    expect(count).toBe(1);
  });

  it('a closed ticket does not block a new one', async () => {
    const tenant = await server.createTenant();
    const [contact] = await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Caio', '5511999990003') RETURNING id`, [tenant.id]);
    const first = await server.deps.dataSource.transaction((tx) => upsertActiveTicket(tx, { tenantId: tenant.id, contactId: contact.id, channelId: null }));
    await server.deps.dataSource.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [first.ticket.id]);
    const second = await server.deps.dataSource.transaction((tx) => upsertActiveTicket(tx, { tenantId: tenant.id, contactId: contact.id, channelId: null }));
    expect(second.created).toBe(true);
    expect(second.ticket.id).not.toBe(first.ticket.id);
  });
});
