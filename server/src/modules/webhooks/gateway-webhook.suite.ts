import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeFailure, RecordedRequest } from '../../../../tests/fakes/fake-http-server';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { frozenClock, multipart, runSweep, waitFor, waitForMessage } from '../messages/messages.test-support';

/**
 * The route-level suite the QR-code gateways (Evolution, Wuzapi, Meow) share: the real app,
 * the real adapter, and the gateway's fake (written for the tests) posting webhooks to the app
 * as the gateway does. Each gateway's test file gives a driver and adds its own cases.
 */

export interface GatewayChannel {
  id: number;
  name: string;
  secret: string;
  /** The credential (API key or token) the channel was created with. */
  credential: string;
}

export type Delivery = Promise<{ status: number; body: any }>;

export interface GatewayDriver {
  type: 'evo' | 'wuzapi' | 'meow';
  /** Key of the webhook secret in channels.secrets. */
  secretKey: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Our server's origin, where the fake posts the webhooks registered with it. */
  setWebhookOrigin(origin: string): void;
  /** A POST /whatsapp body for a channel on the fake. */
  createBody(): Record<string, unknown>;
  /** The QR payload the fake is showing for this channel. */
  currentQr(channel: GatewayChannel): string;
  /** The webhook URL the fake has registered for this channel. */
  registeredWebhook(channel: GatewayChannel): string | null;
  /** The phone scans the QR code: the gateway posts its "connected" webhook. */
  scan(channel: GatewayChannel, number: string): Delivery;
  /** The phone logs out: the gateway posts that the session ended. */
  logoutFromPhone(channel: GatewayChannel): Delivery;
  /** A text from `from` (digits), posted as the gateway does; `secret` overrides (null: none). */
  inboundText(channel: GatewayChannel, from: string, text: string, opts?: { id?: string; secret?: string | null; pushName?: string }): Promise<{ status: number; body: any; id: string }>;
  /** An image from `from` whose bytes the adapter downloads from the gateway. */
  inboundImage(channel: GatewayChannel, from: string, bytes: Buffer, caption: string): Promise<{ status: number; body: any; id: string }>;
  /** A delivery receipt of one of our messages. */
  ack(channel: GatewayChannel, providerMessageId: string, to: string, status: 'delivered' | 'read'): Delivery;
  /** Text sends the fake accepted for `to`, their text. */
  textsTo(to: string): string[];
  /** The last media send to `to`: the file bytes and name. */
  lastMediaTo(to: string): { bytes: Buffer; fileName?: string } | null;
  /** The next text send fails this way. */
  failNextSend(failure: FakeFailure): void;
  /** Whether the channel's session still exists at the gateway (after delete). */
  exists(channel: GatewayChannel): boolean;
  /** Whether the channel's phone is paired at the gateway (after logout). */
  loggedIn(channel: GatewayChannel): boolean;
  requests(): RecordedRequest[];
}

export const newNumber = (): string => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export function gatewayWebhookSuite(driver: GatewayDriver): {
  server: () => TestServer;
  createChannel: (adminToken: string, body?: Record<string, unknown>) => Promise<GatewayChannel & { row: any; body: any }>;
} {
  const clock = frozenClock();
  let server: TestServer;

  beforeAll(async () => {
    await driver.start();
    server = await startTestServer({ CHANNEL_HTTP_TIMEOUT_MS: '400', PUBLIC_URL: 'https://atende.example.com' }, { clock });
    driver.setWebhookOrigin(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await driver.stop();
  });

  const row = async (id: number) =>
    (await server.deps.dataSource.query(`SELECT status, "statusReason", qrcode, number, secrets, name FROM channels WHERE id = $1`, [id]))[0];

  async function createChannel(adminToken: string, body: Record<string, unknown> = driver.createBody()) {
    const res = await server.request('POST', '/whatsapp', { token: adminToken, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await server.deps.channels.idle();
    const r = await row(res.body.id);
    const credential = String(body.evolutionApiKey ?? body.wuzapiToken ?? body.meowToken);
    return { id: res.body.id as number, name: r.name as string, secret: r.secrets[driver.secretKey] as string, credential, row: r, body: res.body };
  }

  async function connectedChannel(adminToken: string) {
    const channel = await createChannel(adminToken);
    const number = newNumber();
    expect((await driver.scan(channel, number)).status).toBe(200);
    await waitFor(async () => (await row(channel.id)).status === 'CONNECTED', 'CONNECTED');
    return { ...channel, number };
  }

  async function tenantWithTicket() {
    const t = await server.createTenantWithUsers();
    const channel = await connectedChannel(t.users.admin.token);
    const from = newNumber();
    const res = await driver.inboundText(channel, from, 'Olá, preciso de ajuda', { pushName: 'Ana' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [ticket] = await server.deps.dataSource.query(`SELECT id FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
    return { ...t, channel, from, ticketId: ticket.id as number };
  }

  const reply = (t: { users: { admin: { token: string } }; ticketId: number }, body: string) =>
    server.request('POST', `/messages/${t.ticketId}`, { token: t.users.admin.token, body: { body } });

  describe(`${driver.type} channels (POST /whatsapp)`, () => {
    it('create: the gateway session starts, qrcode with the QR payload, then CONNECTED with the number once scanned', async () => {
      const t = await server.createTenantWithUsers();
      const channel = await createChannel(t.users.admin.token);
      expect(channel.row).toMatchObject({ status: 'qrcode', qrcode: driver.currentQr(channel), statusReason: null });
      expect(channel.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(driver.registeredWebhook(channel)).toBe(`https://atende.example.com/webhooks/${driver.type}/${channel.id}?secret=${channel.secret}`);
      expect(channel.body.webhookUrl).toBe(`https://atende.example.com/webhooks/${driver.type}/${channel.id}`);
      expect(JSON.stringify(channel.body)).not.toContain(channel.credential);
      expect(JSON.stringify(channel.body)).not.toContain(channel.secret);
      const number = newNumber();
      const scanned = await driver.scan(channel, number);
      expect(scanned).toMatchObject({ status: 200, body: { session: 'connected' } });
      expect(await row(channel.id)).toMatchObject({ status: 'CONNECTED', number, qrcode: null });
      const read = await server.request('GET', `/whatsapp/${channel.id}`, { token: t.users.admin.token });
      expect(read.body).toMatchObject({ status: 'CONNECTED', number });
    });

    it("another tenant's channel is not found (404), and its session is left alone", async () => {
      const t = await server.createTenantWithUsers();
      const other = await server.createTenantWithUsers();
      const channel = await connectedChannel(other.users.admin.token);
      const token = t.users.admin.token;
      expect((await server.request('GET', `/whatsapp/${channel.id}`, { token })).status).toBe(404);
      expect((await server.request('DELETE', `/whatsappsession/${channel.id}`, { token })).status).toBe(404);
      expect((await server.request('DELETE', `/whatsapp/${channel.id}`, { token })).status).toBe(404);
      expect(driver.exists(channel)).toBe(true);
      expect(driver.loggedIn(channel)).toBe(true);
      expect((await row(channel.id)).status).toBe('CONNECTED');
    });

    it('the phone logging out leaves the channel DISCONNECTED with the reason', async () => {
      const t = await server.createTenantWithUsers();
      const channel = await connectedChannel(t.users.admin.token);
      expect((await driver.logoutFromPhone(channel)).status).toBe(200);
      expect(await row(channel.id)).toMatchObject({ status: 'DISCONNECTED', statusReason: expect.stringContaining('desconectada no celular') });
    });

    it('DELETE /whatsappsession/{id} logs out at the gateway; DELETE /whatsapp/{id} removes the session there', async () => {
      const t = await server.createTenantWithUsers();
      const channel = await connectedChannel(t.users.admin.token);
      const ended = await server.request('DELETE', `/whatsappsession/${channel.id}`, { token: t.users.admin.token });
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ status: 'DISCONNECTED' });
      expect(driver.loggedIn(channel)).toBe(false);
      const removed = await server.request('DELETE', `/whatsapp/${channel.id}`, { token: t.users.admin.token });
      expect(removed.status).toBe(204);
      await waitFor(() => !driver.exists(channel), 'session removed at the gateway');
      const late = await fetch(`${server.url}/webhooks/${driver.type}/${channel.id}?secret=${channel.secret}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(late.status).toBe(404);
    });
  });

  describe(`POST /webhooks/${driver.type}/:channelId`, () => {
    it('stores contact, ticket and message once; a wrong or missing secret is 401 and stores nothing; an unknown channel is 404', async () => {
      const t = await server.createTenantWithUsers();
      const channel = await connectedChannel(t.users.admin.token);
      const from = newNumber();
      const id = `3EB0${Math.random().toString(16).slice(2, 12).toUpperCase()}`;
      expect((await driver.inboundText(channel, from, 'Oi', { id, secret: 'wrong' })).status).toBe(401);
      const missing = await driver.inboundText(channel, from, 'Oi', { id, secret: null });
      expect(missing).toMatchObject({ status: 401, body: { error: 'ERR_WEBHOOK_SIGNATURE' } });
      expect((await server.deps.dataSource.query(`SELECT 1 FROM messages WHERE "tenantId" = $1`, [t.tenant.id])).length).toBe(0);
      expect((await server.deps.dataSource.query(`SELECT 1 FROM contacts WHERE "tenantId" = $1`, [t.tenant.id])).length).toBe(0);

      const first = await driver.inboundText(channel, from, 'Preciso de ajuda', { id, pushName: 'João Silva' });
      expect(first).toMatchObject({ status: 200, body: { stored: 1, duplicates: 0 } });
      const again = await driver.inboundText(channel, from, 'Preciso de ajuda', { id, pushName: 'João Silva' });
      expect(again).toMatchObject({ status: 200, body: { stored: 0, duplicates: 1 } });

      const [contact] = await server.deps.dataSource.query(`SELECT id, name, number, "isGroup" FROM contacts WHERE "tenantId" = $1`, [t.tenant.id]);
      expect(contact).toMatchObject({ name: 'João Silva', number: from, isGroup: false });
      const [identity] = await server.deps.dataSource.query(`SELECT kind, "externalId" FROM contact_identities WHERE "contactId" = $1`, [contact.id]);
      expect(identity).toEqual({ kind: 'wa', externalId: from });
      const tickets = await server.deps.dataSource.query(`SELECT "contactId", "whatsappId", status FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
      expect(tickets).toEqual([{ contactId: contact.id, whatsappId: channel.id, status: 'pending' }]);
      const messages = await server.deps.dataSource.query(`SELECT body, "fromMe", "messageId" FROM messages WHERE "tenantId" = $1`, [t.tenant.id]);
      expect(messages).toEqual([{ body: 'Preciso de ajuda', fromMe: false, messageId: id }]);

      const unknown = await fetch(`${server.url}/webhooks/${driver.type}/999999999?secret=${channel.secret}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(unknown.status).toBe(404);
    });

    it("downloads an inbound image from the gateway into the tenant's folder", async () => {
      const t = await server.createTenantWithUsers();
      const channel = await connectedChannel(t.users.admin.token);
      const bytes = Buffer.from(`\x89PNG fake image ${Math.random()}`);
      const res = await driver.inboundImage(channel, newNumber(), bytes, 'minha foto');
      expect(res).toMatchObject({ status: 200, body: { stored: 1 } });
      await server.deps.channels.idle();
      const [message] = await server.deps.dataSource.query(
        `SELECT body, "mediaType", "mediaPath", "lastError" FROM messages WHERE "tenantId" = $1`,
        [t.tenant.id],
      );
      expect(message).toMatchObject({ body: 'minha foto', mediaType: 'image', lastError: null });
      const dir = path.join(server.deps.config.dataDir, 'uploads', String(t.tenant.id));
      expect(readFileSync(path.join(dir, message.mediaPath)).equals(bytes)).toBe(true);
    });
  });

  describe(`replies to ${driver.type} tickets`, () => {
    it('POST /messages/{ticketId} reaches the gateway, is sent, and receipts become acks (delivered, read)', async () => {
      const t = await tenantWithTicket();
      const res = await reply(t, 'Olá Ana, como posso ajudar?');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const sent = await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
      expect(sent.ack).toBe(1);
      expect(driver.textsTo(t.from).at(-1)).toContain('como posso ajudar?');
      expect((await driver.ack(t.channel, sent.messageId, t.from, 'delivered')).status).toBe(200);
      expect((await waitForMessage(server, sent.id, (r) => r.ack === 2)).status).toBe('delivered');
      await driver.ack(t.channel, sent.messageId, t.from, 'read');
      await waitForMessage(server, sent.id, (r) => r.ack === 3);
      // A late "delivered" never moves the ack back.
      await driver.ack(t.channel, sent.messageId, t.from, 'delivered');
      expect((await waitForMessage(server, sent.id, () => true)).ack).toBe(3);
    });

    it('sends an attached file', async () => {
      const t = await tenantWithTicket();
      const bytes = Buffer.from(`%PDF-1.4 ${driver.type} outbound`);
      const res = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.admin.token, {}, [
        { name: 'contrato.pdf', type: 'application/pdf', bytes },
      ]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
      const media = driver.lastMediaTo(t.from);
      expect(media?.bytes.equals(bytes)).toBe(true);
    });

    it('a 500 and a timeout keep the message pending and it is retried; a 400 fails it (Mensagem não entregue)', async () => {
      const t = await tenantWithTicket();
      driver.failNextSend({ status: 500 });
      const r1 = await reply(t, 'Primeira tentativa falha');
      const id1 = r1.body.messages[0].id;
      const pending = await waitForMessage(server, id1, (r) => r.sendAttempts === 1 && r.lastError !== null);
      expect(pending.status).toBe('pending');
      clock.advance(60_000);
      await runSweep(server);
      await waitForMessage(server, id1, (r) => r.status === 'sent');

      driver.failNextSend({ hang: true });
      const r2 = await reply(t, 'Sem resposta');
      const id2 = r2.body.messages[0].id;
      const timedOut = await waitForMessage(server, id2, (r) => r.sendAttempts === 1 && r.lastError !== null);
      expect(timedOut.status).toBe('pending');
      expect(timedOut.lastError).toContain('sem resposta');
      clock.advance(60_000);
      await runSweep(server);
      await waitForMessage(server, id2, (r) => r.status === 'sent');
      expect(driver.textsTo(t.from).filter((x) => x === 'Sem resposta').length).toBeGreaterThanOrEqual(1);

      driver.failNextSend({ status: 400 });
      const r3 = await reply(t, 'Falha final');
      const failed = await waitForMessage(server, r3.body.messages[0].id, (r) => r.status === 'failed');
      expect(failed.ack).toBe(-1);
      expect(failed.lastError).toMatch(/^Mensagem não entregue: /);
    });
  });

  return { server: () => server, createChannel };
}
