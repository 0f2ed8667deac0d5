import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeHubApi,
  deliverHubEvent,
  hubMessageEvent,
  hubStatusEvent,
  newHubContact,
} from '../../../../tests/fakes/hub-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { MAX_SEND_ATTEMPTS, retryDelayMs } from '../messages/outbound-delivery';
import { frozenClock, multipart, runSweep, waitFor, waitForMessage } from '../messages/messages.test-support';

/** The hub channel through the real app against a fake notification hub. */

const clock = frozenClock();
let server: TestServer;
let fake: FakeHubApi;
beforeAll(async () => {
  fake = await new FakeHubApi().start();
  server = await startTestServer(
    { HUB_API_BASE_URL: fake.url, CHANNEL_HTTP_TIMEOUT_MS: '400', PUBLIC_URL: 'https://atende.example.com' },
    { clock },
  );
});
afterAll(async () => {
  await server?.close();
  await fake?.stop();
});

const ds = () => server.deps.dataSource;
const url = (channelId: number) => `${server.url}/webhooks/hub/${channelId}`;

async function createHubChannel(adminToken: string, extra: Record<string, unknown> = {}) {
  const res = await server.request('POST', '/whatsapp', {
    token: adminToken,
    body: {
      type: 'hub',
      name: `Hub ${randomBytes(3).toString('hex')}`,
      hubChannelId: fake.channelId,
      hubToken: fake.token,
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await server.deps.channels.idle();
  const [row] = await ds().query(`SELECT status, "statusReason", number, secrets FROM channels WHERE id = $1`, [res.body.id]);
  return { id: res.body.id as number, body: res.body, row, secret: row.secrets.hubWebhookSecret as string };
}

async function tenantWithTicket() {
  const t = await server.createTenantWithUsers();
  const channel = await createHubChannel(t.users.admin.token);
  const from = newHubContact();
  const res = await deliverHubEvent(
    url(channel.id),
    hubMessageEvent(fake.channelId, from, [{ type: 'text', text: 'Oi' }], { name: 'Rita' }),
    channel.secret,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [ticket] = await ds().query(`SELECT id FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
  return { ...t, channel, from, ticketId: ticket.id as number };
}

const reply = (t: { users: { admin: { token: string } }; ticketId: number }, body: string) =>
  server.request('POST', `/messages/${t.ticketId}`, { token: t.users.admin.token, body: { body } });

const countMessages = async (tenantId: number) =>
  Number((await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [tenantId]))[0].n);

describe('hub channels (POST /whatsapp)', () => {
  it('creates a hub channel: 201, token and webhook secret kept secret, CONNECTED with the webhook registered at the hub', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createHubChannel(t.users.admin.token);
    expect(channel.body).toMatchObject({
      type: 'hub',
      providerSettings: { hubChannelId: fake.channelId },
      storedSecrets: ['hubToken'],
      webhookUrl: `https://atende.example.com/webhooks/hub/${channel.id}`,
    });
    expect(channel.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(channel.body)).not.toContain(fake.token);
    expect(JSON.stringify(channel.body)).not.toContain(channel.secret);
    expect(channel.row).toMatchObject({ status: 'CONNECTED', number: fake.channelNumber, statusReason: null });
    expect(fake.webhook).toEqual({ url: `https://atende.example.com/webhooks/hub/${channel.id}`, secret: channel.secret });
    const read = await server.request('GET', `/whatsapp/${channel.id}`, { token: t.users.admin.token });
    expect(JSON.stringify(read.body)).not.toContain(channel.secret);
  });

  it("a wrong token is DISCONNECTED with the hub's reason; missing fields are named; another tenant gets 404", async () => {
    const t = await server.createTenantWithUsers();
    const bad = await createHubChannel(t.users.admin.token, { hubToken: 'revoked' });
    expect(bad.row).toMatchObject({ status: 'DISCONNECTED', statusReason: 'Hub: Invalid API token (UNAUTHORIZED)' });
    const missing = await server.request('POST', '/whatsapp', { token: t.users.admin.token, body: { type: 'hub', name: 'Hub' } });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining(['hubChannelId', 'hubToken']),
    );
    const other = await server.createTenantWithUsers();
    const token = other.users.admin.token;
    expect((await server.request('GET', `/whatsapp/${bad.id}`, { token })).status).toBe(404);
    expect((await server.request('POST', `/whatsappsession/${bad.id}`, { token })).status).toBe(404);
    expect((await server.request('DELETE', `/whatsapp/${bad.id}`, { token })).status).toBe(404);
  });

  it('DELETE /whatsapp/{id} removes the webhook at the hub; its webhook then answers 404', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createHubChannel(t.users.admin.token);
    const before = fake.requestsTo(`/v1/channels/${fake.channelId}/webhook`, 'DELETE').length;
    expect((await server.request('DELETE', `/whatsapp/${channel.id}`, { token: t.users.admin.token })).status).toBe(204);
    await waitFor(() => fake.requestsTo(`/v1/channels/${fake.channelId}/webhook`, 'DELETE').length > before, 'webhook removal');
    const event = hubMessageEvent(fake.channelId, newHubContact(), [{ type: 'text', text: 'oi' }]);
    expect((await deliverHubEvent(url(channel.id), event, channel.secret)).status).toBe(404);
  });
});

describe('POST /webhooks/hub/:channelId', () => {
  it('stores contact, ticket and message once (header or ?secret=); a wrong or missing secret is 401 and stores nothing', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createHubChannel(t.users.admin.token);
    const other = await createHubChannel(t.users.admin.token);
    const from = newHubContact();
    const event = hubMessageEvent(fake.channelId, from, [{ type: 'text', text: 'Quero um orçamento' }], { name: 'Rita Alves' });

    expect((await deliverHubEvent(url(channel.id), event, null)).status).toBe(401);
    expect(await deliverHubEvent(url(channel.id), event, 'wrong')).toMatchObject({
      status: 401,
      body: { error: 'ERR_WEBHOOK_SIGNATURE' },
    });
    expect((await deliverHubEvent(url(channel.id), event, other.secret)).status).toBe(401);
    expect((await deliverHubEvent(url(channel.id), event, 'wrong', { query: true })).status).toBe(401);
    expect(await countMessages(t.tenant.id)).toBe(0);

    const first = await deliverHubEvent(url(channel.id), event, channel.secret);
    expect(first).toMatchObject({ status: 200, body: { stored: 1, duplicates: 0 } });
    const again = await deliverHubEvent(url(channel.id), event, channel.secret, { query: true });
    expect(again).toMatchObject({ status: 200, body: { stored: 0, duplicates: 1 } });

    const [contact] = await ds().query(`SELECT id, name, number, "hubWhatsappId" FROM contacts WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(contact).toMatchObject({ name: 'Rita Alves', hubWhatsappId: from });
    expect(
      await ds().query(`SELECT kind, "externalId" FROM contact_identities WHERE "contactId" = $1 AND kind = 'hub'`, [contact.id]),
    ).toEqual([{ kind: 'hub', externalId: from }]);
    const tickets = await ds().query(`SELECT "contactId", "whatsappId", channel FROM tickets WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(tickets).toEqual([{ contactId: contact.id, whatsappId: channel.id, channel: 'hub' }]);
    const messages = await ds().query(`SELECT body, "fromMe", "messageId" FROM messages WHERE "tenantId" = $1`, [t.tenant.id]);
    expect(messages).toEqual([{ body: 'Quero um orçamento', fromMe: false, messageId: (event.message as { id: string }).id }]);
  });

  it('downloads an inbound file from the hub; events of another hub channel and outgoing echoes are skipped', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createHubChannel(t.users.admin.token);
    const from = newHubContact();
    const bytes = Buffer.from('%PDF-1.4 hub');
    const fileUrl = fake.addFile(bytes, 'application/pdf', 'nota.pdf');
    const res = await deliverHubEvent(
      url(channel.id),
      [
        hubMessageEvent(fake.channelId, from, [
          { type: 'file', fileUrl, fileMimeType: 'application/pdf', fileName: 'nota.pdf', fileCaption: 'Nota fiscal' },
        ]),
        hubMessageEvent('someone-elses-channel', from, [{ type: 'text', text: 'x' }]),
        hubMessageEvent(fake.channelId, from, [{ type: 'text', text: 'eco' }], { direction: 'OUT' }),
      ],
      channel.secret,
    );
    expect(res.body).toMatchObject({ stored: 1, skipped: 2 });
    await server.deps.channels.idle();
    const [row] = await ds().query(
      `SELECT body, "mediaType", "mediaName", "mediaPath", "lastError" FROM messages WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(row).toMatchObject({ body: 'Nota fiscal', mediaType: 'document', mediaName: 'nota.pdf', lastError: null });
    const file = path.join(server.deps.config.dataDir, 'uploads', String(t.tenant.id), row.mediaPath);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});

describe('replies to hub tickets', () => {
  it('POST /messages/{ticketId} reaches the hub for the contact; statuses become acks; REJECTED fails it', async () => {
    const t = await tenantWithTicket();
    const res = await reply(t, 'Olá Rita, segue o orçamento.');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.messages[0].id;
    const sent = await waitForMessage(server, id, (r) => r.status === 'sent');
    expect(sent.messageId).toMatch(/^hubmsg-/);
    expect(fake.sentTo(t.from).at(-1)).toEqual({
      to: t.from,
      contents: [{ type: 'text', text: expect.stringContaining('segue o orçamento') }],
    });

    const delivered = await deliverHubEvent(
      url(t.channel.id),
      hubStatusEvent(fake.channelId, sent.messageId, 'DELIVERED'),
      t.channel.secret,
    );
    expect(delivered.body).toMatchObject({ statuses: 1 });
    await waitForMessage(server, id, (r) => r.ack === 2);
    await deliverHubEvent(url(t.channel.id), hubStatusEvent(fake.channelId, sent.messageId, 'READ'), t.channel.secret);
    await waitForMessage(server, id, (r) => r.ack === 3 && r.status === 'read');

    const r2 = await reply(t, 'Outra');
    const sent2 = await waitForMessage(server, r2.body.messages[0].id, (r) => r.status === 'sent');
    await deliverHubEvent(
      url(t.channel.id),
      hubStatusEvent(fake.channelId, sent2.messageId, 'REJECTED', 'Contato bloqueou o canal'),
      t.channel.secret,
    );
    const failed = await waitForMessage(server, sent2.id, (r) => r.status === 'failed');
    expect(failed.ack).toBe(-1);
    expect(failed.lastError).toContain('Contato bloqueou o canal');
  });

  it('sends an attached file: uploaded to the hub, then sent by its fileUrl', async () => {
    const t = await tenantWithTicket();
    const bytes = Buffer.from('png-bytes');
    const res = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.admin.token, {}, [
      { name: 'foto.png', type: 'image/png', bytes },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
    const call = fake.sentTo(t.from).at(-1);
    expect(call.contents[0]).toMatchObject({ type: 'file', fileMimeType: 'image/png', fileName: 'foto.png' });
    const upload = fake.uploads().find((u) => (u.form?.file as { name: string }).name === 'foto.png');
    expect((upload?.form?.file as { bytes: Buffer }).bytes.equals(bytes)).toBe(true);
  });

  it('a 500 and a timeout keep the message pending and it is retried; a 4xx fails it with the hub’s reason', async () => {
    const t = await tenantWithTicket();
    const toContact = (r: { path: string; json?: any }) => r.path.endsWith('/messages') && r.json?.to === t.from;
    fake.failNext({ status: 500 }, { match: toContact });
    const r1 = await reply(t, 'Primeira tentativa falha');
    const id1 = r1.body.messages[0].id;
    expect((await waitForMessage(server, id1, (r) => r.sendAttempts === 1 && r.lastError !== null)).status).toBe('pending');
    clock.advance(60_000);
    await runSweep(server);
    await waitForMessage(server, id1, (r) => r.status === 'sent');

    fake.failNext({ hang: true }, { match: toContact });
    const r2 = await reply(t, 'Sem resposta');
    const id2 = r2.body.messages[0].id;
    const timedOut = await waitForMessage(server, id2, (r) => r.sendAttempts === 1 && r.lastError !== null);
    expect(timedOut).toMatchObject({ status: 'pending', lastError: expect.stringContaining('sem resposta') });
    clock.advance(60_000);
    await runSweep(server);
    await waitForMessage(server, id2, (r) => r.status === 'sent');

    fake.failNext(
      { status: 422, body: { error: { code: 'INVALID_RECIPIENT', message: 'Recipient is not a valid contact' } } },
      { match: toContact },
    );
    const r3 = await reply(t, 'Falha final');
    const failed = await waitForMessage(server, r3.body.messages[0].id, (r) => r.status === 'failed');
    expect(failed).toMatchObject({ ack: -1, sendAttempts: 1 });
    expect(failed.lastError).toMatch(/^Mensagem não entregue: Hub: Recipient is not a valid contact/);
  });

  it(`gives up after ${MAX_SEND_ATTEMPTS} tries of 5xx: 'Mensagem não entregue', nothing lost on the way`, async () => {
    const t = await tenantWithTicket();
    const toContact = (r: { path: string; json?: any }) => r.path.endsWith('/messages') && r.json?.to === t.from;
    fake.failNext({ status: 503 }, { times: MAX_SEND_ATTEMPTS, match: toContact });
    const before = fake.sentTo(t.from).length;
    const res = await reply(t, 'Nunca chega');
    const id = res.body.messages[0].id;
    for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
      await waitForMessage(server, id, (r) => r.sendAttempts === attempt && r.lastError !== null && r.status === 'pending');
      await waitFor(() => fake.sentTo(t.from).length - before === attempt, `try ${attempt} at the fake`);
      clock.advance(retryDelayMs(attempt));
      await runSweep(server);
    }
    const failed = await waitForMessage(server, id, (r) => r.status === 'failed');
    expect(failed.sendAttempts).toBe(MAX_SEND_ATTEMPTS);
    expect(failed.lastError).toMatch(/^Mensagem não entregue/);
    expect(fake.sentTo(t.from).length - before).toBe(MAX_SEND_ATTEMPTS);
    expect(await countMessages(t.tenant.id)).toBe(2);
  });
});
