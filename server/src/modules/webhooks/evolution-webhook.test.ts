import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FakeEvolutionApi } from '../../../../tests/fakes/evolution-api.fake';
import { waitFor } from '../messages/messages.test-support';
import { gatewayWebhookSuite, newNumber, type GatewayChannel } from './gateway-webhook.suite';

/** The Evolution API channel (evo) through the real app against a fake Evolution API. */

const fake = new FakeEvolutionApi();
const instance = (c: GatewayChannel) => fake.instances.get(c.name);
const sendsTo = (path: RegExp, to: string) => fake.requests.filter((r) => path.test(r.path) && r.json?.number === to);

const { server, createChannel } = gatewayWebhookSuite({
  type: 'evo',
  secretKey: 'evolutionWebhookSecret',
  start: async () => void (await fake.start()),
  stop: () => fake.stop(),
  setWebhookOrigin: (origin) => void (fake.webhookOrigin = origin),
  createBody: () => ({ type: 'evo', name: `Loja ${randomBytes(3).toString('hex')}`, evolutionUrl: fake.url, evolutionApiKey: fake.apiKey }),
  currentQr: (c) => instance(c)!.code,
  registeredWebhook: (c) => instance(c)?.webhook?.url ?? null,
  scan: (c, number) => fake.scan(c.name, number) as Promise<{ status: number; body: any }>,
  logoutFromPhone: (c) => fake.logoutFromPhone(c.name),
  inboundText: (c, from, text, opts = {}) =>
    fake.inbound(c.name, { from, id: opts.id, pushName: opts.pushName, message: { conversation: text } }, { secret: opts.secret }),
  inboundImage: (c, from, bytes, caption) => {
    const id = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    fake.media.set(id, { bytes, mimetype: 'image/png' });
    return fake.inbound(c.name, { from, id, message: { imageMessage: { mimetype: 'image/png', caption, url: 'https://mmg.whatsapp.net/x.enc' } } });
  },
  ack: (c, id, to, status) => fake.ack(c.name, id, status === 'read' ? 'READ' : 'DELIVERY_ACK', `${to}@s.whatsapp.net`),
  textsTo: (to) => sendsTo(/^\/message\/sendText\//, to).map((r) => r.json.text),
  lastMediaTo: (to) => {
    const r = sendsTo(/^\/message\/sendMedia\//, to).at(-1);
    return r ? { bytes: Buffer.from(r.json.media, 'base64'), fileName: r.json.fileName } : null;
  },
  failNextSend: (failure) => fake.failNext(failure, { match: (r) => r.path.startsWith('/message/sendText/') }),
  exists: (c) => fake.instances.has(c.name),
  loggedIn: (c) => instance(c)?.state === 'open',
  requests: () => fake.requests,
});

describe('Evolution specifics', () => {
  it("refuses a server older than 2.20.0: DISCONNECTED with 'A versão da Evolution API deve ser 2.20.0 ou superior (encontrada: 2.1.0).'", async () => {
    const t = await server().createTenantWithUsers();
    fake.version = '2.1.0';
    try {
      const channel = await createChannel(t.users.admin.token);
      expect(channel.row).toMatchObject({
        status: 'DISCONNECTED',
        statusReason: 'A versão da Evolution API deve ser 2.20.0 ou superior (encontrada: 2.1.0).',
        qrcode: null,
      });
      expect(fake.instances.has(channel.name)).toBe(false);
      // Upgraded: a new session start (POST /whatsappsession) goes through.
      fake.version = '2.20.0';
      const started = await server().request('POST', `/whatsappsession/${channel.id}`, { token: t.users.admin.token });
      expect(started.status).toBe(200);
      expect(started.body).toMatchObject({ status: 'qrcode', statusReason: null });
      expect(fake.instances.has(channel.name)).toBe(true);
    } finally {
      fake.version = '2.20.3';
    }
  });

  it('the instance is named after the channel without spaces or special characters; a new QR code from the webhook replaces the stored one', async () => {
    const t = await server().createTenantWithUsers();
    const suffix = randomBytes(2).toString('hex');
    const channel = await createChannel(t.users.admin.token, {
      type: 'evo',
      name: `Loja Central - São Paulo ${suffix}!`,
      evolutionUrl: fake.url,
      evolutionApiKey: fake.apiKey,
    });
    expect(channel.name).toBe(`LojaCentral-SaoPaulo${suffix}`);
    expect(fake.instances.has(channel.name)).toBe(true);
    const refreshed = await fake.refreshQr(channel.name);
    expect(refreshed).toMatchObject({ status: 200, body: { session: 'qr' } });
    const [row] = await server().deps.dataSource.query(`SELECT status, qrcode FROM channels WHERE id = $1`, [channel.id]);
    expect(row).toEqual({ status: 'qrcode', qrcode: fake.instances.get(channel.name)!.code });
    const renamed = await server().request('PUT', `/whatsapp/${channel.id}`, { token: t.users.admin.token, body: { name: 'Outro' } });
    expect(renamed.status).toBe(400);
  });

  it('a quoted reply and a reaction from the customer land on their messages', async () => {
    const t = await server().createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token);
    await fake.scan(channel.name, newNumber());
    await waitFor(async () => (await server().deps.dataSource.query(`SELECT status FROM channels WHERE id = $1`, [channel.id]))[0].status === 'CONNECTED');
    const from = newNumber();
    const first = await fake.inbound(channel.name, { from, message: { conversation: 'Pedido 123' } });
    const quoted = await fake.inbound(channel.name, { from, message: { extendedTextMessage: { text: 'Este aqui', contextInfo: { stanzaId: first.id } } } });
    expect(quoted.body).toMatchObject({ stored: 1 });
    const reaction = await fake.inbound(channel.name, { from, message: { reactionMessage: { key: { id: first.id, fromMe: false, remoteJid: `${from}@s.whatsapp.net` }, text: '👍' } } });
    expect(reaction.body).toMatchObject({ reactions: 1 });
    const rows = await server().deps.dataSource.query(
      `SELECT m."messageId", q."messageId" AS quoted, m.reactions FROM messages m LEFT JOIN messages q ON q.id = m."quotedMsgId" WHERE m."tenantId" = $1 ORDER BY m.id`,
      [t.tenant.id],
    );
    expect(rows[1]).toMatchObject({ messageId: quoted.id, quoted: first.id });
    expect(rows[0].reactions).toEqual([expect.objectContaining({ emoji: '👍', fromMe: false })]);
  });
});
