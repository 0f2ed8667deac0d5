import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_ANSWER_WINDOW_DAYS } from '@shared/schemas/campaigns';
import { deliverWebhook, inboundPayload, type FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { insertFlow, useFlowOnChannel } from '../chatflow/chatflow.test-support';
import {
  createMessagingTenant,
  runSweep,
  sentTo,
  startMessagingServer,
  waitFor,
  type MessagingTenant,
} from '../messages/messages.test-support';
import { campaignBody, campaignRow, insertContacts } from './campaigns.test-support';

/**
 * Campaign answers (campaign-answer.ts) through the real app: a campaign sent by the sender to
 * the fake Cloud API, then the customer's reply through the signed webhook. The new ticket opens
 * in the campaign's queue (distributed and greeted as a queue entry), shows the campaign message
 * first, and nothing is sent twice.
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
const ds = () => server.deps.dataSource;

async function queue(t: MessagingTenant, name: string, greetingMessage: string | null = null): Promise<number> {
  const res = await server.request('POST', '/queue', { token: t.users.admin.token, body: { name, greetingMessage } });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.id;
}

/** A campaign of `fields` sent now to `contactIds` on the tenant's channel; waits for it to finish. */
async function sendCampaign(t: MessagingTenant, contactIds: number[], fields: Record<string, unknown> = {}): Promise<number> {
  const token = t.users.admin.token;
  const created = await server.request('POST', '/campaigns', {
    token,
    body: campaignBody(t.channelId!, { message1: 'Promoção para {{name}}', message2: null, ...fields }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  expect((await server.request('POST', `/campaigns/contacts/${id}`, { token, body: { contactIds } })).status).toBe(200);
  expect((await server.request('POST', `/campaigns/start/${id}`, { token, body: { startNow: true } })).status).toBe(200);
  await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 20_000);
  return id;
}

async function reply(t: MessagingTenant, from: string, text: string): Promise<void> {
  const res = await deliverWebhook(
    `${server.url}/webhooks/waba/${t.channelId}`,
    inboundPayload(graph.phoneNumberId, [{ from, message: { type: 'text', text: { body: text } } }]),
    APP_SECRET,
  );
  expect(res.status).toBe(200);
  await server.deps.channels.inbound.idle();
}

async function latestTicket(tenantId: number, contactId: number): Promise<any> {
  const [row] = await ds().query(`SELECT * FROM tickets WHERE "tenantId" = $1 AND "contactId" = $2 ORDER BY id DESC LIMIT 1`, [
    tenantId,
    contactId,
  ]);
  return row;
}

async function thread(ticketId: number): Promise<any[]> {
  return ds().query(
    `SELECT id, body, "fromMe", status, ack, "messageId", timestamp, "nextRetryAt", "dataJson"->>'origin' AS origin
       FROM messages WHERE "ticketId" = $1 ORDER BY id`,
    [ticketId],
  );
}

describe('a reply to a campaign opens a ticket in the campaign queue, with the campaign message first', () => {
  it('queue, greeting and distribution as a queue entry; the campaign message as sent, announced, never resent', async () => {
    const t = await createMessagingTenant(server, graph);
    const channelQueue = await queue(t, 'Recepção', 'Recepção, olá');
    const salesQueue = await queue(t, 'Vendas', 'Vendas: olá {{name}}, já vamos atender.');
    await server.request('PUT', `/whatsapp/${t.channelId}`, { token: t.users.admin.token, body: { queueId: channelQueue } });
    const [customer, other] = await insertContacts(server, t.tenant.id, 2);
    const campaignId = await sendCampaign(t, [customer.id, other.id], { queueId: salesQueue });
    const [cc] = await ds().query(`SELECT "messageId", "sentAt" FROM campaign_contacts WHERE "campaignId" = $1 AND "contactId" = $2`, [
      campaignId,
      customer.id,
    ]);
    expect(cc.messageId).toBeTruthy();
    const sentBefore = sentTo(graph, customer.number).length;
    expect(sentBefore).toBe(1);

    await reply(t, customer.number, 'Quero saber mais');
    const ticket = await latestTicket(t.tenant.id, customer.id);
    expect(ticket).toMatchObject({ queueId: salesQueue, status: 'pending', userId: null });
    const messages = await thread(ticket.id);
    expect(messages.map((m) => [m.fromMe, m.origin ?? null, m.body])).toEqual([
      [true, 'campaign', `Promoção para ${customer.name}`],
      [false, null, 'Quero saber mais'],
      [true, 'queueGreeting', `Vendas: olá ${customer.name}, já vamos atender.`],
    ]);
    expect(messages[0]).toMatchObject({ status: 'sent', ack: 1, messageId: cc.messageId, nextRetryAt: null });
    expect(Number(messages[0].timestamp)).toBe(Math.floor(new Date(cc.sentAt).getTime() / 1000));
    // The campaign message is not an unread one.
    expect(ticket.unreadMessages).toBe(1);
    // The 'opened' fact counts the ticket in the campaign's queue.
    const [opened] = await ds().query(`SELECT "queueId" FROM ticket_metric_events WHERE "ticketId" = $1 AND kind = 'opened'`, [ticket.id]);
    expect(opened.queueId).toBe(salesQueue);

    // Announced like any message: ticket:create in the campaign queue, then the campaign message, then the reply.
    const events = await ds().query(
      `SELECT name, payload FROM domain_events WHERE "tenantId" = $1 AND (payload->>'ticketId' = $2 OR payload->'ticket'->>'id' = $2) ORDER BY id`,
      [t.tenant.id, String(ticket.id)],
    );
    const created = events.find((e: any) => e.name === 'ticket:create');
    expect(created.payload.ticket.queueId).toBe(salesQueue);
    const announced = events.filter((e: any) => e.name === 'appMessage:create').map((e: any) => Number(e.payload.message.id));
    expect(announced.slice(0, 2)).toEqual([Number(messages[0].id), Number(messages[1].id)]);

    // The outbound delivery never picks it: only the greeting goes out.
    await runSweep(server);
    await waitFor(() => sentTo(graph, customer.number).length >= 2, 'the greeting');
    await runSweep(server);
    await new Promise((r) => setTimeout(r, 300));
    const texts = sentTo(graph, customer.number).map((m) => m.text?.body);
    expect(texts).toEqual([`Promoção para ${customer.name}`, `Vendas: olá ${customer.name}, já vamos atender.`]);
    expect((await thread(ticket.id))[0]).toMatchObject({ status: 'sent', messageId: cc.messageId });

    // A provider status of the campaign message now finds it (ack only moves forward).
    const changed = await server.deps.channels.inbound.applyStatus({
      tenantId: t.tenant.id,
      channelId: t.channelId!,
      providerMessageId: cc.messageId,
      status: 'read',
      timestamp: Math.floor(Date.now() / 1000),
    });
    expect(changed).toBe(true);
    expect((await thread(ticket.id))[0]).toMatchObject({ status: 'read', ack: 3 });

    // Shown once: the ticket closed, a later message opens a ticket as usual (channel queue, no campaign message).
    await ds().query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [ticket.id]);
    await reply(t, customer.number, 'Mais uma dúvida');
    const second = await latestTicket(t.tenant.id, customer.id);
    expect(second.id).not.toBe(ticket.id);
    expect(second.queueId).toBe(channelQueue);
    expect((await thread(second.id)).filter((m) => m.origin === 'campaign')).toEqual([]);
  }, 60_000);

  it('auto-distributes to an agent of the campaign queue when the channel distributes', async () => {
    const t = await createMessagingTenant(server, graph);
    const salesQueue = await queue(t, 'Vendas');
    await server.request('PUT', `/whatsapp/${t.channelId}`, { token: t.users.admin.token, body: { autoDistribution: 'balanced' } });
    await ds().query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [t.users.user.id, JSON.stringify([salesQueue])]);
    const [customer] = await insertContacts(server, t.tenant.id, 1);
    await sendCampaign(t, [customer.id], { queueId: salesQueue });
    await reply(t, customer.number, 'oi');
    const ticket = await latestTicket(t.tenant.id, customer.id);
    expect(ticket).toMatchObject({ queueId: salesQueue, status: 'open', userId: t.users.user.id });
  }, 60_000);

  it('a campaign without a queue: the campaign message is shown, the ticket opens as usual', async () => {
    const t = await createMessagingTenant(server, graph);
    const channelQueue = await queue(t, 'Recepção');
    await server.request('PUT', `/whatsapp/${t.channelId}`, { token: t.users.admin.token, body: { queueId: channelQueue } });
    const [customer] = await insertContacts(server, t.tenant.id, 1);
    await sendCampaign(t, [customer.id], { queueId: null });
    await reply(t, customer.number, 'oi');
    const ticket = await latestTicket(t.tenant.id, customer.id);
    expect(ticket.queueId).toBe(channelQueue);
    expect((await thread(ticket.id)).map((m) => m.origin ?? (m.fromMe ? 'other' : 'customer'))).toEqual(['campaign', 'customer']);
  }, 60_000);

  it(`not after ${CAMPAIGN_ANSWER_WINDOW_DAYS} days, nor into a ticket that was already open`, async () => {
    const t = await createMessagingTenant(server, graph);
    const salesQueue = await queue(t, 'Vendas');
    const [late, open] = await insertContacts(server, t.tenant.id, 2);
    const id = await sendCampaign(t, [late.id, open.id], { queueId: salesQueue });
    await ds().query(
      `UPDATE campaign_contacts SET "sentAt" = now() - make_interval(days => $3) - interval '1 minute' WHERE "campaignId" = $1 AND "contactId" = $2`,
      [id, late.id, CAMPAIGN_ANSWER_WINDOW_DAYS],
    );
    await reply(t, late.number, 'oi');
    const lateTicket = await latestTicket(t.tenant.id, late.id);
    expect(lateTicket.queueId).toBeNull();
    expect((await thread(lateTicket.id)).map((m) => m.origin)).toEqual([null]);

    // An open ticket when the reply comes: the reply goes there, nothing else changes.
    const [existing] = await ds().query(
      `INSERT INTO tickets ("tenantId", "contactId", "whatsappId", status, "userId") VALUES ($1, $2, $3, 'open', $4) RETURNING id`,
      [t.tenant.id, open.id, t.channelId, t.users.user.id],
    );
    await reply(t, open.number, 'oi');
    expect((await latestTicket(t.tenant.id, open.id)).id).toBe(existing.id);
    expect((await thread(existing.id)).map((m) => m.origin)).toEqual([null]);
  }, 60_000);

  it('a channel with a chatflow: a campaign answer enters the campaign queue (greeted) and the bot does not start', async () => {
    const t = await createMessagingTenant(server, graph);
    const salesQueue = await queue(t, 'Vendas', 'Fila de vendas');
    const flow = await insertFlow(server, t.tenant.id, {
      startStepId: 'menu',
      settings: { welcomeMessage: 'Bem-vindo ao bot' },
      steps: [{ id: 'menu', name: 'menu', interactions: [{ id: 'i0', type: 'message', text: 'Menu do bot' }], conditions: [] }],
    });
    await useFlowOnChannel(server, t.channelId!, flow.id);
    const [customer, stranger] = await insertContacts(server, t.tenant.id, 2);
    await sendCampaign(t, [customer.id], { queueId: salesQueue });
    await reply(t, customer.number, 'oi');
    const ticket = await latestTicket(t.tenant.id, customer.id);
    expect(ticket).toMatchObject({ queueId: salesQueue, botActive: false, chatFlowId: null });
    expect((await thread(ticket.id)).map((m) => m.origin ?? (m.fromMe ? 'other' : 'customer'))).toEqual([
      'campaign',
      'customer',
      'queueGreeting',
    ]);
    // Someone who got no campaign still meets the bot.
    await reply(t, stranger.number, 'oi');
    const botTicket = await latestTicket(t.tenant.id, stranger.id);
    expect(botTicket).toMatchObject({ botActive: true, chatFlowId: flow.id });
  }, 60_000);
});
