import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { upsertActiveTickets } from '../../tickets/ticket-upsert';
import { deliverWebhook, inboundPayload, newWamid, statusPayload } from '../../../../../tests/fakes/graph-api.fake';
import type { InboundMessage } from '../../../channels/channel-adapter';
import { createWabaChannel, newWaId, startWabaTestBed, webhookUrl, type WabaTestBed } from '../../../channels/waba/waba.test-support';

let bed: WabaTestBed;
beforeAll(async () => {
  bed = await startWabaTestBed();
});
afterAll(async () => bed?.close());

const ds = () => bed.server.deps.dataSource;
const pipeline = () => bed.server.deps.channels.inbound;

async function tenantWithChannel() {
  const t = await bed.server.createTenantWithUsers();
  const channel = await createWabaChannel(bed, t.users.admin.token);
  return { ...t, channel };
}

function text(
  tenantId: number,
  channelId: number,
  from: string,
  body: string,
  extra: Partial<InboundMessage> = {},
): InboundMessage {
  return {
    channelId,
    tenantId,
    providerMessageId: newWamid(),
    from: { kind: 'wa', externalId: from, phone: from, name: `Cliente ${from.slice(-4)}` },
    isGroup: false,
    timestamp: Math.floor(Date.now() / 1000),
    type: 'chat',
    body,
    ...extra,
  };
}

describe('inbound batches', () => {
  it('stores concurrent messages of many contacts in arrival order per ticket, one ticket each, duplicates once', async () => {
    const t = await tenantWithChannel();
    const contacts = Array.from({ length: 12 }, () => newWaId());
    const messages = Array.from({ length: 60 }, (_, i) =>
      text(t.tenant.id, t.channel.id, contacts[i % contacts.length], `m${i}`),
    );
    const again = messages.slice(0, 10).map((m) => ({ ...m }));
    const results = await Promise.all([pipeline().receive(messages), pipeline().receive(again)]);
    expect(
      results[0].filter((r) => r.outcome === 'stored').length + results[1].filter((r) => r.outcome === 'stored').length,
    ).toBe(60);
    expect(await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 60 }]);
    const tickets = await ds().query(`SELECT id, "unreadMessages", "lastMessage" FROM tickets WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(tickets).toHaveLength(12);
    expect(tickets.every((row: { unreadMessages: number }) => row.unreadMessages === 5)).toBe(true);
    // Per ticket, ids follow arrival order.
    for (const ticket of tickets) {
      const bodies: { body: string }[] = await ds().query(`SELECT body FROM messages WHERE "ticketId" = $1 ORDER BY id`, [
        ticket.id,
      ]);
      const numbers = bodies.map((b) => Number(b.body.slice(1)));
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(ticket.lastMessage).toBe(bodies.at(-1)!.body);
    }
    const creates = await ds().query(`SELECT count(*)::int AS n FROM domain_events WHERE "tenantId" = $1 AND name = $2`, [
      t.tenant.id,
      SOCKET_EVENTS.messageCreate,
    ]);
    expect(creates).toEqual([{ n: 60 }]);
    // Events are numbered without gaps in commit order.
    const seqs: { seq: string }[] = await ds().query(`SELECT seq FROM domain_events WHERE "tenantId" = $1 ORDER BY seq`, [
      t.tenant.id,
    ]);
    expect(seqs.map((s) => Number(s.seq))).toEqual(seqs.map((_, i) => i + 1));
  });

  it('one bad message does not take the rest of its batch with it', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    const good = Array.from({ length: 5 }, (_, i) => text(t.tenant.id, t.channel.id, from, `ok ${i}`));
    const bad = text(t.tenant.id, t.channel.id, newWaId(), 'quebrada', { timestamp: Number.NaN });
    const settled = await Promise.allSettled([...good.slice(0, 2), bad, ...good.slice(2)].map((m) => pipeline().receiveOne(m)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 5 }]);
    expect(await ds().query(`SELECT count(*)::int AS n FROM tickets WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 1 }]);
  });

  it('applies statuses of one message in their order, even in one webhook', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    await pipeline().receiveOne(text(t.tenant.id, t.channel.id, from, 'oi'));
    const [ticket] = await ds().query(`SELECT id, "contactId" FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
    const wamid = newWamid();
    await ds().query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", "fromMe", status, ack)
       VALUES ($1, $2, $3, 'resposta', $4, $5, true, 'pending', 0)`,
      [t.tenant.id, ticket.id, ticket.contactId, wamid, t.channel.id],
    );
    const res = await deliverWebhook(
      webhookUrl(bed, t.channel.id),
      statusPayload(bed.fake.phoneNumberId, [
        { id: wamid, status: 'sent', recipient: from },
        { id: wamid, status: 'delivered', recipient: from },
        { id: wamid, status: 'read', recipient: from },
      ]),
      t.channel.appSecret,
    );
    expect(res.body.statuses).toBe(3);
    expect(await ds().query(`SELECT status, ack FROM messages WHERE "messageId" = $1`, [wamid])).toEqual([
      { status: 'read', ack: 3 },
    ]);
    const acks = await ds().query(`SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq`, [
      t.tenant.id,
      SOCKET_EVENTS.messageAck,
    ]);
    expect(acks.map((e: { payload: { message: { ack: number } } }) => e.payload.message.ack)).toEqual([1, 2, 3]);
  });

  it('a webhook carrying several messages of several contacts stores them all', async () => {
    const t = await tenantWithChannel();
    const [a, b] = [newWaId(), newWaId()];
    const res = await deliverWebhook(
      webhookUrl(bed, t.channel.id),
      inboundPayload(bed.fake.phoneNumberId, [
        { from: a, name: 'Ana', message: { type: 'text', text: { body: 'um' } } },
        { from: b, name: 'Bia', message: { type: 'text', text: { body: 'dois' } } },
        { from: a, name: 'Ana', message: { type: 'text', text: { body: 'três' } } },
      ]),
      t.channel.appSecret,
    );
    expect(res.body).toEqual({ stored: 3, duplicates: 0, statuses: 0 });
    const rows = await ds().query(
      `SELECT c.name, t."unreadMessages" FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE t."tenantId" = $1 ORDER BY c.name`,
      [t.tenant.id],
    );
    expect(rows).toEqual([
      { name: 'Ana', unreadMessages: 2 },
      { name: 'Bia', unreadMessages: 1 },
    ]);
  });

  it('a rating reply goes to the tickets module: the rating is recorded and the ticket closes', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    await pipeline().receiveOne(text(t.tenant.id, t.channel.id, from, 'oi'));
    const [ticket] = await ds().query(`SELECT id FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
    await ds().query(`UPDATE tickets SET status = 'open', "userId" = $2, "ratingRequestedAt" = now() WHERE id = $1`, [
      ticket.id,
      t.users.user.id,
    ]);
    await ds().query(`INSERT INTO ticket_logs ("tenantId", "ticketId", type) VALUES ($1, $2, 'ratingRequest')`, [
      t.tenant.id,
      ticket.id,
    ]);
    await pipeline().receiveOne(text(t.tenant.id, t.channel.id, from, '5'));
    await bed.server.deps.channels.idle();
    expect(await ds().query(`SELECT rating FROM ticket_ratings WHERE "ticketId" = $1`, [ticket.id])).toEqual([{ rating: 5 }]);
    expect((await ds().query(`SELECT status FROM tickets WHERE id = $1`, [ticket.id]))[0].status).toBe('closed');
  });
});

describe('upsertActiveTickets', () => {
  it('creates or reuses one active ticket per (contact, channel), with protocols and logs for the created ones, under concurrency', async () => {
    const t = await tenantWithChannel();
    const contacts: { id: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const [c] = await ds().query(`INSERT INTO contacts ("tenantId", name, number) VALUES ($1, $2, $3) RETURNING id`, [
        t.tenant.id,
        `C${i}`,
        newWaId(),
      ]);
      contacts.push(c);
    }
    const inputs = contacts.map((c) => ({
      tenantId: t.tenant.id,
      contactId: c.id,
      channelId: t.channel.id,
      channelType: 'waba',
      queueId: null,
    }));
    const first = await ds().transaction((tx) => upsertActiveTickets(tx, inputs.slice(0, 3)));
    expect(first.map((r) => r.created)).toEqual([true, true, true]);
    expect(first.every((r) => /^\d{16}$/.test(r.ticket.protocol ?? ''))).toBe(true);
    const runs = await Promise.all(Array.from({ length: 5 }, () => ds().transaction((tx) => upsertActiveTickets(tx, inputs))));
    for (const run of runs) {
      expect(run.map((r) => r.ticket.contactId)).toEqual(contacts.map((c) => c.id));
      expect(run.slice(0, 3).map((r) => r.ticket.id)).toEqual(first.map((r) => r.ticket.id));
    }
    expect(runs.flatMap((run) => run.slice(3)).filter((r) => r.created)).toHaveLength(3);
    const counts = await ds().query(
      `SELECT "contactId", count(*)::int AS n FROM tickets WHERE "tenantId" = $1 GROUP BY "contactId"`,
      [t.tenant.id],
    );
    expect(counts.every((c: { n: number }) => c.n === 1)).toBe(true);
    const logs = await ds().query(`SELECT count(*)::int AS n FROM ticket_logs WHERE "tenantId" = $1 AND type = 'create'`, [
      t.tenant.id,
    ]);
    expect(logs).toEqual([{ n: 6 }]);
  });
});
