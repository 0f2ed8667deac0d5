import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FakeWuzapi } from '../../../../tests/fakes/wuzapi.fake';
import { gatewayWebhookSuite, newNumber, type GatewayChannel } from './gateway-webhook.suite';

/** The Wuzapi channel through the real app against a fake Wuzapi. */

const fake = new FakeWuzapi();
const user = (c: GatewayChannel) => fake.users.get(c.credential);
const sendsTo = (kind: string, to: string) => fake.sends(kind).filter((r) => r.json?.Phone === to);

const { server, createChannel } = gatewayWebhookSuite({
  type: 'wuzapi',
  secretKey: 'wuzapiWebhookSecret',
  start: async () => void (await fake.start()),
  stop: () => fake.stop(),
  setWebhookOrigin: (origin) => void (fake.webhookOrigin = origin),
  createBody: () => ({ type: 'wuzapi', name: `Wuzapi ${randomBytes(3).toString('hex')}`, wuzapiUrl: fake.url, wuzapiToken: fake.addUser() }),
  currentQr: (c) => user(c)!.qr!,
  registeredWebhook: (c) => user(c)?.webhook ?? null,
  scan: (c, number) => fake.scan(c.credential, number) as Promise<{ status: number; body: any }>,
  logoutFromPhone: (c) => fake.logoutFromPhone(c.credential),
  inboundText: (c, from, text, opts = {}) =>
    fake.inbound(c.credential, { from, id: opts.id, pushName: opts.pushName, message: { conversation: text } }, { secret: opts.secret }),
  inboundImage: (c, from, bytes, caption) => {
    const directPath = `/v/t62.7118-24/${randomBytes(6).toString('hex')}.enc`;
    fake.media.set(directPath, { bytes, mimetype: 'image/jpeg' });
    return fake.inbound(c.credential, {
      from,
      message: { imageMessage: { URL: `https://mmg.whatsapp.net${directPath}`, directPath, mimetype: 'image/jpeg', caption, mediaKey: 'a2V5', fileLength: bytes.length } },
    });
  },
  ack: (c, id, to, status) => fake.ack(c.credential, [id], `${to}@s.whatsapp.net`, status === 'read' ? 'Read' : 'Delivered'),
  textsTo: (to) => sendsTo('text', to).map((r) => r.json.Body),
  lastMediaTo: (to) => {
    const r = sendsTo('document', to).at(-1);
    return r ? { bytes: Buffer.from(String(r.json.Document).split(',')[1], 'base64'), fileName: r.json.FileName } : null;
  },
  failNextSend: (failure) => fake.failNext(failure, { match: (r) => r.path === '/chat/send/text' }),
  exists: (c) => !!user(c)?.webhook || !!user(c)?.loggedIn,
  loggedIn: (c) => !!user(c)?.loggedIn,
  requests: () => fake.requests,
});

describe('Wuzapi specifics', () => {
  it('older servers post form-encoded jsonData: stored the same way; a refreshed QR replaces the stored one', async () => {
    const t = await server().createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token);
    const refreshed = await fake.refreshQr(channel.credential);
    expect(refreshed).toMatchObject({ status: 200, body: { session: 'qr' } });
    const [row] = await server().deps.dataSource.query(`SELECT status, qrcode FROM channels WHERE id = $1`, [channel.id]);
    expect(row).toEqual({ status: 'qrcode', qrcode: fake.users.get(channel.credential)!.qr });
    await fake.scan(channel.credential, newNumber());
    fake.webhookFormat = 'form';
    try {
      const from = newNumber();
      const res = await fake.inbound(channel.credential, { from, message: { conversation: 'via formulário' } });
      expect(res).toMatchObject({ status: 200, body: { stored: 1 } });
      const [message] = await server().deps.dataSource.query(`SELECT body FROM messages WHERE "tenantId" = $1`, [t.tenant.id]);
      expect(message.body).toBe('via formulário');
    } finally {
      fake.webhookFormat = 'json';
    }
  });
});
