import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deliverWebhook, inboundPayload, type FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { createMessagingTenant, sentTo, startMessagingServer, waitFor } from '../messages/messages.test-support';
import { CAMPAIGN_MAX_YIELD_MS } from './campaign.sender';
import { campaignBody, campaignRow, contactStatusCounts, insertContacts } from './campaigns.test-support';

/**
 * Campaign priority (issue #16): a campaign step yields to the live inbound work of its own
 * process, whatever the tenant, and never for longer than CAMPAIGN_MAX_YIELD_MS in a row. Driven
 * through the real server: tenant A's inbound batch is held in flight by a transaction holding
 * A's tenant row (the lock every batch takes last, for its events), while tenant B's campaign
 * runs on the same process.
 */

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
}, 120_000);
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const APP_SECRET = 'app-secret-0123456789';

// The test holds an inbound batch open with a second connection's row lock on the tenant: the
// embedded PGlite serves every connection from one backend, where that lock cannot be held
// apart, so it runs against a PostgreSQL server (DATABASE_URL, as CI), like the crash test.
const sharedDatabase = Boolean(inject('testDatabaseUrl'));

describe.skipIf(!sharedDatabase)('campaign priority behind live conversations', () => {
  it('sends nothing while inbound messages are in a batch, at least one a second when that lasts, all once it is over', async () => {
    const live = await createMessagingTenant(server, graph);
    const t = await createMessagingTenant(server, graph);
    const contacts = await insertContacts(server, t.tenant.id, 6);
    const created = await server.request('POST', '/campaigns', { token: t.users.admin.token, body: campaignBody(t.channelId!) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const linked = await server.request('POST', `/campaigns/contacts/${id}`, {
      token: t.users.super.token,
      body: { contactIds: contacts.map((c) => c.id) },
    });
    expect(linked.status).toBe(200);
    const sent = () => contacts.reduce((n, c) => n + sentTo(graph, c.number).length, 0);

    // Tenant A's inbound batch in flight: its transaction waits for A's tenant row, held here.
    const holder = server.deps.dataSource.createQueryRunner();
    await holder.connect();
    let hook: Promise<{ status: number }> | undefined;
    try {
      await holder.startTransaction();
      await holder.query(`SELECT id FROM tenants WHERE id = $1 FOR UPDATE`, [live.tenant.id]);
      hook = deliverWebhook(
        `${server.url}/webhooks/waba/${live.channelId}`,
        inboundPayload(graph.phoneNumberId, [
          { from: live.contact.number, message: { type: 'text', text: { body: 'Oi, preciso de ajuda' } } },
        ]),
        APP_SECRET,
      );
      await waitFor(() => server.deps.channels.inbound.busy(), 'inbound batch in flight');

      const started = await server.request('POST', `/campaigns/start/${id}`, {
        token: t.users.admin.token,
        body: { startNow: true },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const startedAt = Date.now();
      // The sender steps (started now) but yields before its lease: nothing claimed, nothing sent.
      await new Promise((r) => setTimeout(r, CAMPAIGN_MAX_YIELD_MS / 2));
      if (Date.now() - startedAt < CAMPAIGN_MAX_YIELD_MS - 50) {
        expect(sent()).toBe(0);
        expect(await contactStatusCounts(server, id)).toEqual({ pending: 6 });
      }
      expect(server.deps.channels.inbound.busy()).toBe(true);

      // Still busy: the floor, one send per CAMPAIGN_MAX_YIELD_MS, never back to back.
      await waitFor(() => sent() >= 1, 'one send under constant load', 10_000);
      const elapsed = Date.now() - startedAt;
      expect(server.deps.channels.inbound.busy()).toBe(true);
      expect(sent()).toBeLessThanOrEqual(Math.floor(elapsed / CAMPAIGN_MAX_YIELD_MS) + 1);
      expect(sent()).toBeLessThan(contacts.length);
    } finally {
      if (holder.isTransactionActive) await holder.commitTransaction();
      await holder.release();
    }
    expect((await hook!).status).toBe(200);

    // The batch committed: the campaign goes on at full speed and sends every contact once.
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 6 });
    for (const c of contacts) expect(sentTo(graph, c.number), c.number).toHaveLength(1);
    expect(server.deps.channels.inbound.busy()).toBe(false);
  });
});
