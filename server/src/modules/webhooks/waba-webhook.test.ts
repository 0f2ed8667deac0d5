import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import type { InboundEvent } from '../messaging/inbound/inbound-hooks';
import {
  createWabaChannel,
  newWaId,
  startWabaTestBed,
  webhookUrl,
  type WabaTestBed,
} from '../../channels/waba/waba.test-support';
import { deliverWebhook, inboundPayload, newWamid, statusPayload } from '../../../../tests/fakes/graph-api.fake';
import { eventCount } from '../../../../tests/helpers/domain-events';

let bed: WabaTestBed;
beforeAll(async () => {
  bed = await startWabaTestBed();
});
afterAll(async () => bed?.close());

const ds = () => bed.server.deps.dataSource;

async function tenantWithChannel(extra: Record<string, unknown> = {}) {
  const t = await bed.server.createTenantWithUsers();
  const channel = await createWabaChannel(bed, t.users.admin.token, extra);
  return { ...t, channel, url: webhookUrl(bed, channel.id) };
}

async function eventsOf(tenantId: number, sinceSeq = 0): Promise<{ seq: string; name: string; payload: any; audience: any }[]> {
  return ds().query(`SELECT seq, name, payload, audience FROM domain_events WHERE "tenantId" = $1 AND seq > $2 ORDER BY seq`, [
    tenantId,
    sinceSeq,
  ]);
}

async function lastSeq(tenantId: number): Promise<number> {
  const [row] = await ds().query(`SELECT "eventSeq" FROM tenants WHERE id = $1`, [tenantId]);
  return Number(row.eventSeq);
}

describe('GET /webhooks/waba/:channelId (subscription check)', () => {
  it("answers hub.challenge as text when the verify token is the channel's", async () => {
    const t = await tenantWithChannel();
    const res = await fetch(
      `${t.url}?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(t.channel.verifyToken)}&hub.challenge=1158201444`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toBe('1158201444');
  });

  it('answers 403 for a wrong token or mode, 404 for an unknown channel', async () => {
    const t = await tenantWithChannel();
    const other = await tenantWithChannel();
    for (const query of [
      `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${other.channel.verifyToken}&hub.challenge=1`,
      `hub.mode=unsubscribe&hub.verify_token=${t.channel.verifyToken}&hub.challenge=1`,
      `hub.mode=subscribe&hub.challenge=1`,
    ]) {
      const res = await fetch(`${t.url}?${query}`);
      expect(res.status, query).toBe(403);
    }
    expect(
      (await fetch(`${bed.server.url}/webhooks/waba/999999?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status,
    ).toBe(404);
  });
});

describe('POST /webhooks/waba/:channelId', () => {
  it('a signed message creates the contact (with its identity), a pending ticket in the channel queue and the message, with events', async () => {
    const a = await bed.server.createTenantWithUsers();
    const queue = await bed.server.request('POST', '/queue', { token: a.users.admin.token, body: { name: 'Entrada' } });
    const channel = await createWabaChannel(bed, a.users.admin.token, { queueId: queue.body.id });
    const from = newWaId();
    const wamid = newWamid();
    const since = await lastSeq(a.tenant.id);
    const res = await deliverWebhook(
      webhookUrl(bed, channel.id),
      inboundPayload(bed.fake.phoneNumberId, [
        { from, name: 'Maria Cliente', id: wamid, message: { type: 'text', text: { body: 'Olá, preciso de ajuda' } } },
      ]),
      channel.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ stored: 1, duplicates: 0, statuses: 0 });

    const [contact] = await ds().query(`SELECT id, name, number FROM contacts WHERE "tenantId" = $1`, [a.tenant.id]);
    expect(contact).toMatchObject({ name: 'Maria Cliente', number: from });
    expect(
      await ds().query(`SELECT kind, "externalId", "channelId" FROM contact_identities WHERE "contactId" = $1`, [contact.id]),
    ).toEqual([{ kind: 'wa', externalId: from, channelId: channel.id }]);
    const [ticket] = await ds().query(`SELECT * FROM tickets WHERE "contactId" = $1`, [contact.id]);
    expect(ticket).toMatchObject({
      status: 'pending',
      whatsappId: channel.id,
      channel: 'waba',
      queueId: queue.body.id,
      unreadMessages: 1,
      answered: false,
      lastMessage: 'Olá, preciso de ajuda',
    });
    const [message] = await ds().query(`SELECT * FROM messages WHERE "ticketId" = $1`, [ticket.id]);
    expect(message).toMatchObject({
      messageId: wamid,
      whatsappId: channel.id,
      fromMe: false,
      body: 'Olá, preciso de ajuda',
      mediaType: 'chat',
      status: 'received',
      contactId: contact.id,
    });

    const events = await eventsOf(a.tenant.id, since);
    expect(events.map((e) => e.name)).toEqual([
      SOCKET_EVENTS.contactUpdate,
      SOCKET_EVENTS.ticketCreate,
      SOCKET_EVENTS.messageCreate,
    ]);
    const [, ticketEvent, messageEvent] = events;
    expect(ticketEvent.payload).toMatchObject({
      action: 'create',
      ticket: { id: ticket.id, status: 'pending', contact: { id: contact.id, name: 'Maria Cliente' } },
    });
    expect(ticketEvent.audience).toMatchObject({
      scope: 'ticket',
      ticket: { ticketId: ticket.id, queueId: queue.body.id, userId: null, status: 'pending' },
    });
    expect(messageEvent.payload).toMatchObject({
      action: 'create',
      ticketId: ticket.id,
      message: { messageId: wamid, body: 'Olá, preciso de ajuda', fromMe: false },
    });
    expect(messageEvent.audience.scope).toBe('ticket');
  });

  it('the same webhook delivered twice stores one message and the second emits nothing', async () => {
    const t = await tenantWithChannel();
    const payload = inboundPayload(bed.fake.phoneNumberId, [
      { from: newWaId(), message: { type: 'text', text: { body: 'uma vez só' } } },
    ]);
    expect((await deliverWebhook(t.url, payload, t.channel.appSecret)).body.stored).toBe(1);
    const events = await eventCount(bed.server, t.tenant.id);
    const again = await deliverWebhook(t.url, payload, t.channel.appSecret);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ stored: 0, duplicates: 1, statuses: 0 });
    expect(await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 1 }]);
    expect(await ds().query(`SELECT "unreadMessages" FROM tickets WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([
      { unreadMessages: 1 },
    ]);
    expect(await eventCount(bed.server, t.tenant.id)).toBe(events);
  });

  it('a duplicate delivered after the ticket was closed does not open a new ticket', async () => {
    const t = await tenantWithChannel();
    const payload = inboundPayload(bed.fake.phoneNumberId, [{ from: newWaId() }]);
    await deliverWebhook(t.url, payload, t.channel.appSecret);
    await ds().query(`UPDATE tickets SET status = 'closed' WHERE "tenantId" = $1`, [t.tenant.id]);
    expect((await deliverWebhook(t.url, payload, t.channel.appSecret)).body.duplicates).toBe(1);
    expect(await ds().query(`SELECT status FROM tickets WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ status: 'closed' }]);
  });

  it('refuses an unsigned, wrongly signed or tampered webhook with 401 and stores nothing', async () => {
    const t = await tenantWithChannel();
    const other = await tenantWithChannel();
    const payload = inboundPayload(bed.fake.phoneNumberId, [{ from: newWaId() }]);
    const body = JSON.stringify(payload);
    const before = await eventCount(bed.server, t.tenant.id);
    const attempts = [
      deliverWebhook(t.url, payload, t.channel.appSecret, { signature: null }),
      deliverWebhook(t.url, payload, other.channel.appSecret),
      deliverWebhook(t.url, payload, t.channel.appSecret, { signature: 'sha256=' + '0'.repeat(64) }),
      deliverWebhook(t.url, payload, t.channel.appSecret, { signature: 'sha1=abc' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_WEBHOOK_SIGNATURE');
    }
    // Signed, then changed on the way.
    const { signWebhook } = await import('../../../../tests/fakes/graph-api.fake');
    const tampered = await fetch(t.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhook(body, t.channel.appSecret) },
      body: body.replace('Olá!', 'Olá?'),
    });
    expect(tampered.status).toBe(401);
    expect(await ds().query(`SELECT 1 FROM contacts WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([]);
    expect(await ds().query(`SELECT 1 FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([]);
    expect(await eventCount(bed.server, t.tenant.id)).toBe(before);
    expect((await deliverWebhook(`${bed.server.url}/webhooks/waba/999999`, payload, 'x')).status).toBe(404);
  });

  it('skips changes of another phone number id', async () => {
    const t = await tenantWithChannel();
    const res = await deliverWebhook(t.url, inboundPayload('999000111', [{ from: newWaId() }]), t.channel.appSecret);
    expect(res.body).toEqual({ stored: 0, duplicates: 0, statuses: 0 });
    expect(await ds().query(`SELECT 1 FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([]);
  });

  it("reuses a contact found by its normalised number (old 8-digit mobile) and adds the identity; never another tenant's contact", async () => {
    const t = await tenantWithChannel();
    const b = await bed.server.createTenant();
    const [mine] = await ds().query(
      `INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Cadastro', '5511987650001') RETURNING id`,
      [t.tenant.id],
    );
    const [theirs] = await ds().query(
      `INSERT INTO contacts ("tenantId", name, number) VALUES ($1, 'Outro', '5511987650002') RETURNING id`,
      [b.id],
    );
    // WhatsApp reports old accounts without the 9th digit.
    await deliverWebhook(
      t.url,
      inboundPayload(bed.fake.phoneNumberId, [{ from: '551187650001', name: 'Perfil' }]),
      t.channel.appSecret,
    );
    expect(await ds().query(`SELECT id, name FROM contacts WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([
      { id: mine.id, name: 'Cadastro' },
    ]);
    expect(await ds().query(`SELECT "externalId" FROM contact_identities WHERE "contactId" = $1`, [mine.id])).toEqual([
      { externalId: '551187650001' },
    ]);
    await deliverWebhook(t.url, inboundPayload(bed.fake.phoneNumberId, [{ from: '5511987650002' }]), t.channel.appSecret);
    const created = await ds().query(`SELECT id FROM contacts WHERE "tenantId" = $1 AND number = '5511987650002'`, [t.tenant.id]);
    expect(created).toHaveLength(1);
    expect(created[0].id).not.toBe(theirs.id);
    expect(await ds().query(`SELECT count(*)::int AS n FROM tickets WHERE "tenantId" = $1`, [b.id])).toEqual([{ n: 0 }]);
  });

  it('keeps messages of one contact in one ticket, counting unread; a quoted reply points at its message', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    const first = newWamid();
    await deliverWebhook(
      t.url,
      inboundPayload(bed.fake.phoneNumberId, [{ from, id: first, message: { type: 'text', text: { body: 'primeira' } } }]),
      t.channel.appSecret,
    );
    await deliverWebhook(
      t.url,
      inboundPayload(bed.fake.phoneNumberId, [
        { from, context: { id: first }, message: { type: 'text', text: { body: 'resposta' } } },
      ]),
      t.channel.appSecret,
    );
    const tickets = await ds().query(`SELECT id, "unreadMessages", "lastMessage" FROM tickets WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(tickets).toEqual([{ id: expect.any(Number), unreadMessages: 2, lastMessage: 'resposta' }]);
    const rows = await ds().query(`SELECT id, body, "quotedMsgId" FROM messages WHERE "ticketId" = $1 ORDER BY id`, [
      tickets[0].id,
    ]);
    expect(Number(rows[1].quotedMsgId)).toBe(Number(rows[0].id));
  });

  it('statuses become acks, only forward; failed keeps the reason', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    await deliverWebhook(t.url, inboundPayload(bed.fake.phoneNumberId, [{ from }]), t.channel.appSecret);
    const [ticket] = await ds().query(`SELECT id, "contactId" FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
    const insertOutbound = async (wamid: string) =>
      ds().query(
        `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", "fromMe", status, ack)
         VALUES ($1, $2, $3, 'resposta', $4, $5, true, 'sent', 1)`,
        [t.tenant.id, ticket.id, ticket.contactId, wamid, t.channel.id],
      );
    const ok = newWamid();
    const bad = newWamid();
    await insertOutbound(ok);
    await insertOutbound(bad);
    const ackOf = async (wamid: string) =>
      (await ds().query(`SELECT status, ack, "lastError" FROM messages WHERE "messageId" = $1`, [wamid]))[0];
    const send = (status: 'sent' | 'delivered' | 'read' | 'failed', id = ok, error?: { code: number; title: string }) =>
      deliverWebhook(t.url, statusPayload(bed.fake.phoneNumberId, [{ id, status, recipient: from, error }]), t.channel.appSecret);

    const since = await lastSeq(t.tenant.id);
    expect((await send('delivered')).body.statuses).toBe(1);
    expect(await ackOf(ok)).toMatchObject({ status: 'delivered', ack: 2 });
    expect((await send('read')).body.statuses).toBe(1);
    expect(await ackOf(ok)).toMatchObject({ status: 'read', ack: 3 });
    expect((await send('delivered')).body.statuses).toBe(0);
    expect((await send('sent')).body.statuses).toBe(0);
    expect((await send('failed')).body.statuses).toBe(0);
    expect(await ackOf(ok)).toMatchObject({ status: 'read', ack: 3 });
    const acks = (await eventsOf(t.tenant.id, since)).filter((e) => e.name === SOCKET_EVENTS.messageAck);
    expect(acks.map((e) => e.payload.message.ack)).toEqual([2, 3]);
    expect(acks[0].audience).toMatchObject({ scope: 'ticket', ticket: { ticketId: ticket.id } });

    await send('failed', bad, { code: 131026, title: 'Message undeliverable' });
    expect(await ackOf(bad)).toMatchObject({ status: 'failed', ack: -1, lastError: expect.stringContaining('131026') });
    // Statuses of an unknown message change nothing.
    expect((await send('read', newWamid())).body.statuses).toBe(0);
  });

  it('a reaction updates its target message (replaced, then removed); a repeated one emits nothing', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    const target = newWamid();
    await deliverWebhook(t.url, inboundPayload(bed.fake.phoneNumberId, [{ from, id: target }]), t.channel.appSecret);
    const react = (emoji: string) =>
      deliverWebhook(
        t.url,
        inboundPayload(bed.fake.phoneNumberId, [
          { from, message: { type: 'reaction', reaction: { message_id: target, emoji } } },
        ]),
        t.channel.appSecret,
      );
    const reactionsOf = async () =>
      (await ds().query(`SELECT reactions FROM messages WHERE "messageId" = $1`, [target]))[0].reactions;
    await react('👍');
    expect(await reactionsOf()).toEqual([expect.objectContaining({ emoji: '👍', fromMe: false })]);
    await react('❤️');
    expect((await reactionsOf()).map((r: { emoji: string }) => r.emoji)).toEqual(['❤️']);
    // Background work of the first message (hooks, the channel's session start) settles first:
    // its events are not the repeated reaction's.
    await bed.server.deps.channels.idle();
    const events = await eventCount(bed.server, t.tenant.id);
    await react('❤️');
    expect(await eventCount(bed.server, t.tenant.id)).toBe(events);
    await react('');
    expect(await reactionsOf()).toEqual([]);
    expect(await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 1 }]);
  });

  it("stores inbound media in the tenant's private folder and tells clients (appMessage:update)", async () => {
    const t = await tenantWithChannel();
    const bytes = Buffer.from('%PDF-1.4 fake pdf bytes');
    const mediaId = bed.fake.addMedia(bytes, 'application/pdf');
    const res = await deliverWebhook(
      t.url,
      inboundPayload(bed.fake.phoneNumberId, [
        {
          from: newWaId(),
          message: {
            type: 'document',
            document: { id: mediaId, mime_type: 'application/pdf', filename: 'boleto.pdf', caption: 'Meu boleto' },
          },
        },
      ]),
      t.channel.appSecret,
    );
    expect(res.body.stored).toBe(1);
    await bed.server.deps.channels.idle();
    const [message] = await ds().query(
      `SELECT id, body, "mediaType", "mediaName", "mimeType", "mediaPath", "lastError" FROM messages WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(message).toMatchObject({
      body: 'Meu boleto',
      mediaType: 'document',
      mediaName: 'boleto.pdf',
      mimeType: 'application/pdf',
      lastError: null,
    });
    expect(message.mediaPath).toMatch(/^messages\/[0-9a-f-]{36}\.pdf$/);
    const file = path.join(bed.server.deps.config.dataDir, 'uploads', String(t.tenant.id), message.mediaPath);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    const [update] = await ds().query(
      `SELECT payload FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq DESC LIMIT 1`,
      [t.tenant.id, SOCKET_EVENTS.messageUpdate],
    );
    expect(update.payload.message).toMatchObject({ id: Number(message.id), mediaUrl: `/messages/media/${message.id}` });

    // Served (by the messages module) only to users of this tenant.
    const other = await bed.server.createTenantWithUsers();
    const own = await fetch(`${bed.server.url}/messages/media/${message.id}`, {
      headers: { authorization: `Bearer ${t.users.admin.token}` },
    });
    expect(own.status).toBe(200);
    expect(Buffer.from(await own.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await bed.server.request('GET', `/messages/media/${message.id}`, { token: other.users.admin.token })).status).toBe(
      404,
    );
    expect((await bed.server.request('GET', `/messages/media/${message.id}`)).status).toBe(401);
  });

  it('keeps a message whose media cannot be downloaded, flagged ERR_WAPP_DOWNLOAD_MEDIA', async () => {
    const t = await tenantWithChannel();
    await deliverWebhook(
      t.url,
      inboundPayload(bed.fake.phoneNumberId, [
        { from: newWaId(), message: { type: 'image', image: { id: 'unknown-media-id', mime_type: 'image/jpeg' } } },
      ]),
      t.channel.appSecret,
    );
    await bed.server.deps.channels.idle();
    const [message] = await ds().query(
      `SELECT "mediaType", "mediaPath", "lastError", "dataJson" FROM messages WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(message).toMatchObject({ mediaType: 'image', mediaPath: null, lastError: 'ERR_WAPP_DOWNLOAD_MEDIA' });
    expect(message.dataJson.media).toMatchObject({ providerMediaId: 'unknown-media-id', state: 'failed' });
  });

  it('runs the hooks after the message is stored, in order, until one handles it; a failing hook does not stop the others', async () => {
    const t = await tenantWithChannel();
    const calls: string[] = [];
    let seen: InboundEvent | undefined;
    const inbound = bed.server.deps.channels.inbound;
    inbound.useHook({ name: 'test-ai', order: 400, run: async () => void calls.push('ai') });
    inbound.useHook({
      name: 'test-rating',
      order: 100,
      run: async (event) => {
        if (event.tenantId !== t.tenant.id) return;
        seen = event;
        const stored = await ds().query(`SELECT 1 FROM messages WHERE id = $1`, [event.messageId]);
        calls.push(`rating:${stored.length}`);
        if (event.inbound.body === 'nota 5') return 'handled';
      },
    });
    inbound.useHook({
      name: 'test-broken',
      order: 200,
      run: async () => {
        throw new Error('hook broke');
      },
    });
    try {
      const from = newWaId();
      await deliverWebhook(
        t.url,
        inboundPayload(bed.fake.phoneNumberId, [{ from, message: { type: 'text', text: { body: 'oi' } } }]),
        t.channel.appSecret,
      );
      await bed.server.deps.channels.idle();
      expect(calls).toEqual(['rating:1', 'ai']);
      expect(seen).toMatchObject({
        channel: { id: t.channel.id, type: 'waba' },
        ticket: { created: true, status: 'pending' },
        contact: { created: true },
      });
      calls.length = 0;
      await deliverWebhook(
        t.url,
        inboundPayload(bed.fake.phoneNumberId, [{ from, message: { type: 'text', text: { body: 'nota 5' } } }]),
        t.channel.appSecret,
      );
      await bed.server.deps.channels.idle();
      expect(calls).toEqual(['rating:1']);
      expect(seen?.ticket.created).toBe(false);
    } finally {
      for (const name of ['test-ai', 'test-rating', 'test-broken']) inbound.hooks.remove(name);
    }
  });

  it('a burst of 50 concurrent webhooks of one new contact makes one contact, one ticket and 50 messages', async () => {
    const t = await tenantWithChannel();
    const from = newWaId();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        deliverWebhook(
          t.url,
          inboundPayload(bed.fake.phoneNumberId, [
            { from, name: 'Rajada', message: { type: 'text', text: { body: `msg ${i}` } } },
          ]),
          t.channel.appSecret,
        ),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await ds().query(`SELECT count(*)::int AS n FROM contacts WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 1 }]);
    expect(await ds().query(`SELECT count(*)::int AS n FROM contact_identities WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([
      { n: 1 },
    ]);
    const tickets = await ds().query(`SELECT id, "unreadMessages" FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
    expect(tickets).toEqual([{ id: expect.any(Number), unreadMessages: 50 }]);
    expect(await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).toEqual([{ n: 50 }]);
    const creates = await ds().query(`SELECT count(*)::int AS n FROM domain_events WHERE "tenantId" = $1 AND name = $2`, [
      t.tenant.id,
      SOCKET_EVENTS.ticketCreate,
    ]);
    expect(creates).toEqual([{ n: 1 }]);
  });
});
