import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FakeMetaMessaging,
  attachmentEvent,
  deliverMetaWebhook,
  deliveryEvent,
  graphError,
  metaPayload,
  newPsid,
  reactionEvent,
  readEvent,
  textEvent,
} from '../../../../tests/fakes/meta-messaging.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { MAX_SEND_ATTEMPTS, retryDelayMs } from '../messages/outbound-delivery';
import { frozenClock, multipart, runSweep, waitFor, waitForMessage } from '../messages/messages.test-support';

/** Instagram and Messenger channels through the real app against a fake Messenger Platform (Graph API). */

const clock = frozenClock();
let server: TestServer;
let fake: FakeMetaMessaging;
beforeAll(async () => {
  fake = await new FakeMetaMessaging().start();
  server = await startTestServer(
    { META_GRAPH_BASE_URL: fake.url, CHANNEL_HTTP_TIMEOUT_MS: '400', PUBLIC_URL: 'https://atende.example.com' },
    { clock },
  );
});
afterAll(async () => {
  await server?.close();
  await fake?.stop();
});

type MetaType = 'instagram' | 'messenger';
const ds = () => server.deps.dataSource;
const url = (type: MetaType, channelId: number) => `${server.url}/webhooks/${type}/${channelId}`;
const accountOf = (type: MetaType) => (type === 'instagram' ? fake.instagramId : fake.pageId);

function channelBody(type: MetaType, extra: Record<string, unknown> = {}) {
  return {
    type,
    name: `${type} ${randomBytes(3).toString('hex')}`,
    fbPageId: fake.pageId,
    ...(type === 'instagram' ? { instagramBusinessId: fake.instagramId } : {}),
    fbPageAccessToken: fake.token,
    fbAppSecret: `app-secret-${randomBytes(8).toString('hex')}`,
    fbVerifyToken: `verify-${randomBytes(8).toString('hex')}`,
    ...extra,
  };
}

async function createChannel(adminToken: string, type: MetaType, extra: Record<string, unknown> = {}) {
  const body = channelBody(type, extra);
  const res = await server.request('POST', '/whatsapp', { token: adminToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await server.deps.channels.idle();
  const [row] = await ds().query(`SELECT status, "statusReason", number FROM channels WHERE id = $1`, [res.body.id]);
  return {
    id: res.body.id as number,
    body: res.body,
    row,
    type,
    appSecret: body.fbAppSecret as string,
    verifyToken: body.fbVerifyToken as string,
  };
}

/** A tenant with a connected channel and a ticket opened by an inbound message of a named person. */
async function tenantWithTicket(type: MetaType) {
  const t = await server.createTenantWithUsers();
  const channel = await createChannel(t.users.admin.token, type);
  const psid = newPsid();
  fake.profiles.set(
    psid,
    type === 'instagram' ? { name: 'Bia Lima', username: 'bia.lima' } : { first_name: 'Ana', last_name: 'Souza' },
  );
  const res = await deliverMetaWebhook(
    url(type, channel.id),
    metaPayload(type, accountOf(type), [textEvent(psid, accountOf(type), 'Oi!')]),
    channel.appSecret,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [ticket] = await ds().query(`SELECT id, "contactId" FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
  return { ...t, channel, psid, ticketId: ticket.id as number, contactId: ticket.contactId as number };
}

const reply = (t: { users: { admin: { token: string } }; ticketId: number }, body: string) =>
  server.request('POST', `/messages/${t.ticketId}`, { token: t.users.admin.token, body: { body } });

const countMessages = async (tenantId: number) =>
  Number((await ds().query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1`, [tenantId]))[0].n);

describe('instagram and messenger channels (POST /whatsapp)', () => {
  it('creates a messenger channel: 201, secrets kept, CONNECTED with the page name after subscribing the page', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token, 'messenger');
    expect(channel.body).toMatchObject({
      type: 'messenger',
      providerSettings: { fbPageId: fake.pageId },
      storedSecrets: expect.arrayContaining(['fbPageAccessToken', 'fbAppSecret', 'fbVerifyToken']),
      webhookUrl: `https://atende.example.com/webhooks/messenger/${channel.id}`,
    });
    for (const secret of [fake.token, channel.appSecret, channel.verifyToken])
      expect(JSON.stringify(channel.body)).not.toContain(secret);
    expect(channel.row).toMatchObject({ status: 'CONNECTED', number: fake.pageName, statusReason: null });
    expect(fake.requestsTo(`/v21.0/${fake.pageId}/subscribed_apps`, 'POST').length).toBeGreaterThan(0);
  });

  it('creates an instagram channel: CONNECTED with the Instagram username; a bad token is DISCONNECTED with Graph’s reason', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token, 'instagram');
    expect(channel.row).toMatchObject({ status: 'CONNECTED', number: fake.instagramUsername });
    const bad = await createChannel(t.users.admin.token, 'instagram', { fbPageAccessToken: 'EAA-revoked' });
    expect(bad.row).toMatchObject({
      status: 'DISCONNECTED',
      statusReason: 'Graph API: Invalid OAuth access token - Cannot parse access token (#190)',
    });
    const missing = await server.request('POST', '/whatsapp', {
      token: t.users.admin.token,
      body: { ...channelBody('instagram'), instagramBusinessId: undefined },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.map((f: { path: string }) => f.path)).toContain('instagramBusinessId');
  });

  it('another tenant cannot read, reconnect or delete the channel (404)', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const channel = await createChannel(a.users.admin.token, 'messenger');
    const token = b.users.admin.token;
    expect((await server.request('GET', `/whatsapp/${channel.id}`, { token })).status).toBe(404);
    expect((await server.request('PUT', `/whatsapp/${channel.id}`, { token, body: { name: 'x' } })).status).toBe(404);
    expect((await server.request('POST', `/whatsappsession/${channel.id}`, { token })).status).toBe(404);
    expect((await server.request('DELETE', `/whatsapp/${channel.id}`, { token })).status).toBe(404);
    expect((await server.request('GET', `/whatsapp/${channel.id}`, { token: a.users.admin.token })).status).toBe(200);
  });
});

describe('GET /webhooks/{instagram,messenger}/:channelId (subscription check)', () => {
  it("answers hub.challenge when the verify token is the channel's; 403 otherwise; 404 unknown or other type", async () => {
    const t = await server.createTenantWithUsers();
    for (const type of ['instagram', 'messenger'] as const) {
      const channel = await createChannel(t.users.admin.token, type);
      const ok = await fetch(
        `${url(type, channel.id)}?hub.mode=subscribe&hub.verify_token=${channel.verifyToken}&hub.challenge=8675309`,
      );
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('text/plain');
      expect(await ok.text()).toBe('8675309');
      for (const query of [
        'hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1',
        `hub.mode=unsubscribe&hub.verify_token=${channel.verifyToken}&hub.challenge=1`,
        'hub.mode=subscribe&hub.challenge=1',
      ]) {
        expect((await fetch(`${url(type, channel.id)}?${query}`)).status, query).toBe(403);
      }
      const otherType = type === 'instagram' ? 'messenger' : 'instagram';
      const q = `hub.mode=subscribe&hub.verify_token=${channel.verifyToken}&hub.challenge=1`;
      expect((await fetch(`${url(otherType, channel.id)}?${q}`)).status).toBe(404);
    }
    expect((await fetch(`${url('messenger', 99_999_999)}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(
      404,
    );
  });
});

describe('POST /webhooks/{instagram,messenger}/:channelId', () => {
  it.each(['messenger', 'instagram'] as const)(
    '%s: a signed message creates the contact (named from Graph), a ticket and the message once; unsigned or wrong: 401, nothing stored',
    async (type) => {
      const t = await server.createTenantWithUsers();
      const channel = await createChannel(t.users.admin.token, type);
      const psid = newPsid();
      fake.profiles.set(
        psid,
        type === 'instagram' ? { name: 'Carla Dias', username: 'carla' } : { first_name: 'Carla', last_name: 'Dias' },
      );
      const event = textEvent(psid, accountOf(type), 'Quero saber do meu pedido');
      const payload = metaPayload(type, accountOf(type), [event]);

      expect((await deliverMetaWebhook(url(type, channel.id), payload, null)).status).toBe(401);
      const wrong = await deliverMetaWebhook(url(type, channel.id), payload, 'not-the-app-secret');
      expect(wrong).toMatchObject({ status: 401, body: { error: 'ERR_WEBHOOK_SIGNATURE' } });
      expect((await deliverMetaWebhook(url(type, channel.id), payload, { signature: 'sha256=abc' })).status).toBe(401);
      expect(await countMessages(t.tenant.id)).toBe(0);
      expect((await ds().query(`SELECT 1 FROM contacts WHERE "tenantId" = $1`, [t.tenant.id])).length).toBe(0);

      const first = await deliverMetaWebhook(url(type, channel.id), payload, channel.appSecret);
      expect(first).toMatchObject({ status: 200, body: { stored: 1, duplicates: 0 } });
      const again = await deliverMetaWebhook(url(type, channel.id), payload, channel.appSecret);
      expect(again).toMatchObject({ status: 200, body: { stored: 0, duplicates: 1 } });

      const column = type === 'instagram' ? 'instagramId' : 'messengerId';
      const [contact] = await ds().query(`SELECT id, name, "${column}" AS ext FROM contacts WHERE "tenantId" = $1`, [
        t.tenant.id,
      ]);
      expect(contact).toMatchObject({ name: 'Carla Dias', ext: psid });
      expect(
        await ds().query(`SELECT kind, "externalId", "channelId" FROM contact_identities WHERE "contactId" = $1`, [contact.id]),
      ).toEqual([{ kind: type, externalId: psid, channelId: channel.id }]);
      const tickets = await ds().query(`SELECT "contactId", "whatsappId", channel, status FROM tickets WHERE "tenantId" = $1`, [
        t.tenant.id,
      ]);
      expect(tickets).toEqual([{ contactId: contact.id, whatsappId: channel.id, channel: type, status: 'pending' }]);
      const messages = await ds().query(`SELECT body, "fromMe", "messageId" FROM messages WHERE "tenantId" = $1`, [t.tenant.id]);
      expect(messages).toEqual([
        { body: 'Quero saber do meu pedido', fromMe: false, messageId: (event.message as { mid: string }).mid },
      ]);
    },
  );

  it("a payload signed with another channel's secret is refused, and entries of another page are skipped", async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token, 'messenger');
    const other = await createChannel(t.users.admin.token, 'messenger');
    const payload = metaPayload('messenger', fake.pageId, [textEvent(newPsid(), fake.pageId, 'oi')]);
    expect((await deliverMetaWebhook(url('messenger', channel.id), payload, other.appSecret)).status).toBe(401);
    const foreign = metaPayload('messenger', '123456789012', [textEvent(newPsid(), '123456789012', 'oi')]);
    expect(await deliverMetaWebhook(url('messenger', channel.id), foreign, channel.appSecret)).toMatchObject({
      status: 200,
      body: { stored: 0 },
    });
    expect(await countMessages(t.tenant.id)).toBe(0);
  });

  it('echoes of the page are ignored; attachments are downloaded from their URL into the tenant folder', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token, 'instagram');
    const igsid = newPsid();
    const bytes = Buffer.from('fake-jpeg-bytes');
    const cdn = fake.addCdnFile(bytes, 'image/jpeg', `ig_${randomBytes(4).toString('hex')}.jpg`);
    const echo = textEvent(fake.instagramId, igsid, 'eco');
    (echo.message as Record<string, unknown>).is_echo = true;
    const res = await deliverMetaWebhook(
      url('instagram', channel.id),
      metaPayload('instagram', fake.instagramId, [echo, attachmentEvent(igsid, fake.instagramId, [{ type: 'image', url: cdn }])]),
      channel.appSecret,
    );
    expect(res.body).toMatchObject({ stored: 1 });
    await server.deps.channels.idle();
    const rows = await ds().query(
      `SELECT "mediaType", "mimeType", "mediaPath", "lastError", "fromMe" FROM messages WHERE "tenantId" = $1`,
      [t.tenant.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ mediaType: 'image', mimeType: 'image/jpeg', lastError: null, fromMe: false });
    const file = path.join(server.deps.config.dataDir, 'uploads', String(t.tenant.id), rows[0].mediaPath);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('an expired attachment URL keeps the message with ERR_WAPP_DOWNLOAD_MEDIA', async () => {
    const t = await server.createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token, 'messenger');
    await deliverMetaWebhook(
      url('messenger', channel.id),
      metaPayload('messenger', fake.pageId, [
        attachmentEvent(newPsid(), fake.pageId, [{ type: 'file', url: `${fake.url}/cdn/expired.pdf` }]),
      ]),
      channel.appSecret,
    );
    await server.deps.channels.idle();
    const [row] = await ds().query(`SELECT "mediaType", "lastError" FROM messages WHERE "tenantId" = $1`, [t.tenant.id]);
    expect(row).toEqual({ mediaType: 'document', lastError: 'ERR_WAPP_DOWNLOAD_MEDIA' });
  });
});

describe('replies to instagram and messenger tickets', () => {
  it.each(['messenger', 'instagram'] as const)(
    '%s: POST /messages/{ticketId} reaches the Send API for the person, then receipts become acks',
    async (type) => {
      const t = await tenantWithTicket(type);
      const res = await reply(t, 'Olá, como posso ajudar?');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const id = res.body.messages[0].id;
      const sent = await waitForMessage(server, id, (r) => r.status === 'sent');
      expect(sent.ack).toBe(1);
      const call = fake.sentTo(t.psid).at(-1);
      expect(call).toMatchObject({ recipient: { id: t.psid }, messaging_type: 'RESPONSE' });
      expect(call.message.text).toContain('como posso ajudar?');
      expect(sent.messageId).toMatch(/^m_/);

      const account = accountOf(type);
      if (type === 'messenger') {
        const d = await deliverMetaWebhook(
          url(type, t.channel.id),
          metaPayload(type, account, [deliveryEvent(t.psid, account, [sent.messageId])]),
          t.channel.appSecret,
        );
        expect(d.body).toMatchObject({ statuses: 1 });
        await waitForMessage(server, id, (r) => r.ack === 2 && r.status === 'delivered');
        // Messenger read receipts carry a watermark: everything sent to the person up to then.
        const r = await deliverMetaWebhook(
          url(type, t.channel.id),
          metaPayload(type, account, [readEvent(t.psid, account, { watermark: Date.now() + 2000 })]),
          t.channel.appSecret,
        );
        expect(r.body).toMatchObject({ statuses: 1 });
      } else {
        const r = await deliverMetaWebhook(
          url(type, t.channel.id),
          metaPayload(type, account, [readEvent(t.psid, account, { mid: sent.messageId })]),
          t.channel.appSecret,
        );
        expect(r.body).toMatchObject({ statuses: 1 });
      }
      await waitForMessage(server, id, (r) => r.ack === 3 && r.status === 'read');
    },
  );

  it('an Instagram reaction to our message lands on it', async () => {
    const t = await tenantWithTicket('instagram');
    const res = await reply(t, 'Gostou?');
    const sent = await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
    await deliverMetaWebhook(
      url('instagram', t.channel.id),
      metaPayload('instagram', fake.instagramId, [reactionEvent(t.psid, fake.instagramId, sent.messageId)]),
      t.channel.appSecret,
    );
    await waitForMessage(
      server,
      sent.id,
      (r) => Array.isArray(r.reactions) && r.reactions.some((x: { emoji: string }) => x.emoji === '❤️'),
    );
  });

  it('sends an attached file: uploaded with filedata, then sent by attachment_id', async () => {
    const t = await tenantWithTicket('messenger');
    const bytes = Buffer.from('%PDF-1.4 messenger');
    const uploads = fake.uploads().length;
    const res = await multipart(server, 'POST', `/messages/${t.ticketId}`, t.users.admin.token, {}, [
      { name: 'boleto.pdf', type: 'application/pdf', bytes },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
    const upload = fake.uploads().slice(uploads)[0];
    const file = upload.form?.filedata as { name: string; bytes: Buffer };
    expect(file.name).toBe('boleto.pdf');
    expect(file.bytes.equals(bytes)).toBe(true);
    const call = fake.sentTo(t.psid).at(-1);
    expect(call.message.attachment).toMatchObject({ type: 'file', payload: { attachment_id: expect.any(String) } });
  });

  it('a 500 and a timeout keep the message pending and it is retried; a 4xx fails it with Graph’s reason', async () => {
    const t = await tenantWithTicket('messenger');
    const toPerson = (r: { path: string; json?: any }) => r.path.endsWith('/messages') && r.json?.recipient?.id === t.psid;
    fake.failNext({ status: 500 }, { match: toPerson });
    const r1 = await reply(t, 'Primeira tentativa falha');
    const id1 = r1.body.messages[0].id;
    const pending = await waitForMessage(server, id1, (r) => r.sendAttempts === 1 && r.lastError !== null);
    expect(pending.status).toBe('pending');
    clock.advance(60_000);
    await runSweep(server);
    await waitForMessage(server, id1, (r) => r.status === 'sent');

    fake.failNext({ hang: true }, { match: toPerson });
    const r2 = await reply(t, 'Sem resposta');
    const id2 = r2.body.messages[0].id;
    const timedOut = await waitForMessage(server, id2, (r) => r.sendAttempts === 1 && r.lastError !== null);
    expect(timedOut.status).toBe('pending');
    expect(timedOut.lastError).toContain('sem resposta');
    clock.advance(60_000);
    await runSweep(server);
    await waitForMessage(server, id2, (r) => r.status === 'sent');

    fake.failNext(
      { status: 400, body: graphError('(#10) This message is sent outside of allowed window.', 10, { error_subcode: 2018278 }) },
      { match: toPerson },
    );
    const r3 = await reply(t, 'Fora da janela');
    const failed = await waitForMessage(server, r3.body.messages[0].id, (r) => r.status === 'failed');
    expect(failed.ack).toBe(-1);
    expect(failed.sendAttempts).toBe(1);
    expect(failed.lastError).toMatch(/^Mensagem não entregue: .*outside of allowed window/);
  });

  it(`gives up after ${MAX_SEND_ATTEMPTS} tries of 5xx: 'Mensagem não entregue', each try reached the fake`, async () => {
    const t = await tenantWithTicket('instagram');
    const toPerson = (r: { path: string; json?: any }) => r.path.endsWith('/messages') && r.json?.recipient?.id === t.psid;
    fake.failNext({ status: 503 }, { times: MAX_SEND_ATTEMPTS, match: toPerson });
    const before = fake.sentTo(t.psid).length;
    const res = await reply(t, 'Nunca chega');
    const id = res.body.messages[0].id;
    for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
      await waitForMessage(server, id, (r) => r.sendAttempts === attempt && r.lastError !== null && r.status === 'pending');
      await waitFor(async () => fake.sentTo(t.psid).length - before === attempt, `try ${attempt} at the fake`);
      clock.advance(retryDelayMs(attempt));
      await runSweep(server);
    }
    const failed = await waitForMessage(server, id, (r) => r.status === 'failed');
    expect(failed.sendAttempts).toBe(MAX_SEND_ATTEMPTS);
    expect(failed.lastError).toMatch(/^Mensagem não entregue/);
    expect(fake.sentTo(t.psid).length - before).toBe(MAX_SEND_ATTEMPTS);
    expect(await countMessages(t.tenant.id)).toBe(2);
  });
});
