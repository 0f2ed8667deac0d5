import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeTelegramBotApi,
  deliverTelegramUpdate,
  newTelegramChatId,
  telegramUpdate,
} from '../../../../tests/fakes/telegram-bot-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { frozenClock, multipart, runSweep, waitFor, waitForMessage } from '../messages/messages.test-support';

/** The Telegram channel through the real app against a fake Bot API. */

const clock = frozenClock();
let server: TestServer;
let fake: FakeTelegramBotApi;
beforeAll(async () => {
  fake = await new FakeTelegramBotApi().start();
  server = await startTestServer(
    { TELEGRAM_API_BASE_URL: fake.url, TELEGRAM_TIMEOUT_MS: '400', PUBLIC_URL: 'https://atende.example.com' },
    { clock },
  );
});
afterAll(async () => {
  await server?.close();
  await fake?.stop();
});

const url = (channelId: number) => `${server.url}/webhooks/telegram/${channelId}`;

async function createTelegramChannel(adminToken: string, extra: Record<string, unknown> = {}) {
  const res = await server.request('POST', '/whatsapp', {
    token: adminToken,
    body: { type: 'telegram', name: `Telegram ${Math.random().toString(36).slice(2, 8)}`, tokenTelegram: fake.token, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await server.deps.channels.idle();
  const [row] = await server.deps.dataSource.query(`SELECT status, number, secrets FROM channels WHERE id = $1`, [res.body.id]);
  return { id: res.body.id as number, body: res.body, row, secret: row.secrets.telegramWebhookSecret as string };
}

/** A tenant with a connected telegram channel and a ticket opened by an inbound message. */
async function tenantWithTicket() {
  const t = await server.createTenantWithUsers();
  const channel = await createTelegramChannel(t.users.admin.token);
  const chatId = newTelegramChatId();
  const res = await deliverTelegramUpdate(url(channel.id), telegramUpdate({ chatId, firstName: 'Ana' }), channel.secret);
  expect(res.status).toBe(200);
  const [ticket] = await server.deps.dataSource.query(`SELECT id FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
  return { ...t, channel, chatId, ticketId: ticket.id as number };
}

const reply = (t: { users: { admin: { token: string } }; ticketId: number }, body: string) =>
  server.request('POST', `/messages/${t.ticketId}`, { token: t.users.admin.token, body: { body } });

describe('telegram webhook text the database cannot hold', () => {
  it('is cleaned, not refused: a NUL or control character in an update is dropped and the message is stored (no retry loop)', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(t.users.admin.token);
    const update = telegramUpdate({ chatId: newTelegramChatId(), firstName: 'Lu\u0000cas', message: { text: 'Oi\u0000 tudo\u0007 bem?\ud800' } });
    const res = await deliverTelegramUpdate(url(channel.id), update, channel.secret);
    expect(res.status).toBe(200);
    const [row] = await server.deps.dataSource.query(
      `SELECT m.body, c.name FROM messages m JOIN contacts c ON c.id = m."contactId" WHERE m."tenantId" = $1`,
      [t.tenant.id],
    );
    expect(row).toEqual({ body: 'Oi tudo bem?\uFFFD', name: 'Lucas' });
  });
});

describe('telegram channels (POST /whatsapp)', () => {
  it("creates a telegram channel: token kept secret, CONNECTED with the bot's username, setWebhook with the secret", async () => {
    const t = await server.createTenantWithUsers();
    const before = fake.calls('setWebhook').length;
    const channel = await createTelegramChannel(t.users.admin.token);
    expect(channel.body).toMatchObject({ type: 'telegram', hasTelegramToken: true });
    expect(JSON.stringify(channel.body)).not.toContain(fake.token);
    expect(channel.row).toMatchObject({ status: 'CONNECTED', number: fake.username });
    expect(channel.secret).toMatch(/^[0-9a-f]{64}$/);
    const setWebhook = fake.calls('setWebhook').slice(before);
    expect(setWebhook).toHaveLength(1);
    expect(setWebhook[0].json).toMatchObject({
      url: `https://atende.example.com/webhooks/telegram/${channel.id}`,
      secret_token: channel.secret,
    });
    const read = await server.request('GET', `/whatsapp/${channel.id}`, { token: t.users.admin.token });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(fake.token);
    expect(JSON.stringify(read.body)).not.toContain(channel.secret);
  });

  it("refuses a missing token (400 'É necessário informar o token para o Telegram.'), another profile and no login", async () => {
    const t = await server.createTenantWithUsers();
    const missing = await server.request('POST', '/whatsapp', {
      token: t.users.admin.token,
      body: { type: 'telegram', name: 'Bot' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('É necessário informar o token para o Telegram.');
    expect(missing.body.fields[0]).toMatchObject({
      path: 'tokenTelegram',
      message: 'É necessário informar o token para o Telegram.',
    });
    const empty = await server.request('POST', '/whatsapp', {
      token: t.users.admin.token,
      body: { type: 'telegram', name: 'Bot', tokenTelegram: '  ' },
    });
    expect(empty.status).toBe(400);
    const body = { type: 'telegram', name: 'Bot', tokenTelegram: fake.token };
    expect((await server.request('POST', '/whatsapp', { token: t.users.user.token, body })).status).toBe(403);
    expect((await server.request('POST', '/whatsapp', { body })).status).toBe(401);
    expect((await server.deps.dataSource.query(`SELECT 1 FROM channels WHERE "tenantId" = $1`, [t.tenant.id])).length).toBe(0);
    // Another tenant's channel is not found.
    const other = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(other.users.admin.token);
    expect((await server.request('GET', `/whatsapp/${channel.id}`, { token: t.users.admin.token })).status).toBe(404);
  });

  it("a wrong bot token leaves the channel DISCONNECTED with Telegram's reason", async () => {
    const t = await server.createTenantWithUsers();
    const res = await server.request('POST', '/whatsapp', {
      token: t.users.admin.token,
      body: { type: 'telegram', name: 'Bot errado', tokenTelegram: '123:wrong' },
    });
    expect(res.status).toBe(201);
    await server.deps.channels.idle();
    const [row] = await server.deps.dataSource.query(`SELECT status, "statusReason" FROM channels WHERE id = $1`, [res.body.id]);
    expect(row).toMatchObject({ status: 'DISCONNECTED', statusReason: 'Telegram: Unauthorized' });
  });
  it('PUT with a new token checks the bot again; an empty token keeps the stored one', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(t.users.admin.token);
    const keep = await server.request('PUT', `/whatsapp/${channel.id}`, {
      token: t.users.admin.token,
      body: { name: 'Bot renomeado', tokenTelegram: '' },
    });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    await server.deps.channels.idle();
    let [row] = await server.deps.dataSource.query(`SELECT status, secrets FROM channels WHERE id = $1`, [channel.id]);
    expect(row.status).toBe('CONNECTED');
    expect(row.secrets).toMatchObject({ tokenTelegram: fake.token, telegramWebhookSecret: channel.secret });
    const rotated = await server.request('PUT', `/whatsapp/${channel.id}`, {
      token: t.users.admin.token,
      body: { tokenTelegram: '999:revoked' },
    });
    expect(rotated.status).toBe(200);
    expect(JSON.stringify(rotated.body)).not.toContain('999:revoked');
    await server.deps.channels.idle();
    [row] = await server.deps.dataSource.query(`SELECT status, "statusReason" FROM channels WHERE id = $1`, [channel.id]);
    expect(row).toMatchObject({ status: 'DISCONNECTED', statusReason: 'Telegram: Unauthorized' });
  });
  it('DELETE /whatsapp/{id} removes the bot webhook (deleteWebhook)', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(t.users.admin.token);
    const before = fake.calls('deleteWebhook').length;
    const res = await server.request('DELETE', `/whatsapp/${channel.id}`, { token: t.users.admin.token });
    expect(res.status).toBe(204);
    await waitFor(() => fake.calls('deleteWebhook').length > before, 'deleteWebhook at the Bot API');
    expect((await deliverTelegramUpdate(url(channel.id), telegramUpdate({ chatId: 1 }), channel.secret)).status).toBe(404);
  });
});

describe('POST /webhooks/telegram/:channelId', () => {
  it('stores contact, ticket and message once; refuses a wrong or missing secret (401, nothing stored)', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(t.users.admin.token);
    const chatId = newTelegramChatId();
    const update = telegramUpdate({ chatId, firstName: 'João', lastName: 'Silva', message: { text: 'Preciso de ajuda' } });

    expect((await deliverTelegramUpdate(url(channel.id), update, 'wrong-secret')).status).toBe(401);
    expect((await deliverTelegramUpdate(url(channel.id), update, null)).status).toBe(401);
    expect((await server.deps.dataSource.query(`SELECT 1 FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).length).toBe(0);

    const first = await deliverTelegramUpdate(url(channel.id), update, channel.secret);
    expect(first).toMatchObject({ status: 200, body: { stored: 1, duplicates: 0 } });
    const again = await deliverTelegramUpdate(url(channel.id), update, channel.secret);
    expect(again).toMatchObject({ status: 200, body: { stored: 0, duplicates: 1 } });

    const [contact] = await server.deps.dataSource.query(
      `SELECT id, name, "telegramId", "isGroup" FROM contacts WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(contact).toMatchObject({ name: 'João Silva', telegramId: String(chatId), isGroup: false });
    const tickets = await server.deps.dataSource.query(
      `SELECT id, "contactId", "whatsappId" FROM tickets WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(tickets).toEqual([expect.objectContaining({ contactId: contact.id, whatsappId: channel.id })]);
    const messages = await server.deps.dataSource.query(
      `SELECT body, "fromMe", "messageId" FROM messages WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(messages).toEqual([
      expect.objectContaining({ body: 'Preciso de ajuda', fromMe: false, messageId: `${chatId}:${update.message.message_id}` }),
    ]);
  });

  it('a group chat becomes a group contact named after the group', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(t.users.admin.token);
    const chatId = -1_000_000_000_000 - Math.floor(Math.random() * 1e9);
    const res = await deliverTelegramUpdate(
      url(channel.id),
      telegramUpdate({ chatId, chatType: 'supergroup', title: 'Equipe Vendas', firstName: 'Pedro', message: { text: 'oi' } }),
      channel.secret,
    );
    expect(res.status).toBe(200);
    const [contact] = await server.deps.dataSource.query(`SELECT name, "isGroup" FROM contacts WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(contact).toMatchObject({ name: 'Equipe Vendas', isGroup: true });
    const [message] = await server.deps.dataSource.query(`SELECT body FROM messages WHERE "tenantId" = $1`, [t.tenant.id]);
    expect(message.body).toBe('Pedro: oi');
  });

  it('downloads inbound media through getFile and the file URL (largest photo size)', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createTelegramChannel(t.users.admin.token);
    const bytes = Buffer.from('%PDF-1.4 fake telegram document');
    const fileId = fake.addFile(bytes, 'application/pdf', 'boleto.pdf');
    const small = fake.addFile(Buffer.from('small'), 'image/jpeg');
    const large = fake.addFile(Buffer.from('large-photo-bytes'), 'image/jpeg');
    const chatId = newTelegramChatId();
    await deliverTelegramUpdate(
      url(channel.id),
      telegramUpdate({
        chatId,
        message: { document: { file_id: fileId, file_name: 'boleto.pdf', mime_type: 'application/pdf' }, caption: 'Meu boleto' },
      }),
      channel.secret,
    );
    await deliverTelegramUpdate(
      url(channel.id),
      telegramUpdate({
        chatId,
        message: {
          photo: [
            { file_id: small, width: 90, height: 90, file_size: 5 },
            { file_id: large, width: 800, height: 600, file_size: 17 },
          ],
        },
      }),
      channel.secret,
    );
    await server.deps.channels.idle();
    const rows = await server.deps.dataSource.query(
      `SELECT body, "mediaType", "mediaName", "mimeType", "mediaPath", "lastError" FROM messages WHERE "tenantId" = $1 ORDER BY id`,
      [t.tenant.id],
    );
    expect(rows[0]).toMatchObject({ body: 'Meu boleto', mediaType: 'document', mediaName: 'boleto.pdf', lastError: null });
    const dir = path.join(server.deps.config.dataDir, 'uploads', String(t.tenant.id));
    expect(readFileSync(path.join(dir, rows[0].mediaPath)).equals(bytes)).toBe(true);
    expect(rows[1]).toMatchObject({ mediaType: 'image', lastError: null });
    expect(readFileSync(path.join(dir, rows[1].mediaPath)).toString()).toBe('large-photo-bytes');
    expect(fake.calls('getFile').map((c) => c.json.file_id)).toEqual(expect.arrayContaining([fileId, large]));
    expect(fake.calls('getFile').map((c) => c.json.file_id)).not.toContain(small);
  });
});

describe('replies to telegram tickets', () => {
  it('POST /messages/{ticketId} reaches the Bot API as sendMessage to the chat id, and is recorded sent', async () => {
    const t = await tenantWithTicket();
    const res = await reply(t, 'Olá Ana, como posso ajudar?');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.messages[0].id;
    const sent = await waitForMessage(server, id, (r) => r.status === 'sent');
    expect(sent.ack).toBe(1);
    const call = fake.sends().findLast((c) => String(c.json?.chat_id) === String(t.chatId));
    expect(call).toMatchObject({ apiMethod: 'sendMessage', json: { text: expect.stringContaining('como posso ajudar?') } });
    expect(sent.messageId).toMatch(new RegExp(`^${t.chatId}:\\d+$`));
  });

  it('sends an attached file with sendDocument (multipart)', async () => {
    const t = await tenantWithTicket();
    const bytes = Buffer.from('%PDF-1.4 outbound');
    const res = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.admin.token, {}, [
      { name: 'contrato.pdf', type: 'application/pdf', bytes },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
    const call = fake.calls('sendDocument').findLast((c) => c.form?.chat_id === String(t.chatId));
    const file = call?.form?.document as { name: string; bytes: Buffer };
    expect(file.name).toBe('contrato.pdf');
    expect(file.bytes.equals(bytes)).toBe(true);
  });

  it('a 500 and a timeout keep the message pending and it is retried; a 400 fails it (Mensagem não entregue)', async () => {
    const t = await tenantWithTicket();
    fake.failNext({ status: 500 }, { apiMethod: 'sendMessage' });
    const r1 = await reply(t, 'Primeira tentativa falha');
    const id1 = r1.body.messages[0].id;
    const pending = await waitForMessage(server, id1, (r) => r.sendAttempts === 1 && r.lastError !== null);
    expect(pending.status).toBe('pending');
    clock.advance(60_000);
    await runSweep(server);
    await waitForMessage(server, id1, (r) => r.status === 'sent');

    fake.failNext({ hang: true }, { apiMethod: 'sendMessage' });
    const r2 = await reply(t, 'Sem resposta');
    const id2 = r2.body.messages[0].id;
    const timedOut = await waitForMessage(server, id2, (r) => r.sendAttempts === 1 && r.lastError !== null);
    expect(timedOut.status).toBe('pending');
    expect(timedOut.lastError).toContain('sem resposta');
    clock.advance(60_000);
    await runSweep(server);
    await waitForMessage(server, id2, (r) => r.status === 'sent');

    fake.failNext({ status: 400, description: 'Bad Request: chat not found' }, { apiMethod: 'sendMessage' });
    const r3 = await reply(t, 'Falha final');
    const failed = await waitForMessage(server, r3.body.messages[0].id, (r) => r.status === 'failed');
    expect(failed.ack).toBe(-1);
    expect(failed.lastError).toMatch(/^Mensagem não entregue: .*chat not found/);
  });
});
