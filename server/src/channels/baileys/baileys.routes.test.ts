import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBaileys, textMessage, type FakeBaileysSocket } from '../../../../tests/fakes/baileys-socket.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { waitFor } from '../../modules/messages/messages.test-support';

/** Baileys channels through the app (real server, injected socket via BAILEYS_SOCKET_MODULE). */

const FAKE = path.resolve('tests/fakes/baileys-socket.fake.ts');
let server: TestServer;

beforeAll(async () => {
  fakeBaileys.reset({ mode: 'manual' });
  server = await startTestServer({ BAILEYS_SOCKET_MODULE: FAKE });
});
afterAll(async () => {
  await server?.close();
  fakeBaileys.reset();
});

const channelRow = async (id: number) => (await server.deps.dataSource.query(`SELECT * FROM channels WHERE id = $1`, [id]))[0];
const authRows = async (id: number): Promise<number> =>
  (await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM channel_auth_state WHERE "channelId" = $1`, [id]))[0].n;

/** A baileys channel created through POST /whatsapp, then POST /whatsappsession answering its QR. */
async function createAndShowQr(token: string, body: Record<string, unknown> = {}) {
  const before = fakeBaileys.sockets.length;
  const created = await server.request('POST', '/whatsapp', { token, body: { type: 'baileys', name: `Celular ${Date.now()}`, ...body } });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  // The create starts the session in the background; the session route starts it again.
  const background = await fakeBaileys.next(before);
  background.qr('2@BACKGROUND');
  await waitFor(async () => (await channelRow(id)).status === 'qrcode', 'background QR');
  const session = server.request('POST', `/whatsappsession/${id}`, { token });
  const sock = await fakeBaileys.next(before + 1);
  expect(background.ended).toBe(true);
  sock.qr('2@QR-FROM-ROUTE');
  const res = await session;
  return { id, created, res, sock };
}

describe('baileys channels through the routes', () => {
  let admin: { token: string };
  let tenantId: number;
  let id: number;
  let sock: FakeBaileysSocket;

  beforeAll(async () => {
    const t = await server.createTenantWithUsers();
    admin = t.users.admin;
    tenantId = t.tenant.id;
  });

  it('POST /whatsapp creates it; POST /whatsappsession answers qrcode with the QR payload (the screen draws it)', async () => {
    const made = await createAndShowQr(admin.token);
    ({ id, sock } = made);
    expect(made.created.body).toMatchObject({ type: 'baileys', status: 'DISCONNECTED' });
    expect(made.res.status).toBe(200);
    expect(made.res.body).toMatchObject({ id, status: 'qrcode', qrcode: '2@QR-FROM-ROUTE' });
  });

  it('the phone scans: CONNECTED with its number', async () => {
    sock.open('5511987650000');
    await waitFor(async () => (await channelRow(id)).status === 'CONNECTED', 'connected');
    const res = await server.request('GET', `/whatsapp/${id}`, { token: admin.token });
    expect(res.body).toMatchObject({ status: 'CONNECTED', number: '5511987650000', qrcode: null });
  });

  let ticketId: number;
  it('a customer message opens a pending ticket on the channel', async () => {
    sock.receive([textMessage('5511966665555', 'Bom dia, preciso de ajuda', { id: 'ROUTE-IN-1', pushName: 'Paulo' })]);
    await waitFor(async () => {
      const rows = await server.deps.dataSource.query(`SELECT "ticketId" FROM messages WHERE "messageId" = 'ROUTE-IN-1' AND "whatsappId" = $1`, [id]);
      if (rows[0]) ticketId = rows[0].ticketId;
      return Boolean(rows[0]);
    }, 'inbound stored');
    const ticket = await server.request('GET', `/tickets/${ticketId}`, { token: admin.token });
    expect(ticket.body).toMatchObject({ status: 'pending', whatsappId: id, contact: { name: 'Paulo', number: '5511966665555' } });
  });

  it('POST /messages/{ticketId} goes out through the socket; messages.update statuses become acks', async () => {
    const res = await server.request('POST', `/messages/${ticketId}`, { token: admin.token, body: { body: 'Olá Paulo!' } });
    expect(res.status).toBe(201);
    const messageId = res.body.messages[0].id as number;
    let providerId = '';
    await waitFor(async () => {
      const [m] = await server.deps.dataSource.query(`SELECT * FROM messages WHERE id = $1`, [messageId]);
      providerId = m.messageId;
      return m.status === 'sent';
    }, 'sent');
    expect(sock.sent.at(-1)).toMatchObject({ jid: '5511966665555@s.whatsapp.net', content: { text: 'Olá Paulo!' }, id: providerId });
    sock.status(providerId, 3, '5511966665555@s.whatsapp.net');
    await waitFor(async () => (await server.deps.dataSource.query(`SELECT ack FROM messages WHERE id = $1`, [messageId]))[0].ack === 2, 'delivered');
    sock.status(providerId, 4, '5511966665555@s.whatsapp.net');
    await waitFor(async () => (await server.deps.dataSource.query(`SELECT status FROM messages WHERE id = $1`, [messageId]))[0].status === 'read', 'read');
  });

  it('POST /messages/syncOld asks the phone for older messages of the chat (a positive limit required); they arrive as messages', async () => {
    const noLimit = await server.request('POST', '/messages/syncOld', { token: admin.token, body: { ticketId } });
    expect(noLimit.status).toBe(400);
    expect(noLimit.body.fields[0].path).toBe('limit');
    const res = await server.request('POST', '/messages/syncOld', { token: admin.token, body: { ticketId, limit: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requested: 1, limit: 2 });
    expect(sock.historyRequests.at(-1)).toMatchObject({ count: 2, key: { id: 'ROUTE-IN-1', fromMe: false, remoteJid: '5511966665555@s.whatsapp.net' } });
    const old = (id: string, ts: number) => textMessage('5511966665555', `antiga ${id}`, { id, timestamp: ts });
    sock.history([old('OLD-1', 1_600_000_001), old('OLD-2', 1_600_000_002), old('OLD-3', 1_600_000_003)]);
    await waitFor(async () => {
      const rows = await server.deps.dataSource.query(`SELECT "messageId" FROM messages WHERE "ticketId" = $1 AND "messageId" LIKE 'OLD-%' ORDER BY "messageId"`, [ticketId]);
      return rows.map((r: { messageId: string }) => r.messageId).join() === 'OLD-2,OLD-3';
    }, 'history stored');
    const byChannel = await server.request('POST', '/messages/syncOldByUser', { token: admin.token, body: { whatsappId: id, limit: 10 } });
    expect(byChannel.body).toEqual({ requested: 1, limit: 10 });
  });

  it('another tenant: 404 on the session routes, nothing changes', async () => {
    const other = await server.createTenantWithUsers();
    for (const method of ['POST', 'DELETE']) {
      const res = await server.request(method, `/whatsappsession/${id}`, { token: other.users.admin.token });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    expect((await channelRow(id)).status).toBe('CONNECTED');
    expect(sock.loggedOut).toBe(false);
  });

  it('DELETE /whatsappsession/{id} logs out: DISCONNECTED, the login cleared', async () => {
    expect(await authRows(id)).toBeGreaterThan(0);
    const res = await server.request('DELETE', `/whatsappsession/${id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'DISCONNECTED' });
    expect(sock.loggedOut).toBe(true);
    expect(await authRows(id)).toBe(0);
  });

  it('a pairing number: the session answers the pairing code', async () => {
    const made = await createAndShowQr(admin.token, { pairingNumber: '5511944443333' });
    expect(made.res.body).toMatchObject({ status: 'qrcode', pairingCode: 'FAKE1234' });
    expect(made.sock.pairingRequests).toEqual(['5511944443333']);
    await server.request('DELETE', `/whatsapp/${made.id}`, { token: admin.token });
  });

  it('DELETE /whatsapp/{id} of a connected channel logs out and its login rows go with it', async () => {
    const made = await createAndShowQr(admin.token);
    made.sock.open('5511922221111');
    await waitFor(async () => (await channelRow(made.id)).status === 'CONNECTED', 'connected');
    expect(await authRows(made.id)).toBeGreaterThan(0);
    const res = await server.request('DELETE', `/whatsapp/${made.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(made.sock.loggedOut).toBe(true);
    expect(await authRows(made.id)).toBe(0);
    expect(tenantId).toBeGreaterThan(0);
  });
});
