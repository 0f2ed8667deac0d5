import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createAgent,
  createContact,
  createMessagingTenant,
  createTicket,
  messageRow,
  multipart,
  sentTo,
  startMessagingServer,
  waitForMessage,
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

const sent = (row: any) => row.status === 'sent';

describe('POST /messages/{ticketId}', () => {
  it('writes the message pending first, then the delivery job sends it once through the channel (ack 1, provider id)', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'Olá, tudo bem?' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.warning).toBeNull();
    const [message] = res.body.messages;
    expect(message).toMatchObject({
      ticketId: t.ticketId,
      body: 'Olá, tudo bem?',
      fromMe: true,
      mediaType: 'chat',
      userId: t.users.user.id,
    });
    expect(message.clientId).toMatch(/^srv-/);
    const row = await waitForMessage(server, message.id, sent);
    expect(row.ack).toBe(1);
    expect(row.messageId).toMatch(/^wamid\.FAKE/);
    expect(sentTo(graph, t.contact.number)).toEqual([
      expect.objectContaining({ type: 'text', text: expect.objectContaining({ body: 'Olá, tudo bem?' }) }),
    ]);
    const update = await lastEvent(server, t.tenant.id, SOCKET_EVENTS.messageUpdate);
    expect(update?.payload.message).toMatchObject({ id: message.id, status: 'sent', ack: 1 });
    expect(update?.audience).toMatchObject({ scope: 'ticket', ticket: { ticketId: t.ticketId } });
    const ticket = await server.deps.dataSource.query(`SELECT "lastMessage", answered FROM tickets WHERE id = $1`, [t.ticketId]);
    expect(ticket[0]).toEqual({ lastMessage: 'Olá, tudo bem?', answered: true });
  });

  it('a retry with the same clientId answers the stored message (200) and sends nothing twice', async () => {
    const t = await createMessagingTenant(server, graph);
    const body = { body: 'Pedido confirmado', clientId: 'outbox-7f3a:1' };
    const first = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body });
    const again = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body });
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body })),
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.messages[0].id).toBe(first.body.messages[0].id);
    for (const r of concurrent) expect(r.body.messages[0].id).toBe(first.body.messages[0].id);
    await waitForMessage(server, first.body.messages[0].id, sent);
    // Give a duplicate delivery every chance to happen before counting.
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(graph, t.contact.number)).toHaveLength(1);
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM messages WHERE "ticketId" = $1`, [
      t.ticketId,
    ]);
    expect(count).toBe(1);
  });

  it('a retry of a send stored before the ticket was closed answers the stored message (200), not the refusal', async () => {
    // The offline outbox's lost answer: the send was stored, the ticket closed meanwhile.
    const t = await createMessagingTenant(server, graph);
    const body = { body: 'Seu pedido saiu', clientId: 'outbox-lost:1' };
    const first = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body });
    expect(first.status).toBe(201);
    await server.deps.dataSource.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [t.ticketId]);
    const again = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ created: false, warning: null });
    expect(again.body.messages.map((m: { id: number }) => m.id)).toEqual([first.body.messages[0].id]);
    // A new send to the closed ticket is still refused.
    const fresh = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'outra', clientId: 'outbox-lost:2' },
    });
    expect(fresh.status).toBe(400);
    expect(fresh.body.fields[0].path).toBe('ticketId');
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM messages WHERE "ticketId" = $1`, [
      t.ticketId,
    ]);
    expect(count).toBe(1);
  });

  it('refuses a clientId already used on another ticket', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createContact(server, t.tenant.id);
    const otherTicket = await createTicket(server, {
      tenantId: t.tenant.id,
      contactId: other.id,
      channelId: t.channelId,
      userId: t.users.user.id,
    });
    await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'a', clientId: 'dup-1' },
    });
    const res = await server.request('POST', `/messages/${otherTicket}`, {
      token: t.users.user.token,
      body: { body: 'b', clientId: 'dup-1' },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields[0].path).toBe('clientId');
  });

  it('fills the message variables of spec section 2 at send', async () => {
    const t = await createMessagingTenant(server, graph, {
      contact: { name: 'Maria Clara Souza', email: 'maria@example.com', businessName: 'Padaria Sol', firstName: 'Maria' },
    });
    await server.deps.dataSource.query(`UPDATE users SET name = 'Agente Ana' WHERE id = $1`, [t.users.user.id]);
    const [kanban] = await server.deps.dataSource.query(
      `INSERT INTO kanbans ("tenantId", name) VALUES ($1, 'Negociação') RETURNING id`,
      [t.tenant.id],
    );
    await server.deps.dataSource.query(`UPDATE contacts SET "kanbanId" = $1 WHERE id = $2`, [kanban.id, t.contact.id]);
    const [{ protocol }] = await server.deps.dataSource.query(`SELECT protocol FROM tickets WHERE id = $1`, [t.ticketId]);
    const text =
      '{{greeting}} {{firstName}} {{lastName}} ({{name}}), protocolo {{protocol}}, {{email}}, {{phoneNumber}}, {{kanban}}, {{businessName}} - {{user}} <{{userEmail}}> {{desconhecida}}';
    const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: text } });
    expect(res.status).toBe(201);
    const body = res.body.messages[0].body as string;
    expect(body).toMatch(/^(Bom dia|Boa tarde|Boa noite) Maria Souza \(Maria Clara Souza\)/);
    expect(body).toContain(
      `protocolo ${protocol}, maria@example.com, ${t.contact.number}, Negociação, Padaria Sol - Agente Ana <${t.users.user.email}> {{desconhecida}}`,
    );
    await waitForMessage(server, res.body.messages[0].id, sent);
    expect(sentTo(graph, t.contact.number)[0].text.body).toBe(body);
  });

  it('keeps the message pending with a warning when the ticket has no channel, or the channel is not connected', async () => {
    const t = await createMessagingTenant(server, graph, { channel: false });
    const res = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'Sem conexão' },
    });
    expect(res.status).toBe(201);
    expect(res.body.warning).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(res.body.warning.message).toContain('Atendimento sem conexão.');
    expect(res.body.messages[0]).toMatchObject({ status: 'pending', flags: expect.objectContaining({ retryPending: true }) });

    const c = await createMessagingTenant(server, graph);
    await server.deps.dataSource.query(`UPDATE channels SET status = 'DISCONNECTED' WHERE id = $1`, [c.channelId]);
    const res2 = await server.request('POST', `/messages/${c.ticketId}`, {
      token: c.users.user.token,
      body: { body: 'Conexão caída' },
    });
    expect(res2.status).toBe(201);
    expect(res2.body.warning.message).toContain('Sessão não inicializada.');
    const row = await waitForMessage(server, res2.body.messages[0].id, (r) => r.sendAttempts === 0 && r.nextRetryAt !== null);
    expect(row.status).toBe('pending');
    expect(sentTo(graph, c.contact.number)).toHaveLength(0);
  });

  it('sends files (field medias): one message per file, stored privately, the text as the first caption', async () => {
    const t = await createMessagingTenant(server, graph);
    const png = Buffer.from('\x89PNG\r\n\x1a\nfake-image');
    const pdf = Buffer.from('%PDF-1.4 fake');
    const res = await multipart(
      server,
      'POST',
      `/messages/${t.ticketId}`,
      t.users.user.token,
      { body: 'Segue o orçamento', clientId: 'files-1' },
      [
        { name: 'foto.png', type: 'image/png', bytes: png },
        { name: 'orçamento.pdf', type: 'application/pdf', bytes: pdf },
      ],
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [image, doc] = res.body.messages;
    expect(image).toMatchObject({
      mediaType: 'image',
      mediaName: 'foto.png',
      mimeType: 'image/png',
      body: 'Segue o orçamento',
      clientId: 'files-1',
    });
    expect(doc).toMatchObject({ mediaType: 'document', mediaName: 'orçamento.pdf', body: '', clientId: 'files-1#1' });
    expect(image.mediaUrl).toBe(`/messages/media/${image.id}`);
    await waitForMessage(server, image.id, sent);
    await waitForMessage(server, doc.id, sent);
    const out = sentTo(graph, t.contact.number);
    expect(out.map((m) => m.type).sort()).toEqual(['document', 'image']);
    expect(out.find((m) => m.type === 'image').image.caption).toBe('Segue o orçamento');
    const uploads = graph.requests.filter((r) => r.path.endsWith('/media'));
    expect(uploads.map((u) => (u.form?.file as { size: number }).size).sort()).toEqual([png.length, pdf.length].sort());
  });

  it('refuses oversized media (413) and executables (415) with the spec text, keeping nothing', async () => {
    const t = await createMessagingTenant(server, graph);
    const big = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.user.token, {}, [
      { name: 'video.mp4', type: 'video/mp4', bytes: Buffer.alloc(16 * 1024 * 1024 + 1) },
    ]);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({
      error: 'ERR_PAYLOAD_TOO_LARGE',
      message: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.',
    });
    expect(big.body.fields[0].path).toBe('medias');
    const exe = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.user.token, {}, [
      { name: 'setup.exe', type: 'application/octet-stream', bytes: Buffer.from('MZ') },
    ]);
    expect(exe.status).toBe(415);
    expect(exe.body).toMatchObject({
      error: 'ERR_UNSUPPORTED_FILE_TYPE',
      message: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.',
    });
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM messages WHERE "ticketId" = $1`, [
      t.ticketId,
    ]);
    expect(count).toBe(0);
    const { readdirSync, existsSync } = await import('node:fs');
    const dir = `${server.deps.config.dataDir}/uploads/${t.tenant.id}/messages`;
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('answers 404 for another tenant and for an agent who cannot see the ticket, 400 for a malformed body, 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const queue = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name) VALUES ($1, 'Vendas') RETURNING id`, [
      t.tenant.id,
    ]);
    await server.deps.dataSource.query(`UPDATE tickets SET "queueId" = $1 WHERE id = $2`, [queue[0].id, t.ticketId]);
    const outsider = await createAgent(server, t.tenant.id);
    const before = await eventCount(server, t.tenant.id);

    const foreign = await server.request('POST', `/messages/${t.ticketId}`, {
      token: other.users.admin.token,
      body: { body: 'x' },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
    const hidden = await server.request('POST', `/messages/${t.ticketId}`, { token: outsider.token, body: { body: 'x' } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('ERR_NO_TICKET_FOUND');
    const empty = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0].path).toBe('body');
    const badClient = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'x', clientId: 'com espaço' },
    });
    expect(badClient.status).toBe(400);
    expect(badClient.body.fields[0].path).toBe('clientId');
    const badId = await server.request('POST', `/messages/abc`, { token: t.users.user.token, body: { body: 'x' } });
    expect(badId.status).toBe(400);
    expect(badId.body.fields[0].path).toBe('ticketId');
    const quoteElsewhere = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.admin.token,
      body: { body: 'x', quotedMsgId: 999999 },
    });
    expect(quoteElsewhere.status).toBe(400);
    expect(quoteElsewhere.body.fields[0].path).toBe('quotedMsgId');
    expect((await server.request('POST', `/messages/${t.ticketId}`, { body: { body: 'x' } })).status).toBe(401);
    expect(await eventCount(server, t.tenant.id)).toBe(before);
    expect(sentTo(graph, t.contact.number)).toHaveLength(0);
  });

  it('refuses to send to a closed ticket, but a private note is accepted', async () => {
    const t = await createMessagingTenant(server, graph);
    await server.deps.dataSource.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [t.ticketId]);
    const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'oi' } });
    expect(res.status).toBe(400);
    expect(res.body.fields[0].path).toBe('ticketId');
    const note = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'nota', isPrivate: true },
    });
    expect(note.status).toBe(201);
    expect(note.body.messages[0].flags.private).toBe(true);
  });

  it('quotes a message of the same ticket (the provider gets its id as context)', async () => {
    const t = await createMessagingTenant(server, graph);
    const [{ id: quoted }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "messageId", "whatsappId", status) VALUES ($1, $2, $3, 'Qual o preço?', 'wamid.IN1', $4, 'received') RETURNING id`,
      [t.tenant.id, t.ticketId, t.contact.id, t.channelId],
    );
    const res = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.user.token,
      body: { body: 'R$ 10', quotedMsgId: Number(quoted) },
    });
    expect(res.status).toBe(201);
    expect(res.body.messages[0].quotedMsg).toMatchObject({ id: Number(quoted), body: 'Qual o preço?', fromMe: false });
    await waitForMessage(server, res.body.messages[0].id, sent);
    expect(sentTo(graph, t.contact.number)[0].context).toEqual({ message_id: 'wamid.IN1' });
  });
});

describe('POST /noRedis', () => {
  it('sends within the request and answers the outcome', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', '/noRedis', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'Agora' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages[0]).toMatchObject({ status: 'sent', ack: 1, body: 'Agora' });
    expect(res.body.messages[0].messageId).toMatch(/^wamid/);
    expect(sentTo(graph, t.contact.number)).toHaveLength(1);
  });

  it('answers 400 without ticketId, 404 for another tenant, 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const missing = await server.request('POST', '/noRedis', { token: t.users.user.token, body: { body: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields[0].path).toBe('ticketId');
    expect(
      (await server.request('POST', '/noRedis', { token: other.users.admin.token, body: { ticketId: t.ticketId, body: 'x' } }))
        .status,
    ).toBe(404);
    expect((await server.request('POST', '/noRedis', { body: { ticketId: t.ticketId, body: 'x' } })).status).toBe(401);
  });
});

describe('POST /messages/ghostMessage', () => {
  it('stores a private note in the thread that never reaches the customer', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', '/messages/ghostMessage', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'Cliente difícil' },
    });
    expect(res.status).toBe(201);
    expect(res.body.messages[0]).toMatchObject({
      isPrivate: true,
      status: 'sent',
      flags: expect.objectContaining({ private: true }),
    });
    const list = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.admin.token });
    expect(list.body.messages.map((m: any) => m.body)).toContain('Cliente difícil');
    await new Promise((r) => setTimeout(r, 200));
    expect(sentTo(graph, t.contact.number)).toHaveLength(0);
    expect((await messageRow(server, res.body.messages[0].id)).messageId).toBeNull();
  });

  it('answers 400 without body, 404 for another tenant, 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const bad = await server.request('POST', '/messages/ghostMessage', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('body');
    expect(
      (
        await server.request('POST', '/messages/ghostMessage', {
          token: other.users.user.token,
          body: { ticketId: t.ticketId, body: 'x' },
        })
      ).status,
    ).toBe(404);
    expect((await server.request('POST', '/messages/ghostMessage', { body: { ticketId: t.ticketId, body: 'x' } })).status).toBe(
      401,
    );
  });
});

describe('POST /sendButton', () => {
  it('sends interactive reply buttons through the channel', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', '/sendButton', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'Confirma o pedido?', buttons: [{ title: 'Sim' }, { id: 'nao', title: 'Não' }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages[0]).toMatchObject({
      mediaType: 'interactive',
      buttons: [
        { id: 'btn-1', title: 'Sim' },
        { id: 'nao', title: 'Não' },
      ],
    });
    await waitForMessage(server, res.body.messages[0].id, sent);
    const [out] = sentTo(graph, t.contact.number);
    expect(out.interactive.action.buttons).toEqual([
      { type: 'reply', reply: { id: 'btn-1', title: 'Sim' } },
      { type: 'reply', reply: { id: 'nao', title: 'Não' } },
    ]);
  });

  it('enforces the interactive limits: text 1 to 60, button text at most 20, unique, at most 3 buttons', async () => {
    const t = await createMessagingTenant(server, graph);
    const send = (body: unknown) => server.request('POST', '/sendButton', { token: t.users.user.token, body });
    const long = await send({ ticketId: t.ticketId, body: 'x'.repeat(61), buttons: [{ title: 'Ok' }] });
    expect(long.status).toBe(400);
    expect(long.body.fields[0].path).toBe('body');
    const empty = await send({ ticketId: t.ticketId, body: '', buttons: [{ title: 'Ok' }] });
    expect(empty.body.fields[0].path).toBe('body');
    const title = await send({ ticketId: t.ticketId, body: 'Escolha', buttons: [{ title: 'x'.repeat(21) }] });
    expect(title.status).toBe(400);
    expect(title.body.fields[0].path).toBe('buttons.0.title');
    const dup = await send({ ticketId: t.ticketId, body: 'Escolha', buttons: [{ title: 'Sim' }, { title: 'sim' }] });
    expect(dup.status).toBe(400);
    expect(dup.body.fields[0].path).toBe('buttons.1.title');
    const many = await send({
      ticketId: t.ticketId,
      body: 'Escolha',
      buttons: [{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }],
    });
    expect(many.status).toBe(400);
    expect(many.body.fields[0].path).toBe('buttons');
    const ok60 = await send({ ticketId: t.ticketId, body: 'x'.repeat(60), buttons: [{ title: 'y'.repeat(20) }] });
    expect(ok60.status).toBe(201);
    const other = await createMessagingTenant(server, graph);
    expect(
      (
        await server.request('POST', '/sendButton', {
          token: other.users.admin.token,
          body: { ticketId: t.ticketId, body: 'a', buttons: [{ title: 'b' }] },
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.request('POST', '/sendButton', { body: { ticketId: t.ticketId, body: 'a', buttons: [{ title: 'b' }] } }))
        .status,
    ).toBe(401);
  });
});

describe('POST /forward-messages/', () => {
  it('forwards messages into the contact’s active ticket as new outbound messages', async () => {
    const t = await createMessagingTenant(server, graph);
    const [{ id: a }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, status) VALUES ($1, $2, $3, 'Endereço: Rua A, 10', 'received') RETURNING id`,
      [t.tenant.id, t.ticketId, t.contact.id],
    );
    const [{ id: b }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, status) VALUES ($1, $2, $3, 'Entregar após 18h', 'received') RETURNING id`,
      [t.tenant.id, t.ticketId, t.contact.id],
    );
    const target = await createContact(server, t.tenant.id, { name: 'Entregador' });
    const res = await server.request('POST', '/forward-messages/', {
      token: t.users.user.token,
      body: { messages: [{ id: Number(a) }, Number(b)], contact: { id: target.id } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages.map((m: any) => m.body)).toEqual(['Endereço: Rua A, 10', 'Entregar após 18h']);
    const [ticket] = await server.deps.dataSource.query(
      `SELECT "contactId", status, "userId", "whatsappId" FROM tickets WHERE id = $1`,
      [res.body.ticketId],
    );
    expect(ticket).toEqual({ contactId: target.id, status: 'open', userId: t.users.user.id, whatsappId: t.channelId });
    for (const m of res.body.messages) await waitForMessage(server, m.id, sent);
    expect(sentTo(graph, target.number).map((m) => m.text.body)).toEqual(['Endereço: Rua A, 10', 'Entregar após 18h']);
    // Forwarding again lands in the same (now ongoing) ticket.
    const again = await server.request('POST', '/forward-messages/', {
      token: t.users.user.token,
      body: { messages: [Number(a)], contact: { id: target.id } },
    });
    expect(again.body.ticketId).toBe(res.body.ticketId);
  });

  it(`refuses more than 10 messages ('Permitido no máximo 10 mensagens.'), more than one contact, and bad input`, async () => {
    const t = await createMessagingTenant(server, graph);
    const ids = Array.from({ length: 11 }, (_, i) => i + 1);
    const res = await server.request('POST', '/forward-messages/', {
      token: t.users.user.token,
      body: { messages: ids, contact: { id: t.contact.id } },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ path: 'messages', message: 'Permitido no máximo 10 mensagens.' }]);
    const two = await server.request('POST', '/forward-messages/', {
      token: t.users.user.token,
      body: { messages: [1], contact: [{ id: 1 }, { id: 2 }] },
    });
    expect(two.status).toBe(400);
    expect(two.body.fields[0].path).toBe('contact');
    const none = await server.request('POST', '/forward-messages/', {
      token: t.users.user.token,
      body: { messages: [], contact: { id: 1 } },
    });
    expect(none.body.fields[0].path).toBe('messages');
    expect((await server.request('POST', '/forward-messages/', { body: { messages: [1], contact: { id: 1 } } })).status).toBe(
      401,
    );
  });

  it('never forwards another tenant’s message or to another tenant’s contact, nor a message of a hidden ticket', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const [{ id: theirs }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, status) VALUES ($1, $2, $3, 'segredo', 'received') RETURNING id`,
      [other.tenant.id, other.ticketId, other.contact.id],
    );
    const steal = await server.request('POST', '/forward-messages/', {
      token: t.users.admin.token,
      body: { messages: [Number(theirs)], contact: { id: t.contact.id } },
    });
    expect(steal.status).toBe(404);
    const [{ id: mine }] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, status) VALUES ($1, $2, $3, 'meu', 'received') RETURNING id`,
      [t.tenant.id, t.ticketId, t.contact.id],
    );
    const toForeign = await server.request('POST', '/forward-messages/', {
      token: t.users.admin.token,
      body: { messages: [Number(mine)], contact: { id: other.contact.id } },
    });
    expect(toForeign.status).toBe(404);
    expect(toForeign.body.error).toBe('ERR_NO_CONTACT_FOUND');
    const queue = await server.deps.dataSource.query(
      `INSERT INTO queues ("tenantId", name) VALUES ($1, 'Suporte') RETURNING id`,
      [t.tenant.id],
    );
    await server.deps.dataSource.query(`UPDATE tickets SET "queueId" = $1 WHERE id = $2`, [queue[0].id, t.ticketId]);
    const outsider = await createAgent(server, t.tenant.id);
    const hidden = await server.request('POST', '/forward-messages/', {
      token: outsider.token,
      body: { messages: [Number(mine)], contact: { id: t.contact.id } },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('ERR_NOT_FOUND');
    expect(sentTo(graph, other.contact.number)).toHaveLength(0);
  });
});
