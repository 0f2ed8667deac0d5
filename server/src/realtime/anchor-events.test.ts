import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook, inboundPayload, newWamid, type FakeGraphApi } from '../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../tests/helpers/test-server';
import {
  createAgent,
  createContact,
  createMessagingTenant,
  createTicket,
  startMessagingServer,
  waitForMessage,
} from '../modules/messages/messages.test-support';
import { insertQueue, setUserQueues } from '../modules/tickets/tickets.test-support';
import { ABSENCE_WAIT_MS, connectAs, sleep, waitFor, type RecordingSocket } from './realtime.test-support';

/**
 * The anchor (Izing) web client's socket events, through the real app: a socket connected as
 * its client connects (`auth: {token}`, websocket) receives `<tenantId>:ticketList`,
 * `:contactList` and `:whatsapp` with the payload shapes its listeners read, after real writes,
 * and only what its user may see.
 */
let server: TestServer;
let graph: FakeGraphApi;
const open: RecordingSocket[] = [];
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function anchorSocket(token: string): Promise<RecordingSocket> {
  const s = await connectAs(server.url, token);
  open.push(s);
  return s;
}

/** `{type, payload}` messages a socket got under `<tenantId>:<name>`. */
const anchorOf = (s: RecordingSocket, tenantId: number, name: string) =>
  s.received.filter(([n]) => n === `${tenantId}:${name}`).map(([, p]) => p as any);
const ofType = (s: RecordingSocket, tenantId: number, type: string) =>
  anchorOf(s, tenantId, 'ticketList').filter((p) => p.type === type);

/** A messaging tenant whose ticket is in a queue of its agent, plus an agent of another queue. */
async function world() {
  const t = await createMessagingTenant(server, graph, { contact: { name: 'Elisa Prado' } });
  const queue = await insertQueue(server, t.tenant.id);
  await setUserQueues(server, t.users.user.id, [queue]);
  await server.deps.dataSource.query(`UPDATE tickets SET "queueId" = $1 WHERE id = $2`, [queue, t.ticketId]);
  const outsider = await createAgent(server, t.tenant.id);
  await setUserQueues(server, outsider.id, [await insertQueue(server, t.tenant.id)]);
  return { ...t, queue, outsider };
}

describe('anchor socket events', () => {
  it('a sent message: chat:create with the message and its ticket (contact included), ticket:update, then chat:ack as it is sent; none to an agent who cannot see the ticket', async () => {
    const t = await world();
    const agent = await anchorSocket(t.users.user.token);
    const admin = await anchorSocket(t.users.admin.token);
    const outsider = await anchorSocket(t.outsider.token);
    const other = await createMessagingTenant(server, graph);
    const otherTenant = await anchorSocket(other.users.admin.token);

    const res = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'Bom dia!' },
    });
    expect(res.status).toBe(201);
    const id = res.body.messages[0].id;
    await waitForMessage(server, id, (r) => r.status === 'sent');

    for (const s of [agent, admin]) {
      await waitFor(
        () => ofType(s, t.tenant.id, 'chat:ack').some((p) => p.payload.id === id && p.payload.ack === 1),
        'chat:ack of the sent message',
      );
      const [created] = ofType(s, t.tenant.id, 'chat:create');
      expect(created.payload).toMatchObject({
        id,
        body: 'Bom dia!',
        fromMe: true,
        ticketId: t.ticketId,
        ticket: {
          id: t.ticketId,
          userId: t.users.user.id,
          status: 'open',
          contact: { id: t.contact.id, name: 'Elisa Prado' },
        },
      });
      const updates = ofType(s, t.tenant.id, 'ticket:update');
      expect(updates.at(-1).payload).toMatchObject({ id: t.ticketId, lastMessage: 'Bom dia!', contact: { name: 'Elisa Prado' } });
      // The ack carries the ticket id the anchor matches the open chat by.
      expect(ofType(s, t.tenant.id, 'chat:ack').at(-1).payload).toMatchObject({ id, status: 'sent', ticket: { id: t.ticketId } });
      // Order: the message before its ack.
      const types = anchorOf(s, t.tenant.id, 'ticketList').map((p) => p.type);
      expect(types.indexOf('chat:create')).toBeLessThan(types.lastIndexOf('chat:ack'));
    }
    // Our own names keep coming beside them.
    expect(agent.received.some(([n]) => n === `${t.tenant.id}:appMessage:create`)).toBe(true);

    await sleep(ABSENCE_WAIT_MS);
    expect(anchorOf(outsider, t.tenant.id, 'ticketList')).toEqual([]);
    expect(otherTenant.received.filter(([n]) => n.startsWith(`${t.tenant.id}:`))).toEqual([]);
  });

  it("a customer's message (WABA webhook): chat:create with fromMe false and the ticket to its agent, nothing to an agent who cannot see it", async () => {
    const t = await world();
    const agent = await anchorSocket(t.users.user.token);
    const outsider = await anchorSocket(t.outsider.token);
    const wamid = newWamid();
    const delivered = await deliverWebhook(
      `${server.url}/webhooks/waba/${t.channelId}`,
      inboundPayload(graph.phoneNumberId, [
        { from: t.contact.number, name: 'Elisa', id: wamid, message: { type: 'text', text: { body: 'Chegou?' } } },
      ]),
      'app-secret-0123456789',
    );
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    await waitFor(() => ofType(agent, t.tenant.id, 'chat:create').length === 1, 'chat:create of the inbound message');
    expect(ofType(agent, t.tenant.id, 'chat:create')[0].payload).toMatchObject({
      messageId: wamid,
      body: 'Chegou?',
      fromMe: false,
      read: false,
      ticket: { id: t.ticketId, userId: t.users.user.id, unreadMessages: 1, contact: { id: t.contact.id } },
    });
    await sleep(ABSENCE_WAIT_MS);
    expect(anchorOf(outsider, t.tenant.id, 'ticketList')).toEqual([]);
  });

  it('a new pending ticket in a queue: ticket:update and notification:new to the queue agent, nothing to an agent of another queue', async () => {
    const t = await world();
    const agent = await anchorSocket(t.users.user.token);
    const outsider = await anchorSocket(t.outsider.token);
    const contact = await createContact(server, t.tenant.id, { name: 'Fábio Reis' });
    const res = await server.request('POST', '/tickets', {
      token: t.users.admin.token,
      body: { contactId: contact.id, queueId: t.queue, status: 'pending', userId: null },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await waitFor(() => ofType(agent, t.tenant.id, 'notification:new').length === 1, 'notification:new');
    expect(ofType(agent, t.tenant.id, 'notification:new')[0].payload).toMatchObject({
      id: res.body.id,
      status: 'pending',
      contact: { name: 'Fábio Reis' },
    });
    expect(ofType(agent, t.tenant.id, 'ticket:update').map((p) => p.payload.id)).toContain(res.body.id);
    // An update that leaves it pending is no new notification.
    await server.request('PUT', `/contacts/${contact.id}`, { token: t.users.admin.token, body: { name: 'Fábio R.' } });
    await waitFor(() => anchorOf(agent, t.tenant.id, 'contactList').length === 1, 'contactList');
    await sleep(ABSENCE_WAIT_MS);
    expect(ofType(agent, t.tenant.id, 'notification:new')).toHaveLength(1);
    expect(anchorOf(outsider, t.tenant.id, 'ticketList')).toEqual([]);
  });

  it('contactList contact:update with the contact, whatsapp update/delete and whatsappSession readySession with the anchor payloads, to the tenant only', async () => {
    const t = await world();
    const agent = await anchorSocket(t.users.user.token);
    const other = await createMessagingTenant(server, graph);
    const otherTenant = await anchorSocket(other.users.admin.token);

    const renamed = await server.request('PUT', `/contacts/${t.contact.id}`, {
      token: t.users.admin.token,
      body: { name: 'Elisa P.' },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await waitFor(() => anchorOf(agent, t.tenant.id, 'contactList').length === 1, 'contactList');
    expect(anchorOf(agent, t.tenant.id, 'contactList')[0]).toMatchObject({
      type: 'contact:update',
      payload: { id: t.contact.id, name: 'Elisa P.' },
    });

    const channel = await server.request('PUT', `/whatsapp/${t.channelId}`, {
      token: t.users.admin.token,
      body: { name: 'Atendimento WABA' },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(200);
    await waitFor(() => anchorOf(agent, t.tenant.id, 'whatsapp').length > 0, 'whatsapp update');
    expect(anchorOf(agent, t.tenant.id, 'whatsapp')[0]).toMatchObject({
      action: 'update',
      whatsapp: { id: t.channelId, name: 'Atendimento WABA' },
    });
    // A session that connects again: the anchor's "ready" notice beside our session update.
    const admin = await anchorSocket(t.users.admin.token);
    expect(
      (await server.request('DELETE', `/whatsappsession/${t.channelId}`, { token: t.users.admin.token })).status,
    ).toBeLessThan(300);
    expect((await server.request('POST', `/whatsappsession/${t.channelId}`, { token: t.users.admin.token })).status).toBeLessThan(
      300,
    );
    await waitFor(() => anchorOf(admin, t.tenant.id, 'whatsappSession').some((p) => p.action === 'readySession'), 'readySession');
    expect(anchorOf(admin, t.tenant.id, 'whatsappSession').find((p) => p.action === 'readySession')).toMatchObject({
      session: { id: t.channelId, status: 'CONNECTED' },
    });
    expect(anchorOf(admin, t.tenant.id, 'whatsappSession').filter((p) => p.action === 'readySession')).toHaveLength(1);

    const removed = await server.request('DELETE', `/whatsapp/${t.channelId}`, { token: t.users.admin.token });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    await waitFor(() => anchorOf(agent, t.tenant.id, 'whatsapp').some((p) => p.action === 'delete'), 'whatsapp delete');
    expect(anchorOf(agent, t.tenant.id, 'whatsapp').find((p) => p.action === 'delete')).toEqual({
      action: 'delete',
      whatsappId: t.channelId,
    });

    await sleep(ABSENCE_WAIT_MS);
    expect(otherTenant.received.filter(([n]) => n.startsWith(`${t.tenant.id}:`))).toEqual([]);
  });

  it('a ticket moved out of an agent’s sight: our ticket:delete only, no anchor event carrying its new facts', async () => {
    const t = await world();
    const agentTicket = await createTicket(server, {
      tenantId: t.tenant.id,
      contactId: (await createContact(server, t.tenant.id)).id,
      channelId: t.channelId,
      queueId: t.queue,
      status: 'pending',
    });
    const agent = await anchorSocket(t.users.user.token);
    const otherQueue = await insertQueue(server, t.tenant.id);
    const moved = await server.request('PUT', `/tickets/${agentTicket}`, {
      token: t.users.admin.token,
      body: { queueId: otherQueue },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await waitFor(() => agent.received.some(([n]) => n === `${t.tenant.id}:ticket:delete`), 'ticket:delete');
    await sleep(ABSENCE_WAIT_MS);
    expect(anchorOf(agent, t.tenant.id, 'ticketList')).toEqual([]);
  });
});
