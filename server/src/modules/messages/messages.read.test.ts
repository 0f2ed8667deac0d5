import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { MESSAGE_PAGE_SIZE } from '@shared/schemas/messages';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { deliverWebhook, statusPayload, type FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createAgent,
  createContact,
  createMessagingTenant,
  createTicket,
  insertMessages,
  multipart,
  startMessagingServer,
  waitForMessage,
  type MessagingTenant,
} from './messages.test-support';

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const ticketOf = (t: MessagingTenant) => ({ tenantId: t.tenant.id, ticketId: t.ticketId, contactId: t.contact.id });

async function putInQueue(t: MessagingTenant): Promise<number> {
  const [queue] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name) VALUES ($1, $2) RETURNING id`, [
    t.tenant.id,
    `Fila ${Math.random()}`,
  ]);
  await server.deps.dataSource.query(`UPDATE tickets SET "queueId" = $1 WHERE id = $2`, [queue.id, t.ticketId]);
  return queue.id;
}

describe('GET /messages/{ticketId}', () => {
  it('pages newest first by keyset (before) and by pageNumber, with hasMore and nextBefore', async () => {
    const t = await createMessagingTenant(server, graph);
    const ids = await insertMessages(
      server,
      ticketOf(t),
      Array.from({ length: 65 }, (_, i) => `mensagem ${i + 1}`),
    );
    const token = t.users.user.token;
    const first = await server.request('GET', `/messages/${t.ticketId}`, { token });
    expect(first.status).toBe(200);
    expect(first.body.messages).toHaveLength(MESSAGE_PAGE_SIZE);
    expect(first.body.messages[0].body).toBe('mensagem 65');
    expect(first.body).toMatchObject({ hasMore: true, messagesOffLine: [], nextBefore: ids[65 - MESSAGE_PAGE_SIZE] });
    expect(first.body).not.toHaveProperty('count');
    const second = await server.request('GET', `/messages/${t.ticketId}?before=${first.body.nextBefore}`, { token });
    expect(second.body.messages.map((m: any) => m.id)).toEqual(ids.slice(5, 35).reverse());
    const third = await server.request('GET', `/messages/${t.ticketId}?before=${second.body.nextBefore}&withCount=true`, {
      token,
    });
    expect(third.body).toMatchObject({ hasMore: false, nextBefore: null, count: 65 });
    expect(third.body.messages.map((m: any) => m.body)).toEqual([
      'mensagem 5',
      'mensagem 4',
      'mensagem 3',
      'mensagem 2',
      'mensagem 1',
    ]);
    const byPage = await server.request('GET', `/messages/${t.ticketId}?pageNumber=2`, { token });
    expect(byPage.body.messages.map((m: any) => m.id)).toEqual(second.body.messages.map((m: any) => m.id));
  });

  it('shows each message’s quoted summary, reactions, media URL, ack/status and flags; canceled ones are left out', async () => {
    const t = await createMessagingTenant(server, graph);
    const [quoted] = await insertMessages(server, ticketOf(t), ['Pergunta original']);
    const ds = server.deps.dataSource;
    await ds.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", status, ack, "quotedMsgId", reactions, "isEdited", "mediaType", "mediaPath", "mediaName", "mimeType")
       VALUES ($1, $2, $3, 'Resposta', true, 'delivered', 2, $4, '[{"emoji":"👍","fromMe":false,"contactId":1}]', true, 'image', 'messages/x.png', 'x.png', 'image/png')`,
      [t.tenant.id, t.ticketId, t.contact.id, quoted],
    );
    await ds.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", status, ack, "lastError") VALUES ($1, $2, $3, 'Falhou', true, 'failed', -1, 'Mensagem não entregue: x')`,
      [t.tenant.id, t.ticketId, t.contact.id],
    );
    await ds.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", status, "scheduleDate") VALUES ($1, $2, $3, 'Cancelada', true, 'canceled', now())`,
      [t.tenant.id, t.ticketId, t.contact.id],
    );
    await ds.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "isSync", "isDeleted") VALUES ($1, $2, $3, 'Antiga', true, true)`,
      [t.tenant.id, t.ticketId, t.contact.id],
    );
    const res = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    const [old, failed, reply, original] = res.body.messages;
    expect(res.body.messages.map((m: any) => m.body)).not.toContain('Cancelada');
    expect(old.flags).toMatchObject({ sync: true, deleted: true });
    expect(failed).toMatchObject({ status: 'failed', ack: -1, flags: expect.objectContaining({ undelivered: true }) });
    expect(reply).toMatchObject({
      status: 'delivered',
      ack: 2,
      isEdited: true,
      mediaUrl: `/messages/media/${reply.id}`,
      reactions: [{ emoji: '👍', fromMe: false, contactId: 1 }],
      quotedMsg: { id: quoted, body: 'Pergunta original', fromMe: false, mediaType: 'chat', mediaName: null, isDeleted: false },
      flags: expect.objectContaining({ edited: true, undelivered: false }),
    });
    expect(reply).not.toHaveProperty('mediaPath');
    expect(reply).not.toHaveProperty('tenantId');
    expect(original.quotedMsg).toBeNull();
  });

  it('opening the thread as the ticket’s agent resets the unread counter (ticket:update); a supervisor looking in does not', async () => {
    const t = await createMessagingTenant(server, graph);
    await insertMessages(server, ticketOf(t), ['oi', 'alguém?', 'olá'], { read: false });
    await server.deps.dataSource.query(`UPDATE tickets SET "unreadMessages" = 3 WHERE id = $1`, [t.ticketId]);
    await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.admin.token });
    const spied = await server.deps.dataSource.query(`SELECT "unreadMessages" FROM tickets WHERE id = $1`, [t.ticketId]);
    expect(spied[0].unreadMessages).toBe(3);

    await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    const [ticket] = await server.deps.dataSource.query(`SELECT "unreadMessages" FROM tickets WHERE id = $1`, [t.ticketId]);
    expect(ticket.unreadMessages).toBe(0);
    const [{ unread }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS unread FROM messages WHERE "ticketId" = $1 AND NOT read`,
      [t.ticketId],
    );
    expect(unread).toBe(0);
    const event = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.ticketUpdate);
    expect(event?.payload).toMatchObject({ action: 'update', ticket: { id: t.ticketId, unreadMessages: 0 } });
    // Nothing left to reset: no event on the next read.
    const before = await eventCount(server, t.tenant.id);
    await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    expect(await eventCount(server, t.tenant.id)).toBe(before);
  });

  it('answers 404 for another tenant and when ticket visibility hides the ticket, 400 for malformed input, 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    await putInQueue(t);
    const foreign = await server.request('GET', `/messages/${t.ticketId}`, { token: other.users.admin.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
    const outsider = await createAgent(server, t.tenant.id);
    const hidden = await server.request('GET', `/messages/${t.ticketId}`, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('ERR_NO_TICKET_FOUND');
    // The queue's agents see it.
    await server.deps.dataSource.query(
      `UPDATE users SET queues = (SELECT jsonb_build_array("queueId") FROM tickets WHERE id = $1) WHERE id = $2`,
      [t.ticketId, outsider.id],
    );
    expect((await server.request('GET', `/messages/${t.ticketId}`, { token: outsider.token })).status).toBe(200);
    const bad = await server.request('GET', `/messages/${t.ticketId}?pageNumber=zero`, { token: t.users.user.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('pageNumber');
    const badBefore = await server.request('GET', `/messages/${t.ticketId}?before=-3`, { token: t.users.user.token });
    expect(badBefore.body.fields[0].path).toBe('before');
    expect((await server.request('GET', `/messages/${t.ticketId}`)).status).toBe(401);
  });
});

describe('PATCH /messages/{id} {read: true}', () => {
  it('marks a received message and the older ones read and recounts the ticket', async () => {
    const t = await createMessagingTenant(server, graph);
    const ids = await insertMessages(server, ticketOf(t), ['1', '2', '3'], { read: false });
    await server.deps.dataSource.query(`UPDATE tickets SET "unreadMessages" = 3 WHERE id = $1`, [t.ticketId]);
    const res = await server.request('PATCH', `/messages/${ids[1]}`, { token: t.users.admin.token, body: { read: true } });
    expect(res.status).toBe(200);
    expect(res.body.read).toBe(true);
    const [ticket] = await server.deps.dataSource.query(`SELECT "unreadMessages" FROM tickets WHERE id = $1`, [t.ticketId]);
    expect(ticket.unreadMessages).toBe(1);
    const other = await createMessagingTenant(server, graph);
    expect(
      (await server.request('PATCH', `/messages/${ids[2]}`, { token: other.users.admin.token, body: { read: true } })).status,
    ).toBe(404);
    const mixed = await server.request('PATCH', `/messages/${ids[2]}`, {
      token: t.users.admin.token,
      body: { read: true, body: 'x' },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.fields[0].path).toBe('read');
    expect((await server.request('PATCH', `/messages/${ids[2]}`, { body: { read: true } })).status).toBe(401);
  });
});

describe('GET /searchMessage', () => {
  it('finds by full text (stemmed, ranked) in the caller’s tenant only', async () => {
    const a = await createMessagingTenant(server, graph);
    const b = await createMessagingTenant(server, graph);
    await insertMessages(server, ticketOf(a), [
      'O pedido foi entregue ontem',
      'Bom dia',
      'Pedidos atrasados; o pedido será entregue amanhã',
      'Entrega do pedido',
    ]);
    await insertMessages(server, ticketOf(b), ['Pedido entregue para outra empresa']);
    const res = await server.request('GET', `/searchMessage?searchParam=${encodeURIComponent('pedido entregue')}`, {
      token: a.users.admin.token,
    });
    expect(res.status).toBe(200);
    // Stemmed: 'Entrega' matches 'entregue'; 'Bom dia' does not.
    expect(res.body.count).toBe(3);
    expect(res.body.messages.map((m: any) => m.body).sort()).toEqual(
      ['Entrega do pedido', 'O pedido foi entregue ontem', 'Pedidos atrasados; o pedido será entregue amanhã'].sort(),
    );
    // Ranked: the message with most of the words (and most often) first.
    expect(res.body.messages[0].body).toBe('Pedidos atrasados; o pedido será entregue amanhã');
    expect(res.body.messages.every((m: any) => m.ticketId === a.ticketId)).toBe(true);
    const fromB = await server.request('GET', `/searchMessage?searchParam=entregue&ticketId=${a.ticketId}`, {
      token: b.users.admin.token,
    });
    expect(fromB.status).toBe(404);
    const byContact = await server.request('GET', `/searchMessage?searchParam=entregue&contactId=${b.contact.id}`, {
      token: a.users.admin.token,
    });
    expect(byContact.status).toBe(404);
    expect(byContact.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('within one ticket an exact substring also matches; a contact’s tickets can be searched together', async () => {
    const t = await createMessagingTenant(server, graph);
    await insertMessages(server, ticketOf(t), ['Código do rastreio: BR123456789XY', 'outra coisa']);
    const inTicket = await server.request('GET', `/searchMessage?ticketId=${t.ticketId}&searchParam=3456789`, {
      token: t.users.user.token,
    });
    expect(inTicket.body.messages.map((m: any) => m.body)).toEqual(['Código do rastreio: BR123456789XY']);
    const tenantWide = await server.request('GET', `/searchMessage?searchParam=3456789`, { token: t.users.admin.token });
    expect(tenantWide.body.count).toBe(0);
    await server.deps.dataSource.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [t.ticketId]);
    const second = await createTicket(server, {
      tenantId: t.tenant.id,
      contactId: t.contact.id,
      channelId: t.channelId,
      userId: t.users.user.id,
    });
    await insertMessages(server, { tenantId: t.tenant.id, ticketId: second, contactId: t.contact.id }, ['Rastreio atualizado']);
    const byContact = await server.request('GET', `/searchMessage?contactId=${t.contact.id}&searchParam=rastreio`, {
      token: t.users.admin.token,
    });
    expect(byContact.body.messages.map((m: any) => m.ticketId).sort()).toEqual([t.ticketId, second].sort());
  });

  it('leaves out tickets the caller may not see; 400 without searchParam; 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    await insertMessages(server, ticketOf(t), ['Boleto vencido']);
    await putInQueue(t);
    const outsider = await createAgent(server, t.tenant.id);
    const hidden = await server.request('GET', `/searchMessage?searchParam=boleto`, { token: outsider.token });
    expect(hidden.body).toMatchObject({ count: 0, messages: [] });
    expect(
      (await server.request('GET', `/searchMessage?searchParam=boleto&ticketId=${t.ticketId}`, { token: outsider.token })).status,
    ).toBe(404);
    expect((await server.request('GET', `/searchMessage?searchParam=boleto`, { token: t.users.user.token })).body.count).toBe(1);
    const missing = await server.request('GET', `/searchMessage`, { token: t.users.user.token });
    expect(missing.status).toBe(400);
    expect(missing.body.fields[0].path).toBe('searchParam');
    expect((await server.request('GET', `/searchMessage?searchParam=boleto`)).status).toBe(401);
  });
});

describe('GET /messages/media/{messageId}', () => {
  it('streams the stored file with its type to users who see the ticket, and to no one else', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const bytes = Buffer.from('%PDF-1.7 contrato');
    const sent = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.user.token, {}, [
      { name: 'contrato final.pdf', type: 'application/pdf', bytes },
    ]);
    expect(sent.status).toBe(201);
    const message = sent.body.messages[0];
    await waitForMessage(server, message.id, (r) => r.status === 'sent');
    const get = (token?: string) =>
      fetch(`${server.url}${message.mediaUrl}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const mine = await get(t.users.user.token);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toBe('application/pdf');
    expect(mine.headers.get('content-disposition')).toContain("filename*=UTF-8''contrato%20final.pdf");
    expect(mine.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await mine.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await get(other.users.admin.token)).status).toBe(404);
    expect((await get()).status).toBe(401);
    await putInQueue(t);
    const outsider = await createAgent(server, t.tenant.id);
    const hiddenFile = await get(outsider.token);
    expect(hiddenFile.status).toBe(404);
    expect((await hiddenFile.json()).error).toBe('ERR_NOT_FOUND');
    // No public folder serves it.
    expect((await fetch(`${server.url}/uploads/${t.tenant.id}/messages/`)).status).toBe(404);
    const noFile = await insertMessages(server, ticketOf(t), ['sem arquivo']);
    expect(
      (
        await get(t.users.admin.token).then(() =>
          fetch(`${server.url}/messages/media/${noFile[0]}`, { headers: { authorization: `Bearer ${t.users.admin.token}` } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await fetch(`${server.url}/messages/media/abc`, { headers: { authorization: `Bearer ${t.users.admin.token}` } })).status,
    ).toBe(400);
  });
});

describe('delivery acks (applied by the channel layer) in the thread', () => {
  it('shows delivered and read acks that arrive on the provider webhook', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'Chegou?' } });
    const row = await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
    for (const status of ['delivered', 'read'] as const) {
      const hook = await deliverWebhook(
        `${server.url}/webhooks/waba/${t.channelId}`,
        statusPayload(graph.phoneNumberId, [{ id: row.messageId, status, recipient: t.contact.number }]),
        'app-secret-0123456789',
      );
      expect(hook.status).toBe(200);
      await waitForMessage(server, Number(row.id), (r) => r.status === status);
    }
    const list = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    expect(list.body.messages[0]).toMatchObject({ id: Number(row.id), status: 'read', ack: 3 });
    const ack = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.messageAck);
    expect(ack?.payload.message).toMatchObject({ id: Number(row.id), ack: 3, status: 'read' });
  });
});

describe('ticket events carry message changes to the ticket’s audience only', () => {
  it('records appMessage:create with the ticket audience', async () => {
    const t = await createMessagingTenant(server, graph);
    const c = await createContact(server, t.tenant.id);
    const ticketId = await createTicket(server, {
      tenantId: t.tenant.id,
      contactId: c.id,
      channelId: t.channelId,
      userId: t.users.user.id,
    });
    await server.request('POST', `/messages/${ticketId}`, { token: t.users.user.token, body: { body: 'evento' } });
    const created = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.messageCreate);
    expect(created?.payload).toMatchObject({
      action: 'create',
      ticketId,
      message: { body: 'evento', status: 'pending', ack: 0 },
    });
    expect(created?.audience).toEqual({
      scope: 'ticket',
      ticket: expect.objectContaining({ ticketId, userId: t.users.user.id, contactId: c.id }),
    });
  });
});
