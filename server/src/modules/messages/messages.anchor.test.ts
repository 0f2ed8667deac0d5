import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_TIME_ZONE } from '@shared/schemas/messages';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createMessagingTenant,
  frozenClock,
  messageRow,
  runSweep,
  sentTo,
  startMessagingServer,
  waitForMessage,
} from './messages.test-support';

/**
 * POST /messages/{ticketId} with the bodies the anchor (Izing) web client sends: every field it
 * sends is either honoured (scheduleDate, quotedMsg, id) or checked to say what a send does
 * (fromMe, read, mediaUrl); none is dropped.
 */
const clock = frozenClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer({ clock }));
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const HOUR = 3600_000;
const sent = (row: any) => row.status === 'sent';

/** yyyy-MM-ddTHH:mm of an instant in the business time zone: what the anchor's date-time picker writes. */
function pickerValue(date: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: BUSINESS_TIME_ZONE,
      hourCycle: 'h23',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(date)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** The anchor's text message (InputMensagem: prepararMensagemTexto). */
const anchorText = (body: string, extra: Record<string, unknown> = {}) => ({
  read: 1,
  fromMe: true,
  mediaUrl: '',
  body,
  scheduleDate: null,
  quotedMsg: null,
  id: `anchor-${Math.random().toString(36).slice(2)}`,
  ...extra,
});

async function postForm(url: string, token: string, form: FormData): Promise<{ status: number; body: any }> {
  const res = await fetch(server.url + url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('POST /messages/{ticketId}: the anchor client fields', () => {
  it('a future scheduleDate stores a scheduled message (nothing reaches the provider), sent by the schedule sweep when due', async () => {
    const t = await createMessagingTenant(server, graph, { contact: { name: 'Bruna Souza' } });
    const when = new Date(clock.now().getTime() + 2 * HOUR);
    const res = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('Oi {{firstName}}, lembrete', { scheduleDate: pickerValue(when), id: 'anchor-sched-1' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [message] = res.body.messages;
    expect(message).toMatchObject({
      status: 'scheduled',
      clientId: 'anchor-sched-1',
      scheduleDate: when.toISOString(),
      body: 'Oi {{firstName}}, lembrete',
      flags: expect.objectContaining({ scheduled: true }),
      schedule: { recurrenceDays: 0, repetitions: 1, occurrence: 1 },
    });
    // Listed with the other scheduled messages, as one made by POST /messagesSchedule/.
    const list = await server.request('GET', '/scheduleMessages', { token: t.users.user.token });
    expect(list.body.messages.map((m: any) => m.id)).toEqual([message.id]);

    await runSweep(server);
    await new Promise((r) => setTimeout(r, 200));
    expect((await messageRow(server, message.id)).status).toBe('scheduled');
    expect(sentTo(graph, t.contact.number)).toHaveLength(0);

    clock.advance(2 * HOUR);
    await runSweep(server);
    const row = await waitForMessage(server, message.id, sent);
    expect(row.body).toBe('Oi Bruna, lembrete');
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['Oi Bruna, lembrete']);
  });

  it('a past or malformed scheduleDate is a 400 naming scheduleDate and writes nothing; empty or null sends now', async () => {
    const t = await createMessagingTenant(server, graph);
    const past = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('tarde demais', { scheduleDate: pickerValue(new Date(clock.now().getTime() - HOUR)) }),
    });
    expect(past.status).toBe(400);
    expect(past.body.fields.map((f: any) => f.path)).toEqual(['scheduleDate']);
    const bad = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('data ruim', { scheduleDate: '31/02/2030 10:00' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: any) => f.path)).toEqual(['scheduleDate']);
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM messages WHERE "ticketId" = $1`, [
      t.ticketId,
    ]);
    expect(count).toBe(0);

    const now = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('agora', { scheduleDate: '' }),
    });
    expect(now.status, JSON.stringify(now.body)).toBe(201);
    await waitForMessage(server, now.body.messages[0].id, sent);
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['agora']);
  });

  it('quotedMsg (the quoted message object) quotes it: stored with quotedMsgId and sent to the provider as context', async () => {
    const t = await createMessagingTenant(server, graph);
    const [{ id }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", status)
       VALUES ($1, $2, $3, 'Tem em azul?', 'wamid.Q1', $4, 'received') RETURNING id`,
      [t.tenant.id, t.ticketId, t.contact.id, t.channelId],
    );
    // The anchor sends the whole message it shows (as GET /messages answered it).
    const thread = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    const quoted = thread.body.messages.find((m: any) => m.id === Number(id));
    const res = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('Temos sim', { quotedMsg: quoted }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages[0]).toMatchObject({ quotedMsgId: Number(id), quotedMsg: { id: Number(id), body: 'Tem em azul?' } });
    expect((await messageRow(server, res.body.messages[0].id)).quotedMsgId).toBe(String(id));
    await waitForMessage(server, res.body.messages[0].id, sent);
    expect(sentTo(graph, t.contact.number)[0]).toMatchObject({
      text: { body: 'Temos sim' },
      context: { message_id: 'wamid.Q1' },
    });

    // A quote of another ticket is refused like quotedMsgId; two different quotes are refused.
    const elsewhere = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('x', { quotedMsg: { ...quoted, id: 987654321 } }),
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.fields[0].path).toBe('quotedMsgId');
    const both = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('x', { quotedMsg: quoted, quotedMsgId: Number(id) + 1 }),
    });
    expect(both.status).toBe(400);
    expect(both.body.fields[0].path).toBe('quotedMsg');
  });

  it('id is the client id (a repeated request sends once); fromMe false, read 0 or a mediaUrl are refused naming the field', async () => {
    const t = await createMessagingTenant(server, graph);
    const body = anchorText('uma vez só', { id: 'anchor-idem-1' });
    const first = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body });
    const again = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.messages[0].id).toBe(first.body.messages[0].id);
    expect(first.body.messages[0].clientId).toBe('anchor-idem-1');
    for (const [field, value] of [
      ['fromMe', false],
      ['read', 0],
      ['mediaUrl', 'https://example.com/a.png'],
    ] as const) {
      const res = await server.request('POST', `/messages/${t.ticketId}`, {
        token: t.users.user.token,
        body: anchorText('não', { [field]: value }),
      });
      expect(res.status, field).toBe(400);
      expect(res.body.fields.map((f: any) => f.path)).toEqual([field]);
    }
    await waitForMessage(server, first.body.messages[0].id, sent);
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['uma vez só']);
  });

  it("multipart as the anchor sends files (body and scheduleDate once per file, fromMe, id): scheduled files, each file's name not sent as a caption", async () => {
    const t = await createMessagingTenant(server, graph);
    const when = new Date(clock.now().getTime() + HOUR);
    const form = new FormData();
    form.append('fromMe', 'true');
    form.append('id', 'anchor-files-1');
    const files = [
      { name: 'foto.png', type: 'image/png', bytes: Buffer.from('89504e470d0a1a0a', 'hex') },
      { name: 'nota.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n') },
    ];
    for (const f of files) {
      form.append('medias', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
      form.append('body', f.name);
      form.append('scheduleDate', pickerValue(when));
    }
    const res = await postForm(`/messages/${t.ticketId}`, t.users.user.token, form);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages.map((m: any) => [m.status, m.mediaType, m.mediaName, m.body, m.clientId])).toEqual([
      ['scheduled', 'image', 'foto.png', '', 'anchor-files-1'],
      ['scheduled', 'document', 'nota.pdf', '', 'anchor-files-1#1'],
    ]);
    expect(res.body.messages.every((m: any) => m.scheduleDate === when.toISOString())).toBe(true);

    clock.advance(HOUR);
    await runSweep(server);
    for (const m of res.body.messages) await waitForMessage(server, m.id, sent);
    const out = sentTo(graph, t.contact.number);
    expect(out.map((m) => m.type).sort()).toEqual(['document', 'image']);
    expect(out.find((m) => m.type === 'image').image.caption).toBeUndefined();

    // Different dates per file, or texts that do not match the files, are refused.
    const mixed = new FormData();
    mixed.append('medias', new Blob([new Uint8Array(files[0].bytes)], { type: 'image/png' }), 'a.png');
    mixed.append('medias', new Blob([new Uint8Array(files[0].bytes)], { type: 'image/png' }), 'b.png');
    mixed.append('scheduleDate', pickerValue(new Date(clock.now().getTime() + HOUR)));
    mixed.append('scheduleDate', pickerValue(new Date(clock.now().getTime() + 2 * HOUR)));
    const refused = await postForm(`/messages/${t.ticketId}`, t.users.user.token, mixed);
    expect(refused.status).toBe(400);
    expect(refused.body.fields[0].path).toBe('scheduleDate');
  });
});

describe("the anchor client's other inbox calls on messages", () => {
  it('DELETE /messages/{messageId} with the shown message as the body (`null` in the path for one not sent yet) deletes it', async () => {
    const t = await createMessagingTenant(server, graph);
    const note = await server.request('POST', '/messages/ghostMessage', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'nota' },
    });
    const shown = note.body.messages[0];
    const res = await server.request('DELETE', `/messages/${shown.messageId}`, { token: t.users.user.token, body: shown });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: shown.id, isDeleted: true });
    expect((await messageRow(server, shown.id)).isDeleted).toBe(true);

    // A path that names another provider message than the body's is refused; nothing changes.
    const [{ id }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", status, "fromMe")
       VALUES ($1, $2, $3, 'enviada', 'wamid.D1', $4, 'sent', true) RETURNING id`,
      [t.tenant.id, t.ticketId, t.contact.id, t.channelId],
    );
    const mismatch = await server.request('DELETE', '/messages/wamid.OTHER', {
      token: t.users.user.token,
      body: { id: Number(id), messageId: 'wamid.D1' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fields[0].path).toBe('messageId');
    expect((await messageRow(server, Number(id))).isDeleted).toBe(false);
  });

  it('POST /forward-messages/ with the shown messages and contact objects forwards them', async () => {
    const t = await createMessagingTenant(server, graph);
    const sentNow = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: anchorText('para encaminhar'),
    });
    await waitForMessage(server, sentNow.body.messages[0].id, sent);
    const thread = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    const target = await server.request('GET', `/contacts/${t.contact.id}`, { token: t.users.user.token });
    const res = await server.request('POST', '/forward-messages/', {
      token: t.users.user.token,
      body: { messages: thread.body.messages, contact: target.body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages.map((m: any) => m.body)).toEqual(['para encaminhar']);
  });
});
