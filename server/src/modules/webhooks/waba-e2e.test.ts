import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import {
  createWabaChannel,
  newWaId,
  startWabaTestBed,
  webhookUrl,
  type WabaTestBed,
} from '../../channels/waba/waba.test-support';
import { connectAs, waitFor, type RecordingSocket } from '../../realtime/realtime.test-support';
import { deliverWebhook, inboundPayload, newWamid, statusPayload } from '../../../../tests/fakes/graph-api.fake';

let bed: WabaTestBed;
const sockets: RecordingSocket[] = [];
beforeAll(async () => {
  bed = await startWabaTestBed();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await bed?.close();
});

/** Payloads a socket received under `<tenantId>:<name>`. */
const received = (socket: RecordingSocket, tenantId: number, name: string): any[] =>
  socket.received.filter(([n]) => n === `${tenantId}:${name}`).map(([, p]) => p);

describe('WhatsApp Cloud API end to end', () => {
  it('inbound message -> agent socket; agent reply -> Graph API; delivered status -> agent socket ack', async () => {
    const a = await bed.server.createTenantWithUsers();
    const queue = await bed.server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Suporte' } });
    await bed.server.deps.dataSource.query(`UPDATE users SET queues = $1::jsonb WHERE id = $2`, [
      JSON.stringify([queue.body.id]),
      a.users.user.id,
    ]);
    const channel = await createWabaChannel(bed, a.users.admin.token, { queueId: queue.body.id });

    // The agent logs in (a real login token) and listens.
    const agentToken = (await bed.server.login(a.users.user)).token;
    const agent = await connectAs(bed.server.url, agentToken);
    sockets.push(agent);

    // The customer writes: Meta posts the signed webhook.
    const from = newWaId();
    const inboundId = newWamid();
    const delivered = await deliverWebhook(
      webhookUrl(bed, channel.id),
      inboundPayload(bed.fake.phoneNumberId, [
        { from, name: 'Cliente Final', id: inboundId, message: { type: 'text', text: { body: 'Bom dia, meu pedido atrasou' } } },
      ]),
      channel.appSecret,
    );
    expect(delivered.status).toBe(200);
    await waitFor(
      () => received(agent, a.tenant.id, SOCKET_EVENTS.messageCreate).length > 0,
      'appMessage:create on the agent socket',
    );
    const [ticketCreate] = received(agent, a.tenant.id, SOCKET_EVENTS.ticketCreate);
    expect(ticketCreate).toMatchObject({
      action: 'create',
      ticket: { status: 'pending', queueId: queue.body.id, contact: { name: 'Cliente Final' } },
    });
    const [messageCreate] = received(agent, a.tenant.id, SOCKET_EVENTS.messageCreate);
    expect(messageCreate).toMatchObject({
      action: 'create',
      ticketId: ticketCreate.ticket.id,
      message: { messageId: inboundId, body: 'Bom dia, meu pedido atrasou', fromMe: false },
    });
    const ticketId: number = ticketCreate.ticket.id;

    // The agent answers through the API; the send reaches the Graph API.
    const sentBefore = bed.fake.sentMessages().length;
    const reply = await bed.server.request('POST', `/messages/${ticketId}`, {
      token: agentToken,
      body: { body: 'Olá! Vou verificar agora.' },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    await waitFor(() => bed.fake.sentMessages().length > sentBefore, 'the reply at the Graph API');
    const sent = bed.fake.sentMessages().at(-1);
    expect(sent).toMatchObject({
      messaging_product: 'whatsapp',
      to: from,
      type: 'text',
      text: { body: expect.stringContaining('Vou verificar agora.') },
    });
    let wamid: string | null = null;
    await waitFor(async () => {
      const rows = await bed.server.deps.dataSource.query(
        `SELECT "messageId", ack FROM messages WHERE "ticketId" = $1 AND "fromMe"`,
        [ticketId],
      );
      wamid = rows[0]?.ack === 1 ? rows[0].messageId : null;
      return wamid !== null;
    }, 'the reply recorded as sent');

    // Meta reports it delivered: the agent sees the ack.
    const status = await deliverWebhook(
      webhookUrl(bed, channel.id),
      statusPayload(bed.fake.phoneNumberId, [{ id: wamid!, status: 'delivered', recipient: from }]),
      channel.appSecret,
    );
    expect(status.body.statuses).toBe(1);
    await waitFor(
      () =>
        received(agent, a.tenant.id, SOCKET_EVENTS.messageAck).some((p) => p.message.messageId === wamid && p.message.ack === 2),
      'appMessage:ack 2',
    );
  });
});
