import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook, inboundPayload, type FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { createMessagingTenant, startMessagingServer, type MessagingTenant } from '../messages/messages.test-support';
import { insertContacts } from './campaigns.test-support';

/**
 * The tenant's opt-out words (setting campaignOptOutWords, edited on /configuracoes/geral) take
 * effect on the next inbound message, through the real webhook; the channel's closing keyword
 * still closes the ticket when it is also an opt-out word.
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

async function say(t: MessagingTenant, from: string, text: string): Promise<void> {
  const res = await deliverWebhook(
    `${server.url}/webhooks/waba/${t.channelId}`,
    inboundPayload(graph.phoneNumberId, [{ from, message: { type: 'text', text: { body: text } } }]),
    APP_SECRET,
  );
  expect(res.status).toBe(200);
  await server.deps.channels.inbound.idle();
}

const optedOut = async (contactId: number): Promise<boolean> =>
  (await server.deps.dataSource.query(`SELECT "campaignOptOut" FROM contacts WHERE id = $1`, [contactId]))[0].campaignOptOut;

describe('campaign opt-out words setting', () => {
  it('saved words take effect: "CANCELAR" opts out, the default "SAIR" no longer does', async () => {
    const t = await createMessagingTenant(server, graph);
    const [a, b, c] = await insertContacts(server, t.tenant.id, 3);
    // Administrators only; a malformed value is a 400.
    expect((await server.request('PUT', '/settings/campaignOptOutWords', { token: t.users.super.token, body: { value: 'CANCELAR' } })).status).toBe(403);
    expect((await server.request('PUT', '/settings/campaignOptOutWords', { token: t.users.admin.token, body: { value: 'x'.repeat(61) } })).status).toBe(400);
    expect((await server.request('PUT', '/settings/campaignOptOutWords', { token: t.users.admin.token, body: { value: 'a,'.repeat(260) } })).status).toBe(400);
    const saved = await server.request('PUT', '/settings/campaignOptOutWords', { token: t.users.admin.token, body: { value: 'CANCELAR' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    await say(t, a.number, 'cancelar');
    await say(t, b.number, 'SAIR');
    await say(t, c.number, 'quero cancelar o pedido');
    expect(await optedOut(a.id)).toBe(true);
    expect(await optedOut(b.id)).toBe(false);
    expect(await optedOut(c.id)).toBe(false);
  }, 30_000);

  it('an opt-out word that is also the channel closing keyword opts out and closes the ticket', async () => {
    const t = await createMessagingTenant(server, graph);
    await server.request('PUT', `/whatsapp/${t.channelId}`, { token: t.users.admin.token, body: { closingKeyword: 'sair' } });
    const [a] = await insertContacts(server, t.tenant.id, 1);
    await say(t, a.number, 'Sair');
    expect(await optedOut(a.id)).toBe(true);
    const [ticket] = await server.deps.dataSource.query(`SELECT status, "closeReason" FROM tickets WHERE "contactId" = $1`, [a.id]);
    expect(ticket).toEqual({ status: 'closed', closeReason: 'closingKeyword' });
  }, 30_000);
});
