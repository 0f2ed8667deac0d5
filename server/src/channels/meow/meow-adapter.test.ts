import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeMeow } from '../../../../tests/fakes/meow.fake';
import { QR_TIMEOUT_REASON } from '../gateway/gateway-adapter';
import { sendError, sessionRecorder, tempFile, until } from '../gateway/gateway.test-support';
import { MeowAdapter } from './meow-adapter';
import { parseMeowWebhook } from './meow-webhook';

/** The Meow adapter alone against the fake Meow gateway (the modelled protocol; no database). */

let fake: FakeMeow;
beforeAll(async () => {
  fake = await new FakeMeow().start();
});
afterAll(async () => {
  await fake?.stop();
});
beforeEach(() => fake.clearFailures());

function adapter(opts: { token?: string; qrTimeoutMs?: number; options?: Record<string, unknown> } = {}) {
  const token = opts.token ?? fake.addToken();
  const rec = sessionRecorder('meow', {
    providerConfig: { meowUrl: fake.url, ...(opts.options ? { options: opts.options } : {}) },
    secrets: { meowToken: token, meowWebhookSecret: 'segredo-meow' },
  });
  const a = new MeowAdapter(rec.ctx, { publicUrl: 'https://atende.example.com', timeoutMs: 300, pollIntervalMs: 20, qrTimeoutMs: opts.qrTimeoutMs ?? 5_000 });
  return { a, rec, token };
}
const to = (n: string) => ({ to: n, isGroup: false });

describe('MeowAdapter', () => {
  it('connect: start with our webhook, QR and pairing code published, CONNECTED by polling; TIMEOUT when not scanned; bad token DISCONNECTED', async () => {
    const { a, rec, token } = adapter({ options: { pairingNumber: '5511988887777' } });
    await a.connect();
    expect(fake.requestsTo('/v1/session/start').at(-1)?.json).toEqual({
      webhookUrl: 'https://atende.example.com/webhooks/meow/42?secret=segredo-meow',
      pairingNumber: '5511988887777',
    });
    expect(rec.changes.at(-1)).toMatchObject({ next: 'qrcode', qrcode: fake.session(token).qr, pairingCode: fake.session(token).pairingCode });
    await fake.scan(token, '5511922221111', { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED');
    expect(rec.changes.at(-1)).toMatchObject({ number: '5511922221111' });

    const slow = adapter({ qrTimeoutMs: 100 });
    await slow.a.connect();
    await until(() => slow.a.status() === 'TIMEOUT', 'TIMEOUT');
    expect(slow.rec.changes.at(-1)).toMatchObject({ reason: QR_TIMEOUT_REASON });
    expect(fake.session(slow.token).state).toBe('logged_out');

    const bad = adapter({ token: 'nope' });
    await bad.a.connect();
    expect(bad.rec.changes.at(-1)).toMatchObject({ next: 'DISCONNECTED', reason: 'Meow: invalid token' });
  });

  it('sends text (reply), media as base64, reactions; maps failures; disconnect and destroy', async () => {
    const { a, rec, token } = adapter();
    await a.connect();
    await fake.scan(token, '5511922221111', { webhook: false });
    await until(() => a.status() === 'CONNECTED', 'CONNECTED');
    await a.sendText(to('5511911112222'), 'Olá', { quotedProviderMessageId: 'Q' });
    expect(fake.sends().at(-1)?.json).toEqual({ to: '5511911112222', text: 'Olá', replyTo: 'Q' });
    await a.sendMedia(to('5511911112222'), { path: tempFile('v.ogg', Buffer.from('ogg')), fileName: 'v.ogg', mimeType: 'audio/ogg', sendAsVoice: true });
    expect(fake.sends().at(-1)?.json.media).toEqual({ type: 'audio', base64: Buffer.from('ogg').toString('base64'), mimeType: 'audio/ogg', fileName: 'v.ogg', voice: true });
    await a.sendReaction(to('5511911112222'), 'M1', '👍');
    expect(fake.requestsTo('/v1/messages/M1/reactions').at(-1)?.json).toEqual({ to: '5511911112222', emoji: '👍' });
    fake.failNext({ status: 503 });
    expect((await sendError(a.sendText(to('5511911112222'), 'x'))).retryable).toBe(true);
    fake.failNext({ hang: true });
    expect((await sendError(a.sendText(to('5511911112222'), 'x'))).retryable).toBe(true);
    expect(await sendError(a.sendText(to('1'), 'x'))).toMatchObject({ retryable: false, message: 'Meow: invalid recipient 1' });
    await a.disconnect();
    expect(rec.current()).toBe('DISCONNECTED');
    expect(fake.session(token).state).toBe('logged_out');
    await a.destroy();
    expect(fake.sessions.has(token)).toBe(false);
  });

  it('parses message, receipt and session events', async () => {
    const record = { id: 42, tenantId: 7 };
    const dl = { downloadMedia: async () => Buffer.from('fetched') };
    const msg = parseMeowWebhook({ event: 'message', data: { id: 'A', chat: '5511911112222@s.whatsapp.net', pushName: 'Ana', text: 'oi', quotedId: 'Z', timestamp: 1700000000 } }, record, dl).messages[0];
    expect(msg).toMatchObject({ providerMessageId: 'A', body: 'oi', quotedProviderMessageId: 'Z', timestamp: 1700000000, from: { kind: 'wa', externalId: '5511911112222', name: 'Ana' } });
    const media = parseMeowWebhook({ event: 'message', data: { id: 'B', chat: '5511911112222@s.whatsapp.net', media: { type: 'document', mimeType: 'application/pdf', fileName: 'x.pdf' } } }, record, dl).messages[0];
    expect(await media.media!.download()).toEqual(Buffer.from('fetched'));
    const reaction = parseMeowWebhook({ event: 'message', data: { id: 'C', chat: '5511911112222@s.whatsapp.net', reaction: { targetId: 'OUT', emoji: '❤️' } } }, record, dl).messages[0];
    expect(reaction.reaction).toEqual({ targetProviderMessageId: 'OUT', emoji: '❤️' });
    expect(parseMeowWebhook({ event: 'message', data: { id: 'D', chat: '5511911112222@s.whatsapp.net', fromMe: true, text: 'eco' } }, record, dl).messages).toHaveLength(0);
    const receipt = parseMeowWebhook({ event: 'receipt', data: { ids: ['E', 'F'], status: 'played' } }, record, dl);
    expect(receipt.statuses.map((s) => s.status)).toEqual(['read', 'read']);
    expect(parseMeowWebhook({ event: 'receipt', data: { ids: ['G'], status: 'failed', error: 'número inválido' } }, record, dl).statuses[0]).toMatchObject({ status: 'failed', error: 'Meow: número inválido' });
    expect(parseMeowWebhook({ event: 'session.qr', data: { qr: '2@x', pairingCode: 'ABCD' } }, record, dl).connection).toEqual({ kind: 'qr', qr: '2@x', pairingCode: 'ABCD' });
    expect(parseMeowWebhook({ event: 'session.connected', data: { jid: '5511900001111.0:2@s.whatsapp.net' } }, record, dl).connection).toEqual({ kind: 'connected', number: '5511900001111' });
  });
});
