import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FakeMeow } from '../../../../tests/fakes/meow.fake';
import { gatewayWebhookSuite, newNumber, type GatewayChannel } from './gateway-webhook.suite';

/** The Meow channel through the real app against the fake Meow gateway (the modelled protocol). */

const fake = new FakeMeow();
const session = (c: GatewayChannel) => fake.sessions.get(c.credential);
const sendsTo = (to: string) => fake.sends().filter((r) => r.json?.to === to);

const { server, createChannel } = gatewayWebhookSuite({
  type: 'meow',
  secretKey: 'meowWebhookSecret',
  start: async () => void (await fake.start()),
  stop: () => fake.stop(),
  setWebhookOrigin: (origin) => void (fake.webhookOrigin = origin),
  createBody: () => ({ type: 'meow', name: `Meow ${randomBytes(3).toString('hex')}`, meowUrl: fake.url, meowToken: fake.addToken() }),
  currentQr: (c) => session(c)!.qr!,
  registeredWebhook: (c) => session(c)?.webhookUrl ?? null,
  scan: (c, number) => fake.scan(c.credential, number) as Promise<{ status: number; body: any }>,
  logoutFromPhone: (c) => fake.logoutFromPhone(c.credential),
  inboundText: (c, from, text, opts = {}) =>
    fake.inbound(c.credential, { chat: from, text, ...(opts.id ? { id: opts.id } : {}), ...(opts.pushName ? { pushName: opts.pushName } : {}) }, { secret: opts.secret }),
  inboundImage: (c, from, bytes, caption) => {
    const id = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    fake.media.set(id, { bytes, mimeType: 'image/jpeg' });
    return fake.inbound(c.credential, { id, chat: from, media: { type: 'image', mimeType: 'image/jpeg', caption } });
  },
  ack: (c, id, _to, status) => fake.ack(c.credential, [id], status),
  textsTo: (to) => sendsTo(to).filter((r) => r.json.text !== undefined).map((r) => r.json.text),
  lastMediaTo: (to) => {
    const r = sendsTo(to).filter((x) => x.json.media).at(-1);
    return r ? { bytes: Buffer.from(r.json.media.base64, 'base64'), fileName: r.json.media.fileName } : null;
  },
  failNextSend: (failure) => fake.failNext(failure, { match: (r) => r.path === '/v1/messages' }),
  exists: (c) => fake.sessions.has(c.credential),
  loggedIn: (c) => session(c)?.state === 'connected',
  requests: () => fake.requests,
});

describe('Meow specifics', () => {
  it('a failed receipt marks our message failed with the gateway reason', async () => {
    const t = await server().createTenantWithUsers();
    const channel = await createChannel(t.users.admin.token);
    await fake.scan(channel.credential, newNumber());
    const from = newNumber();
    await fake.inbound(channel.credential, { chat: from, text: 'oi' });
    const [ticket] = await server().deps.dataSource.query(`SELECT id FROM tickets WHERE "tenantId" = $1`, [t.tenant.id]);
    const res = await server().request('POST', `/messages/${ticket.id}`, { token: t.users.admin.token, body: { body: 'resposta' } });
    expect(res.status).toBe(201);
    const id = res.body.messages[0].id;
    let row: any;
    for (let i = 0; i < 200; i++) {
      [row] = await server().deps.dataSource.query(`SELECT status, ack, "messageId", "lastError" FROM messages WHERE id = $1`, [id]);
      if (row.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(row.status).toBe('sent');
    const receipt = await fake.ack(channel.credential, [row.messageId], 'failed');
    expect(receipt).toMatchObject({ status: 200, body: { statuses: 1 } });
    const [failed] = await server().deps.dataSource.query(`SELECT status, ack, "lastError" FROM messages WHERE id = $1`, [id]);
    expect(failed).toMatchObject({ status: 'failed', ack: -1, lastError: 'Meow: a mensagem não foi entregue' });
  });
});
